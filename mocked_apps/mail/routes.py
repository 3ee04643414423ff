"""Mail pages: folder and label lists, a thread, search, labels and contacts, and every POST action.

Compose, reply, forward and drafts live in compose.py and are included here.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep
from mocked_apps.kit.pdf import data_url

from . import mailbox
from .compose import router as compose_router
from .mailbox import page
from .models import Attachment, Contact, Label, Message, Thread, ThreadLabel

router = APIRouter()
router.include_router(compose_router)

_PALETTE = ("#2f6fed", "#1f8a4c", "#b54708", "#7a5af8", "#c8372d", "#0e7490", "#667085")


def _back(gym: Gym, back: str, default: str, notice: str):
    """Redirect to an in-app path the form came from (never off-site), else to `default`."""
    parts = urlsplit(back or "")
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        parts = urlsplit(default)
    query = {k: v for k, v in parse_qsl(parts.query) if k != "notice"}
    return gym.done(parts.path, notice=notice, **query)


# ---- lists -------------------------------------------------------------------------------
@router.get("/")
def inbox(gym: GymDep):
    return folder(gym, "inbox")


@router.get("/folder/{view}")
def folder(gym: GymDep, view: str):
    if view not in mailbox.VIEW_TITLES:
        raise HTTPException(404, f"no folder {view!r}")
    all_rows = mailbox.rows(gym)
    return page(
        gym, "list.html", all_rows=all_rows, rows=mailbox.in_view(all_rows, view),
        title=mailbox.VIEW_TITLES[view], view=view, empty=f"No conversations in {mailbox.VIEW_TITLES[view]}.",
    )


@router.get("/label/{label_id}")
def label_view(gym: GymDep, label_id: int):
    label = gym.get(Label, label_id)
    all_rows = mailbox.rows(gym)
    return page(
        gym, "list.html", all_rows=all_rows, rows=mailbox.with_label(all_rows, label.name),
        title=label.name, view=f"label:{label.name}", empty=f"No conversations labelled {label.name}.",
    )


@router.get("/search")
def search(gym: GymDep, q: str = ""):
    all_rows = mailbox.rows(gym)
    found = mailbox.search(all_rows, q)
    title = f"Search results for “{q}”" if q.strip() else "Search mail"
    empty = f"No messages matched “{q}”." if q.strip() else "Type a name, address, subject or words from a message."
    return page(gym, "list.html", all_rows=all_rows, rows=found, title=title, view="search", empty=empty, q=q)


# ---- one thread ----------------------------------------------------------------------------
@router.get("/thread/{thread_id}")
def thread(gym: GymDep, thread_id: int):
    t = gym.get(Thread, thread_id)
    msgs = gym.db.exec(select(Message).where(Message.thread_id == t.id).order_by(Message.sent_at, Message.id)).all()
    for m in msgs:
        if not m.is_draft:
            gym.view(m, read=True)  # opening a thread reads it (declared view state)
    files: dict[int, list[Attachment]] = {m.id: [] for m in msgs}
    for att in gym.db.exec(select(Attachment).where(Attachment.message_id.in_(list(files))).order_by(Attachment.id)):
        files[att.message_id].append(att)
    applied = [tl.label for tl in gym.db.exec(select(ThreadLabel).where(ThreadLabel.thread_id == t.id).order_by(ThreadLabel.label))]
    all_labels = [lb.name for lb in gym.db.exec(select(Label).order_by(Label.name))]
    targets = [(f"folder:{f}", mailbox.FOLDER_TITLES[f]) for f in ("inbox", "archive", "trash") if f != t.folder]
    targets += [(f"label:{name}", name) for name in all_labels if name not in applied]
    return page(
        gym, "thread.html", thread=t, messages=[m for m in msgs if not m.is_draft], drafts=[m for m in msgs if m.is_draft],
        files=files, applied=applied, addable=[n for n in all_labels if n not in applied], targets=targets,
        people=mailbox.people(gym.db, mailbox.owner(gym)), folder_title=mailbox.FOLDER_TITLES.get(t.folder, t.folder.title()),
        folder_path=f"/folder/{t.folder}" if t.folder in mailbox.VIEW_TITLES and t.folder != "inbox" else "/",
        unread=any(not m.read for m in msgs if not m.is_draft), download=_download,
    )


@router.get("/attachment/{attachment_id}")
def attachment(gym: GymDep, attachment_id: int):
    """An attachment opened: its text as a page, with the message it came with and a download link."""
    att = gym.get(Attachment, attachment_id)
    msg = gym.get(Message, att.message_id)
    return page(gym, "attachment.html", att=att, message=msg, thread=gym.get(Thread, msg.thread_id), download=_download)


def _download(att: Attachment) -> str:
    """The href of an attachment's download link: the file itself (a real PDF for a .pdf), inside the page."""
    return data_url(att.filename, att.content)


def _thread_messages(gym: Gym, t: Thread) -> list[Message]:
    return gym.db.exec(select(Message).where(Message.thread_id == t.id, Message.is_draft == False).order_by(Message.sent_at, Message.id)).all()  # noqa: E712


@router.post("/thread/{thread_id}/read")
def mark_read(gym: GymDep, thread_id: int, back: str = Form("")):
    for m in _thread_messages(gym, gym.get(Thread, thread_id)):
        m.read = True
        gym.db.add(m)
    return _back(gym, back, f"/thread/{thread_id}", "Conversation marked as read.")


@router.post("/thread/{thread_id}/unread")
def mark_unread(gym: GymDep, thread_id: int, back: str = Form("")):
    t = gym.get(Thread, thread_id)
    me = mailbox.owner(gym).email.lower()
    msgs = _thread_messages(gym, t)
    theirs = [m for m in msgs if m.sender_email.lower() != me] or msgs
    if theirs:
        theirs[-1].read = False
        gym.db.add(theirs[-1])
    folder = f"/folder/{t.folder}" if t.folder in mailbox.VIEW_TITLES and t.folder != "inbox" else "/"
    return _back(gym, back, folder, "Conversation marked as unread.")  # not the thread: opening it would read it again


@router.post("/thread/{thread_id}/star")
def star(gym: GymDep, thread_id: int, back: str = Form("")):
    t = gym.get(Thread, thread_id)
    t.starred = not t.starred
    gym.db.add(t)
    return _back(gym, back, f"/thread/{thread_id}", "Conversation starred." if t.starred else "Star removed.")


def _set_folder(gym: Gym, t: Thread, folder: str) -> None:
    t.folder = folder
    gym.db.add(t)


def _home_folder(gym: Gym, t: Thread) -> str:
    """Where a restored thread goes: inbox if anyone else wrote in it, else sent or drafts."""
    me = mailbox.owner(gym).email.lower()
    msgs = gym.db.exec(select(Message).where(Message.thread_id == t.id)).all()
    if any(not m.is_draft and m.sender_email.lower() != me for m in msgs):
        return "inbox"
    return "sent" if any(not m.is_draft for m in msgs) else "drafts"


@router.post("/thread/{thread_id}/archive")
def archive(gym: GymDep, thread_id: int, back: str = Form("")):
    _set_folder(gym, gym.get(Thread, thread_id), "archive")
    return _back(gym, back, "/", "Conversation archived.")


@router.post("/thread/{thread_id}/trash")
def trash(gym: GymDep, thread_id: int, back: str = Form("")):
    _set_folder(gym, gym.get(Thread, thread_id), "trash")
    return _back(gym, back, "/", "Conversation moved to Trash.")


@router.post("/thread/{thread_id}/restore")
def restore(gym: GymDep, thread_id: int):
    t = gym.get(Thread, thread_id)
    home = _home_folder(gym, t)
    _set_folder(gym, t, home)
    return gym.done(f"/thread/{thread_id}", notice=f"Conversation restored to {mailbox.FOLDER_TITLES[home]}.")


@router.post("/thread/{thread_id}/move")
def move(gym: GymDep, thread_id: int, target: str = Form()):
    t = gym.get(Thread, thread_id)
    kind, _, name = target.partition(":")
    if kind == "folder" and name in ("inbox", "archive", "trash"):
        _set_folder(gym, t, name)
        return gym.done(f"/thread/{thread_id}", notice=f"Conversation moved to {mailbox.FOLDER_TITLES[name]}.")
    if kind == "label" and gym.db.exec(select(Label).where(Label.name == name)).first():
        _apply_label(gym, t, name)
        if t.folder in ("inbox", "trash"):
            _set_folder(gym, t, "archive")
        return gym.done(f"/thread/{thread_id}", notice=f"Conversation moved to {name}.")
    raise HTTPException(422, f"cannot move to {target!r}")


def _apply_label(gym: Gym, t: Thread, name: str) -> None:
    if gym.db.get(ThreadLabel, (t.id, name)) is None:
        gym.db.add(ThreadLabel(thread_id=t.id, label=name))


@router.post("/thread/{thread_id}/labels")
def add_label(gym: GymDep, thread_id: int, label: str = Form()):
    t = gym.get(Thread, thread_id)
    if gym.db.exec(select(Label).where(Label.name == label)).first() is None:
        raise HTTPException(422, f"no label {label!r}")
    _apply_label(gym, t, label)
    return gym.done(f"/thread/{thread_id}", notice=f"Label “{label}” applied.")


@router.post("/thread/{thread_id}/labels/remove")
def remove_label(gym: GymDep, thread_id: int, label: str = Form()):
    row = gym.db.get(ThreadLabel, (gym.get(Thread, thread_id).id, label))
    if row is None:
        raise HTTPException(422, f"this conversation has no label {label!r}")
    gym.db.delete(row)
    return gym.done(f"/thread/{thread_id}", notice=f"Label “{label}” removed.")


def delete_thread(gym: Gym, t: Thread) -> None:
    """Remove a thread with its messages, attachments and labels."""
    for m in gym.db.exec(select(Message).where(Message.thread_id == t.id)).all():
        for att in gym.db.exec(select(Attachment).where(Attachment.message_id == m.id)).all():
            gym.db.delete(att)
        gym.db.delete(m)
    for tl in gym.db.exec(select(ThreadLabel).where(ThreadLabel.thread_id == t.id)).all():
        gym.db.delete(tl)
    gym.db.flush()
    gym.db.delete(t)


@router.post("/thread/{thread_id}/delete-forever")
def delete_forever(gym: GymDep, thread_id: int):
    t = gym.get(Thread, thread_id)
    if t.folder != "trash":
        raise HTTPException(422, "only conversations in Trash can be deleted forever")
    delete_thread(gym, t)
    return gym.done("/folder/trash", notice="Conversation deleted forever.")


@router.post("/draft/{message_id}/discard")
def discard_draft(gym: GymDep, message_id: int):
    msg = gym.get(Message, message_id)
    if not msg.is_draft:
        raise HTTPException(409, "only drafts can be discarded")
    t = gym.get(Thread, msg.thread_id)
    for att in gym.db.exec(select(Attachment).where(Attachment.message_id == msg.id)).all():
        gym.db.delete(att)
    gym.db.flush()
    gym.db.delete(msg)
    gym.db.flush()
    if gym.db.exec(select(Message).where(Message.thread_id == t.id)).first() is None:
        delete_thread(gym, t)
        return gym.done("/folder/drafts", notice="Draft discarded.")
    return gym.done(f"/thread/{t.id}", notice="Draft discarded.")


@router.post("/folder/trash/empty")
def empty_trash(gym: GymDep):
    doomed = gym.db.exec(select(Thread).where(Thread.folder == "trash")).all()
    for t in doomed:
        delete_thread(gym, t)
    return gym.done("/folder/trash", notice=f"Trash emptied ({len(doomed)} conversations deleted forever).")


# ---- labels ------------------------------------------------------------------------------
@router.get("/labels")
def labels(gym: GymDep):
    return _labels_page(gym)


def _labels_page(gym: Gym, values: dict[str, str] | None = None, errors: dict[str, str] | None = None):
    """The labels page; with `errors` it is the new-label form shown again (422, nothing created)."""
    all_rows = mailbox.rows(gym)
    found = gym.db.exec(select(Label).order_by(Label.name)).all()
    totals = {lb.name: len(mailbox.with_label(all_rows, lb.name)) for lb in found}
    response = page(gym, "labels.html", all_rows=all_rows, labels=found, totals=totals, values=values or {}, errors=errors or {})
    response.status_code = 422 if errors else 200
    return response


@router.post("/labels")
def create_label(gym: GymDep, name: str = Form("")):
    name = " ".join(name.split())
    if not name:
        return _labels_page(gym, {"name": name}, {"name": "A label needs a name."})
    if gym.db.exec(select(Label).where(Label.name == name)).first():
        return _labels_page(gym, {"name": name}, {"name": f"A label named “{name}” already exists."})
    count = len(gym.db.exec(select(Label)).all())
    gym.db.add(Label(name=name, color=_PALETTE[count % len(_PALETTE)]))
    return gym.done("/labels", notice=f"Label “{name}” created.")


@router.post("/labels/{label_id}/delete")
def delete_label(gym: GymDep, label_id: int):
    label = gym.get(Label, label_id)
    for tl in gym.db.exec(select(ThreadLabel).where(ThreadLabel.label == label.name)).all():
        gym.db.delete(tl)
    gym.db.flush()
    gym.db.delete(label)
    return gym.done("/labels", notice=f"Label “{label.name}” deleted.")


# ---- contacts ----------------------------------------------------------------------------
@router.get("/contacts")
def contacts(gym: GymDep):
    return _contacts_page(gym)


def _contacts_page(gym: Gym, values: dict[str, str] | None = None, errors: dict[str, str] | None = None):
    """The address book; with `errors` it is the new-contact form shown again (422, nothing added)."""
    found = gym.db.exec(select(Contact).order_by(Contact.name)).all()
    response = page(gym, "contacts.html", contacts=found, values=values or {}, errors=errors or {})
    response.status_code = 422 if errors else 200
    return response


@router.post("/contacts")
def add_contact(gym: GymDep, name: str = Form(""), email: str = Form(""), organization: str = Form("")):
    name, email, organization = " ".join(name.split()), email.strip(), organization.strip()
    errors = {}
    if not name:
        errors["name"] = "A contact needs a name."
    if mailbox.invalid_addresses([email]):
        errors["email"] = "Enter a valid email address, e.g. name@example.com."
    elif gym.db.exec(select(Contact).where(Contact.email == email)).first():
        errors["email"] = f"{email} is already in your contacts."
    if errors:
        return _contacts_page(gym, {"name": name, "email": email, "organization": organization}, errors)
    gym.db.add(Contact(name=name, email=email, organization=organization))
    return gym.done("/contacts", notice=f"{name} added to contacts.")
