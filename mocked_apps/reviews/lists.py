"""Bookmark lists: save a business into a list (a new one made on the way), remove it, and the lists page."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Bookmark, BookmarkList, Business

router = APIRouter()


@router.get("/lists")
def all_lists(gym: GymDep):
    rows = gym.db.exec(select(BookmarkList).order_by(BookmarkList.id)).all()
    saved = gym.db.exec(select(Bookmark).order_by(Bookmark.id)).all()
    names = {b.id: b for b in gym.db.exec(select(Business)).all()}
    return gym.render("lists.html", rows=rows, saved={l.id: [(m, names[m.business_id]) for m in saved if m.list_id == l.id] for l in rows})


@router.post("/b/{business_id}/save")
def save(gym: GymDep, business_id: int, list_id: str = Form(""), new_list: str = Form("")):
    b = gym.get(Business, business_id)
    name = " ".join(new_list.split())[:40]
    if name:
        target = next((l for l in gym.db.exec(select(BookmarkList)).all() if l.name.lower() == name.lower()), None)
        if target is None:
            target = BookmarkList(name=name)
            gym.db.add(target)
            gym.db.flush()
    else:
        target = gym.db.get(BookmarkList, int(list_id)) if list_id.isdigit() else None
    if target is None:
        return gym.done(f"/b/{b.id}", notice="Choose a list or name a new one.")
    if gym.db.exec(select(Bookmark).where(Bookmark.list_id == target.id, Bookmark.business_id == b.id)).first() is None:
        gym.db.add(Bookmark(list_id=target.id, business_id=b.id))
    return gym.done(f"/b/{b.id}", notice=f"Saved to {target.name}")


@router.post("/bookmarks/{bookmark_id}/remove")
def remove(gym: GymDep, bookmark_id: int):
    mark = gym.get(Bookmark, bookmark_id)
    gym.db.delete(mark)
    return gym.done("/lists", notice="Removed from the list")
