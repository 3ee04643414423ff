"""Posting a video and editing or deleting one of the user's own; the user's profile page (their videos
with who can watch each, the videos they liked and saved)."""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import select

from mocked_apps.kit import GymDep

from .catalogue import hue
from .models import Comment, Creator, Share, Video
from .rules import VISIBILITY, parse_tags, post_errors
from .views import cards, me

router = APIRouter()

CAMERA_ROLL = {"1": ("Clip 1 · 0:15", 15), "2": ("Clip 2 · 0:32", 32), "3": ("Clip 3 · 0:58", 58)}
"""The clips on the phone the user can post: form value -> (label, seconds)."""


def _own(gym, video_id: int) -> Video:
    video = gym.get(Video, video_id)
    if video.creator_id != me(gym.db).id:
        raise HTTPException(404, f"Video {video_id} is not yours to edit")
    return video


def _form(gym, template: str, values: dict, errors: dict, **extra):
    response = gym.render(template, values=values, errors=errors, visibility=VISIBILITY, roll=CAMERA_ROLL, **extra)
    if errors:
        response.status_code = 422
    return response


@router.get("/me")
def my_profile(gym: GymDep, tab: str = "videos"):
    tab = tab if tab in ("videos", "liked", "saved") else "videos"
    user = me(gym.db)
    newest = (Video.posted_at.desc(), Video.id.desc())
    if tab == "videos":
        rows = gym.db.exec(select(Video).where(Video.creator_id == user.id).order_by(*newest)).all()
    else:
        rows = gym.db.exec(select(Video).where((Video.liked if tab == "liked" else Video.saved) == True).order_by(*newest)).all()  # noqa: E712
    following = len(gym.db.exec(select(Creator.id).where(Creator.following == True)).all())  # noqa: E712
    return gym.render("me.html", tab=tab, user=user, cards=cards(gym.db, rows), visibility=VISIBILITY, following=following)


@router.get("/upload")
def upload_form(gym: GymDep):
    return _form(gym, "post.html", {"clip": "1", "title": "", "caption": "", "tags": "", "visibility": "public", "allow_comments": True}, {})


@router.post("/upload")
def upload(gym: GymDep, clip: str = Form("1"), title: str = Form(""), caption: str = Form(""), tags: str = Form(""),
           visibility: str = Form("public"), allow_comments: str = Form("")):
    values = {"clip": clip, "title": title, "caption": caption, "tags": tags, "visibility": visibility, "allow_comments": bool(allow_comments)}
    errors = post_errors(title, visibility)
    if clip not in CAMERA_ROLL:
        errors["clip"] = "Choose a clip."
    if errors:
        return _form(gym, "post.html", values, errors)
    user = me(gym.db)
    video = Video(creator_id=user.id, title=title.strip(), caption=caption.strip(), tags=parse_tags(tags), visibility=visibility,
                  allow_comments=bool(allow_comments), duration_s=CAMERA_ROLL[clip][1], sound=f"original sound - {user.handle}",
                  cover_hue=hue(title.strip()), posted_at=gym.now)
    gym.db.add(video)
    gym.db.flush()
    gym.advance()
    return gym.done(f"/v/{video.id}", notice="Your video is posted")


@router.get("/v/{video_id}/edit")
def edit_form(gym: GymDep, video_id: int):
    v = _own(gym, video_id)
    values = {"title": v.title, "caption": v.caption, "tags": " ".join(f"#{t}" for t in v.tags.split(",") if t),
              "visibility": v.visibility, "allow_comments": v.allow_comments}
    return _form(gym, "edit.html", values, {}, video=v)


@router.post("/v/{video_id}/edit")
def edit(gym: GymDep, video_id: int, title: str = Form(""), caption: str = Form(""), tags: str = Form(""),
         visibility: str = Form("public"), allow_comments: str = Form("")):
    v = _own(gym, video_id)
    values = {"title": title, "caption": caption, "tags": tags, "visibility": visibility, "allow_comments": bool(allow_comments)}
    errors = post_errors(title, visibility)
    if errors:
        return _form(gym, "edit.html", values, errors, video=v)
    v.title, v.caption, v.tags, v.visibility, v.allow_comments = title.strip(), caption.strip(), parse_tags(tags), visibility, bool(allow_comments)
    gym.db.add(v)
    return gym.done(f"/v/{v.id}", notice="Changes saved")


@router.post("/v/{video_id}/delete")
def delete(gym: GymDep, video_id: int):
    v = _own(gym, video_id)
    for row in [*gym.db.exec(select(Comment).where(Comment.video_id == v.id)).all(), *gym.db.exec(select(Share).where(Share.video_id == v.id)).all()]:
        gym.db.delete(row)
    gym.db.delete(v)
    return gym.done("/me", notice="Video deleted")
