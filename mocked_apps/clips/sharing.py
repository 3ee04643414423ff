"""Sharing a video to contacts (the share sheet: pick people, add a message, send) and the inbox: a thread
per contact with the videos sent to them."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Creator, Share, Video
from .views import cards, visible

router = APIRouter()
MESSAGE_MAX = 200


def _contacts(db) -> list[Creator]:
    """People the user can send to: followed ones first, then by name."""
    return sorted(db.exec(select(Creator).where(Creator.is_contact == True)).all(), key=lambda c: (not c.following, c.name, c.id))  # noqa: E712


@router.get("/v/{video_id}/share")
def share_sheet(gym: GymDep, video_id: int, error: str = "", message: str = ""):
    video = gym.get(Video, video_id)
    card = cards(gym.db, [video])
    if not card:
        raise HTTPException(404, f"Video {video_id} not found")
    return gym.render("share.html", card=card[0], contacts=_contacts(gym.db), error=error, message=message)


@router.post("/v/{video_id}/share")
async def share(gym: GymDep, video_id: int, request: Request):
    video = gym.get(Video, video_id)
    form = await request.form()
    message = " ".join(str(form.get("message", "")).split())
    contacts = {c.id: c for c in _contacts(gym.db)}
    picked = sorted({int(v) for k, v in form.multi_items() if k == "to" and str(v).isdigit()})
    if video.visibility == "private" or not visible(video, gym.get(Creator, video.creator_id)):
        return gym.done(f"/v/{video.id}/share", error="private", message=message)
    if not picked or any(p not in contacts for p in picked):
        return gym.done(f"/v/{video.id}/share", error="nobody", message=message)
    if len(message) > MESSAGE_MAX:
        return gym.done(f"/v/{video.id}/share", error="long", message=message[:MESSAGE_MAX * 2])
    for p in picked:
        gym.db.add(Share(video_id=video.id, contact_id=p, message=message, sent_at=gym.now))
    gym.advance()
    names = ", ".join(contacts[p].name for p in picked)
    return gym.done(f"/v/{video.id}", notice=f"Sent to {names}")


@router.get("/inbox")
def inbox(gym: GymDep):
    shares = gym.db.exec(select(Share).order_by(Share.sent_at.desc(), Share.id.desc())).all()
    people = {c.id: c for c in gym.db.exec(select(Creator)).all()}
    threads: dict[int, list[Share]] = {}
    for s in shares:
        threads.setdefault(s.contact_id, []).append(s)
    videos = {v.id: v for v in gym.db.exec(select(Video)).all()}
    return gym.render("inbox.html", threads=threads, people=people, videos=videos)


@router.get("/inbox/{contact_id}")
def thread(gym: GymDep, contact_id: int):
    contact = gym.get(Creator, contact_id)
    shares = gym.db.exec(select(Share).where(Share.contact_id == contact.id).order_by(Share.sent_at, Share.id)).all()
    videos = {v.id: v for v in gym.db.exec(select(Video)).all()}
    return gym.render("thread.html", contact=contact, shares=shares, videos=videos)
