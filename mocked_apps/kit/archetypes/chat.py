"""Chat: conversations on the left, the open thread's messages, and a composer that sends a message."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render


def mount_chat(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model, message = app.model(e.name), app.model("chat_message")
    path = page_path(page)

    @router.get(path)
    def inbox(gym: GymDep, thread: int = 0):
        threads = gym.db.exec(select(model).order_by(model.id)).all()
        current = next((t for t in threads if t.id == thread), threads[0] if threads else None)
        messages = gym.db.exec(select(message).where(message.thread_id == current.id).order_by(message.sent_at, message.id)).all() if current else []
        return render(app, gym, "arch/chat.html", page_title(app.spec, page), entity=e, threads=threads, current=current,
                      messages=messages, path=path)

    @router.post(path + "/{thread_id}/send")
    def send(gym: GymDep, thread_id: int, text: str = Form("")):
        gym.get(model, thread_id)
        if text.strip():
            gym.db.add(message(thread_id=thread_id, body=text.strip(), mine=True, sent_at=gym.now))
        return gym.done(path, thread=thread_id, notice=None if text.strip() else "Type a message first")


__all__ = ["mount_chat"]
