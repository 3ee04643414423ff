"""Feed: posts newest first, with like / unlike, comments and following their authors."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render


def mount_feed(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model, comment, follow = app.model(e.name), app.model("comment"), app.model("follow")
    path = page_path(page)
    author = page.options.get("author") or e.subtitle or e.title
    body = page.options.get("body") or next((f.name for f in e.fields if f.type == "longtext"), e.title)
    when = page.options.get("date") or next((f.name for f in e.fields if f.type in ("datetime", "date")), "id")
    likes = page.options.get("likes")

    @router.get(path)
    def feed(gym: GymDep, who: str = ""):
        stmt = select(model)
        if who:
            stmt = stmt.where(getattr(model, author) == who)
        posts = gym.db.exec(stmt.order_by(getattr(model, when).desc(), model.id.desc())).all()
        comments: dict[int, list] = {}
        for c in gym.db.exec(select(comment).order_by(comment.id)).all():
            comments.setdefault(c.post_id, []).append(c)
        following = {f.who for f in gym.db.exec(select(follow)).all()}
        return render(app, gym, "arch/feed.html", page_title(app.spec, page), entity=e, posts=posts, comments=comments,
                      following=following, author=author, body=body, when=when, likes=likes, path=path, who=who)

    @router.post(f"/{e.name}/{{row_id}}/like")
    def like(gym: GymDep, row_id: int):
        post = gym.get(model, row_id)
        post.liked = not post.liked
        gym.db.add(post)
        return gym.done(path, notice="Liked" if post.liked else "Like removed")

    @router.post(f"/{e.name}/{{row_id}}/comment")
    def add_comment(gym: GymDep, row_id: int, text: str = Form("")):
        gym.get(model, row_id)
        if not text.strip():
            return gym.done(path, notice="Write something before posting a comment")
        gym.db.add(comment(post_id=row_id, body=text.strip(), posted_at=gym.now))
        return gym.done(path, notice="Comment posted")

    @router.post("/follow")
    def toggle_follow(gym: GymDep, who: str = Form("")):
        existing = gym.db.exec(select(follow).where(follow.who == who)).first()
        if existing:
            gym.db.delete(existing)
        elif who.strip():
            gym.db.add(follow(who=who.strip()))
        return gym.done(path, notice=("Unfollowed " if existing else "Following ") + who)


__all__ = ["mount_feed"]
