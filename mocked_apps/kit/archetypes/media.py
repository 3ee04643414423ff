"""Media list: tracks or episodes with a player bar (what is playing is in the URL), and a play queue kept on the server."""

from __future__ import annotations

from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render


def mount_media(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model, queue = app.model(e.name), app.model("queue_item")
    path = page_path(page)

    @router.get(path)
    def tracks(gym: GymDep, playing: int = 0):
        rows = gym.db.exec(select(model).order_by(model.id)).all()
        queued = gym.db.exec(select(queue).order_by(queue.id)).all()
        by_id = {r.id: r for r in rows}
        now = by_id.get(playing)
        return render(app, gym, "arch/media.html", page_title(app.spec, page), entity=e, rows=rows, current=now,
                      queue=[(q, by_id[q.item_id]) for q in queued if q.item_id in by_id], path=path)

    @router.post(path + "/queue/{item_id}")
    def enqueue(gym: GymDep, item_id: int):
        row = gym.get(model, item_id)
        gym.db.add(queue(item_id=item_id))
        return gym.done(path, notice=f"{getattr(row, e.title)} added to the queue")

    @router.post(path + "/queue/{queue_id}/remove")
    def dequeue(gym: GymDep, queue_id: int):
        gym.db.delete(gym.get(queue, queue_id))
        return gym.done(path, notice="Removed from the queue")


__all__ = ["mount_media"]
