"""Collections (收藏专辑): collect a note into one of the user's collections or a new one, take it out, make a
collection, and the user's own page (their notes, collections, liked notes)."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Board, Collect, Note
from .views import cards, me

router = APIRouter()
NAME_MAX = 40


def _boards(db) -> list[Board]:
    return list(db.exec(select(Board).order_by(Board.id)).all())


def _name_error(db, name: str) -> str | None:
    if not name or len(name) > NAME_MAX:
        return f"Name the collection (up to {NAME_MAX} characters)."
    if any(b.name.lower() == name.lower() for b in _boards(db)):
        return "You already have a collection with this name."
    return None


@router.get("/n/{note_id}/collect")
def collect_sheet(gym: GymDep, note_id: int, error: str = "", name: str = ""):
    note = gym.get(Note, note_id)
    inside = {c.board_id for c in gym.db.exec(select(Collect).where(Collect.note_id == note.id)).all()}
    return gym.render("collect.html", card=cards(gym.db, [note])[0], boards=_boards(gym.db), inside=inside, error=error, name=name)


@router.post("/n/{note_id}/collect")
def collect(gym: GymDep, note_id: int, board: str = Form(""), name: str = Form("")):
    note = gym.get(Note, note_id)
    name = " ".join(name.split())
    if board == "new":
        error = _name_error(gym.db, name)
        if error:
            return gym.done(f"/n/{note.id}/collect", error=error, name=name)
        target = Board(name=name, created_at=gym.now)
        gym.db.add(target)
        gym.db.flush()
    else:
        target = gym.db.get(Board, int(board)) if board.isdigit() else None
        if target is None:
            return gym.done(f"/n/{note.id}/collect", error="Choose a collection.", name=name)
    if gym.db.exec(select(Collect).where(Collect.note_id == note.id, Collect.board_id == target.id)).first():
        return gym.done(f"/n/{note.id}", notice=f"Already in {target.name}")
    gym.db.add(Collect(note_id=note.id, board_id=target.id, saved_at=gym.now))
    gym.advance()
    return gym.done(f"/n/{note.id}", notice=f"Collected to {target.name}")


@router.post("/board/{board_id}/remove/{note_id}")
def uncollect(gym: GymDep, board_id: int, note_id: int):
    board = gym.get(Board, board_id)
    row = gym.db.exec(select(Collect).where(Collect.note_id == note_id, Collect.board_id == board.id)).first()
    if row:
        gym.db.delete(row)
    return gym.done(f"/board/{board.id}", notice=f"Removed from {board.name}")


@router.get("/board/{board_id}")
def board_page(gym: GymDep, board_id: int):
    board = gym.get(Board, board_id)
    ids = [c.note_id for c in gym.db.exec(select(Collect).where(Collect.board_id == board.id).order_by(Collect.saved_at.desc(), Collect.id.desc())).all()]
    notes = {n.id: n for n in gym.db.exec(select(Note)).all()}
    return gym.render("board.html", board=board, cards=cards(gym.db, [notes[i] for i in ids]))


@router.post("/boards")
def new_board(gym: GymDep, name: str = Form(""), private: str = Form("")):
    name = " ".join(name.split())
    error = _name_error(gym.db, name)
    if error:
        return gym.done("/me", tab="collections", error=error, name=name)
    board = Board(name=name, private=bool(private), created_at=gym.now)
    gym.db.add(board)
    gym.db.flush()
    return gym.done(f"/board/{board.id}", notice=f"Collection {name} created")


@router.get("/me")
def my_page(gym: GymDep, tab: str = "notes", error: str = "", name: str = ""):
    tab = tab if tab in ("notes", "collections", "liked") else "notes"
    user = me(gym.db)
    newest = (Note.posted_at.desc(), Note.id.desc())
    if tab == "notes":
        shown = cards(gym.db, gym.db.exec(select(Note).where(Note.author_id == user.id).order_by(*newest)).all())
    elif tab == "liked":
        shown = cards(gym.db, gym.db.exec(select(Note).where(Note.liked == True).order_by(*newest)).all())  # noqa: E712
    else:
        shown = []
    counts = {b.id: 0 for b in _boards(gym.db)}
    for c in gym.db.exec(select(Collect)).all():
        counts[c.board_id] += 1
    return gym.render("me.html", tab=tab, user=user, cards=shown, boards=_boards(gym.db), counts=counts, error=error, name=name)
