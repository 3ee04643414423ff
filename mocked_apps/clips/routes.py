"""Pages and form posts of Clips: the feeds, a video with its likes, saves and comments, following, profiles
and search. Posting and editing live in `posting.py`, sharing and the inbox in `sharing.py`.
"""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import or_, select

from mocked_apps.kit import GymDep

from . import posting, sharing
from .models import Comment, Creator, Video
from .rules import VISIBILITY
from .views import cards, me, visible

router = APIRouter()
router.include_router(posting.router)
router.include_router(sharing.router)
COMMENT_MAX = 300


def _video(gym, video_id: int) -> Video:
    """The video, or the 404 page when it is not the user's to see."""
    video = gym.get(Video, video_id)
    if not visible(video, gym.get(Creator, video.creator_id)):
        raise HTTPException(404, f"Video {video_id} not found")
    return video


@router.get("/")
def feed(gym: GymDep, tab: str = "foryou"):
    tab = tab if tab in ("foryou", "following") else "foryou"
    rows = gym.db.exec(select(Video).order_by(Video.posted_at.desc(), Video.id.desc())).all()
    followed = {c.id for c in gym.db.exec(select(Creator).where(Creator.following == True)).all()}  # noqa: E712
    mine = me(gym.db).id
    if tab == "following":
        rows = [v for v in rows if v.creator_id in followed]
    else:
        rows = [v for v in rows if v.visibility == "public" and v.creator_id != mine]
    return gym.render("feed.html", tab=tab, cards=cards(gym.db, rows))


@router.get("/v/{video_id}")
def video_page(gym: GymDep, video_id: int, error: str = "", body: str = ""):
    video = _video(gym, video_id)
    comments = gym.db.exec(select(Comment).where(Comment.video_id == video.id).order_by(Comment.posted_at.desc(), Comment.id.desc())).all()
    people = {c.id: c for c in gym.db.exec(select(Creator)).all()}
    return gym.render("video.html", card=cards(gym.db, [video])[0], comments=comments, people=people, me=me(gym.db), visibility=VISIBILITY,
                      error=error, body=body)


@router.post("/v/{video_id}/like")
def like(gym: GymDep, video_id: int):
    video = _video(gym, video_id)
    video.liked = not video.liked
    gym.db.add(video)
    return gym.done(f"/v/{video.id}", notice="Liked" if video.liked else "Like removed")


@router.post("/v/{video_id}/save")
def save(gym: GymDep, video_id: int):
    video = _video(gym, video_id)
    video.saved = not video.saved
    gym.db.add(video)
    return gym.done(f"/v/{video.id}", notice="Saved to favourites" if video.saved else "Removed from favourites")


@router.post("/v/{video_id}/comment")
def comment(gym: GymDep, video_id: int, body: str = Form("")):
    video = _video(gym, video_id)
    text = " ".join(body.split())
    if not video.allow_comments:
        return gym.done(f"/v/{video.id}", error="closed")
    if not text or len(text) > COMMENT_MAX:
        return gym.done(f"/v/{video.id}", error="empty" if not text else "long", body=body[:COMMENT_MAX * 2])
    gym.db.add(Comment(video_id=video.id, creator_id=me(gym.db).id, body=text, posted_at=gym.now))
    gym.advance()
    return gym.done(f"/v/{video.id}", notice="Comment posted")


@router.post("/comment/{comment_id}/delete")
def delete_comment(gym: GymDep, comment_id: int):
    row = gym.get(Comment, comment_id)
    if row.creator_id != me(gym.db).id:
        return gym.done(f"/v/{row.video_id}", notice="You can only delete your own comments")
    gym.db.delete(row)
    return gym.done(f"/v/{row.video_id}", notice="Comment deleted")


@router.get("/u/{creator_id}")
def profile(gym: GymDep, creator_id: int):
    creator = gym.get(Creator, creator_id)
    rows = gym.db.exec(select(Video).where(Video.creator_id == creator.id).order_by(Video.posted_at.desc(), Video.id.desc())).all()
    shown = cards(gym.db, rows)
    return gym.render("profile.html", creator=creator, cards=shown, likes=sum(c.video.likes + c.video.liked for c in shown))


@router.post("/u/{creator_id}/follow")
def follow(gym: GymDep, creator_id: int):
    creator = gym.get(Creator, creator_id)
    if creator.is_me:
        return gym.done(f"/u/{creator.id}", notice="That is you")
    creator.following = not creator.following
    gym.db.add(creator)
    return gym.done(f"/u/{creator.id}", notice=f"Following {creator.name}" if creator.following else f"Unfollowed {creator.name}")


@router.get("/search")
def search(gym: GymDep, q: str = ""):
    words = q.strip().lstrip("#")
    videos, people = [], []
    if words:
        like_q = f"%{words}%"
        videos = cards(gym.db, gym.db.exec(select(Video).where(or_(Video.title.ilike(like_q), Video.caption.ilike(like_q), Video.tags.ilike(like_q)))
                                           .order_by(Video.likes.desc(), Video.id)).all())
        people = gym.db.exec(select(Creator).where(or_(Creator.name.ilike(like_q), Creator.handle.ilike(like_q))).order_by(Creator.id)).all()
    return gym.render("search.html", q=q, cards=videos, people=people)


@router.get("/tag/{tag}")
def tag(gym: GymDep, tag: str):
    rows = [v for v in gym.db.exec(select(Video).order_by(Video.likes.desc(), Video.id)).all() if tag.lower() in v.tags.split(",")]
    return gym.render("tag.html", tag=tag.lower(), cards=cards(gym.db, rows))
