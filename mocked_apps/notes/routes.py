"""Pages and form posts of RedNotes: Explore by channel, a note with its likes and comments, following, profiles,
search and posting a note. Collections live in `collections.py`.
"""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import or_, select

from mocked_apps.clips.rules import parse_tags
from mocked_apps.kit import GymDep

from . import collections
from .catalogue import CHANNELS, hue
from .models import Author, Board, Collect, Note, NoteComment
from .views import cards, me

router = APIRouter()
router.include_router(collections.router)
COMMENT_MAX = 300


@router.get("/")
def explore(gym: GymDep, channel: str = ""):
    channel = channel if channel in CHANNELS else ""
    rows = gym.db.exec(select(Note).order_by(Note.posted_at.desc(), Note.id.desc())).all()
    if channel:
        rows = [n for n in rows if channel in n.tags.split(",")]
    return gym.render("explore.html", channel=channel, channels=CHANNELS, cards=cards(gym.db, rows))


@router.get("/n/{note_id}")
def note_page(gym: GymDep, note_id: int, error: str = "", body: str = ""):
    note = gym.get(Note, note_id)
    comments = gym.db.exec(select(NoteComment).where(NoteComment.note_id == note.id).order_by(NoteComment.posted_at.desc(), NoteComment.id.desc())).all()
    people = {a.id: a for a in gym.db.exec(select(Author)).all()}
    boards = {b.id: b for b in gym.db.exec(select(Board)).all()}
    inside = [boards[c.board_id] for c in gym.db.exec(select(Collect).where(Collect.note_id == note.id).order_by(Collect.id)).all()]
    return gym.render("note.html", card=cards(gym.db, [note])[0], comments=comments, people=people, me=me(gym.db), boards=inside,
                      error=error, body=body)


@router.post("/n/{note_id}/like")
def like(gym: GymDep, note_id: int):
    note = gym.get(Note, note_id)
    note.liked = not note.liked
    gym.db.add(note)
    return gym.done(f"/n/{note.id}", notice="Liked" if note.liked else "Like removed")


@router.post("/n/{note_id}/comment")
def comment(gym: GymDep, note_id: int, body: str = Form("")):
    note = gym.get(Note, note_id)
    text = " ".join(body.split())
    if not text or len(text) > COMMENT_MAX:
        return gym.done(f"/n/{note.id}", error="empty" if not text else "long", body=body[:COMMENT_MAX * 2])
    gym.db.add(NoteComment(note_id=note.id, author_id=me(gym.db).id, body=text, posted_at=gym.now))
    gym.advance()
    return gym.done(f"/n/{note.id}", notice="Comment posted")


@router.get("/u/{author_id}")
def profile(gym: GymDep, author_id: int):
    author = gym.get(Author, author_id)
    rows = gym.db.exec(select(Note).where(Note.author_id == author.id).order_by(Note.posted_at.desc(), Note.id.desc())).all()
    return gym.render("profile.html", author=author, cards=cards(gym.db, rows), likes=sum(n.likes + n.liked for n in rows))


@router.post("/u/{author_id}/follow")
def follow(gym: GymDep, author_id: int):
    author = gym.get(Author, author_id)
    if author.is_me:
        return gym.done(f"/u/{author.id}", notice="That is you")
    author.following = not author.following
    gym.db.add(author)
    return gym.done(f"/u/{author.id}", notice=f"Following {author.name}" if author.following else f"Unfollowed {author.name}")


@router.get("/search")
def search(gym: GymDep, q: str = ""):
    words = q.strip().lstrip("#")
    notes, people = [], []
    if words:
        like_q = f"%{words}%"
        notes = cards(gym.db, gym.db.exec(select(Note).where(or_(Note.title.ilike(like_q), Note.body.ilike(like_q), Note.tags.ilike(like_q),
                                                                   Note.place.ilike(like_q))).order_by(Note.likes.desc(), Note.id)).all())
        people = gym.db.exec(select(Author).where(or_(Author.name.ilike(like_q), Author.handle.ilike(like_q))).order_by(Author.id)).all()
    return gym.render("search.html", q=q, cards=notes, people=people)


def _post_form(gym, values: dict, errors: dict):
    response = gym.render("post.html", values=values, errors=errors)
    if errors:
        response.status_code = 422
    return response


@router.get("/post")
def post_form(gym: GymDep):
    return _post_form(gym, {"images": "1", "title": "", "body": "", "tags": "", "place": "", "place_address": ""}, {})


@router.post("/post")
def post(gym: GymDep, images: str = Form("1"), title: str = Form(""), body: str = Form(""), tags: str = Form(""),
         place: str = Form(""), place_address: str = Form("")):
    values = {"images": images, "title": title, "body": body, "tags": tags, "place": place, "place_address": place_address}
    errors = {}
    if not title.strip() or len(title.strip()) > 60:
        errors["title"] = "Give your note a title (up to 60 characters)."
    if not images.isdigit() or not 1 <= int(images) <= 9:
        errors["images"] = "Choose 1 to 9 images."
    if place_address.strip() and not place.strip():
        errors["place"] = "Name the place at this address."
    if errors:
        return _post_form(gym, values, errors)
    note = Note(author_id=me(gym.db).id, title=title.strip(), body=body.strip(), tags=parse_tags(tags), place=place.strip(),
                place_address=place_address.strip(), images=int(images), cover_hue=hue(title.strip()), posted_at=gym.now)
    gym.db.add(note)
    gym.db.flush()
    gym.advance()
    return gym.done(f"/n/{note.id}", notice="Your note is posted")
