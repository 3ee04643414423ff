"""Compose, reply, reply all, forward and drafts: the forms and the one POST that sends or saves."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from . import mailbox
from .models import Attachment, Contact, Message, Thread

router = APIRouter()


@dataclass(frozen=True)
class ComposeForm:
    """What the compose page shows in its fields."""

    heading: str = "New message"
    to: str = ""
    cc: str = ""
    subject: str = ""
    body: str = ""
    keep: tuple[str, ...] = ()
    thread_id: int | None = None
    draft_id: int | None = None


def _render(gym: Gym, form: ComposeForm, errors: dict[str, str] | None = None):
    """The compose page; with `errors` (field -> message) it is the form shown again, 422, nothing sent."""
    context = None
    if form.thread_id is not None:
        context = _last_message(gym, form.thread_id)
    response = mailbox.page(
        gym, "compose.html", form=form, errors=errors or {}, library=mailbox.library(gym.db), context=context,
        contacts=gym.db.exec(select(Contact).order_by(Contact.name)).all(), people=mailbox.people(gym.db, mailbox.owner(gym)),
    )
    response.status_code = 422 if errors else 200
    return response


def _signature(gym: Gym) -> str:
    """The owner's sign-off below new messages: their name and company, from the kit's identity."""
    me = gym.identity
    lines = [line for line in (me.name, me.company) if line]
    return "\n\n--\n" + "\n".join(lines) if lines else ""


def _last_message(gym: Gym, thread_id: int) -> Message:
    msg = gym.db.exec(
        select(Message).where(Message.thread_id == thread_id, Message.is_draft == False)  # noqa: E712
        .order_by(Message.sent_at.desc(), Message.id.desc())
    ).first()
    if msg is None:
        raise HTTPException(404, "this conversation has no sent message to answer")
    return msg


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}".strip()


@router.get("/compose")
def compose(gym: GymDep, to: str = "", cc: str = "", subject: str = "", body: str = "", draft: int | None = None):
    if draft is None:
        return _render(gym, ComposeForm(to=to, cc=cc, subject=subject, body=body or _signature(gym)))
    msg = gym.get(Message, draft)
    if not msg.is_draft:
        raise HTTPException(404, "that message is not a draft")
    files = gym.db.exec(select(Attachment).where(Attachment.message_id == msg.id).order_by(Attachment.id)).all()
    has_sent = _has_sent(gym, msg.thread_id)
    return _render(gym, ComposeForm(
        heading="Edit draft", to=msg.to, cc=msg.cc, subject=msg.subject, body=msg.body,
        keep=tuple(a.filename for a in files), draft_id=msg.id, thread_id=msg.thread_id if has_sent else None,
    ))


def _has_sent(gym: Gym, thread_id: int) -> bool:
    return gym.db.exec(select(Message).where(Message.thread_id == thread_id, Message.is_draft == False)).first() is not None  # noqa: E712


@router.get("/thread/{thread_id}/reply")
def reply(gym: GymDep, thread_id: int):
    return _render(gym, _reply_form(gym, gym.get(Thread, thread_id), everyone=False))


@router.get("/thread/{thread_id}/reply-all")
def reply_all(gym: GymDep, thread_id: int):
    return _render(gym, _reply_form(gym, gym.get(Thread, thread_id), everyone=True))


def _reply_form(gym: Gym, thread: Thread, everyone: bool) -> ComposeForm:
    """Answer the thread's last message: its sender (or, for my own message, its recipients)."""
    last = _last_message(gym, thread.id)
    me = mailbox.owner(gym).email.lower()
    mine = last.sender_email.lower() == me
    to = mailbox.split_addresses(last.to) if mine else [last.sender_email]
    cc: list[str] = []
    if everyone:
        if not mine:
            to += mailbox.split_addresses(last.to)
        cc = mailbox.split_addresses(last.cc)
    to = [a for a in dict.fromkeys(to) if a.lower() != me]
    cc = [a for a in dict.fromkeys(cc) if a.lower() != me and a not in to]
    return ComposeForm(
        heading="Reply all" if everyone else "Reply", to=", ".join(to), cc=", ".join(cc),
        subject=_prefixed("Re:", thread.subject or last.subject), body=_signature(gym), thread_id=thread.id,
    )


@router.get("/thread/{thread_id}/forward")
def forward(gym: GymDep, thread_id: int):
    """Forward the last message; every document attached anywhere in the thread comes along."""
    t = gym.get(Thread, thread_id)
    last = _last_message(gym, t.id)
    ids = [m.id for m in gym.db.exec(select(Message).where(Message.thread_id == t.id, Message.is_draft == False))]  # noqa: E712
    files = gym.db.exec(select(Attachment).where(Attachment.message_id.in_(ids)).order_by(Attachment.id)).all()
    header = [
        "---------- Forwarded message ---------",
        f"From: {last.sender_name} <{last.sender_email}>" if last.sender_name else f"From: {last.sender_email}",
        f"Date: {last.sent_at.strftime('%a, %b %-d, %Y at %H:%M')}",
        f"Subject: {last.subject}",
        f"To: {last.to}",
    ] + ([f"Cc: {last.cc}"] if last.cc else [])
    body = _signature(gym) + "\n\n" + "\n".join(header) + "\n\n" + last.body
    return _render(gym, ComposeForm(
        heading="Forward", subject=_prefixed("Fwd:", t.subject or last.subject), body=body,
        keep=tuple(dict.fromkeys(a.filename for a in files)),
    ))


@router.post("/send")
def send(
    gym: GymDep,
    to: str = Form(""),
    cc: str = Form(""),
    subject: str = Form(""),
    body: str = Form(""),
    attach: str = Form(""),
    keep: list[str] = Form([]),
    thread_id: int | None = Form(None),
    draft_id: int | None = Form(None),
    intent: str = Form("send"),
):
    """Send the message (intent=send) or save it as a draft (intent=save)."""
    saving = intent == "save"
    to_list, cc_list = mailbox.split_addresses(to), mailbox.split_addresses(cc)
    files = list(dict.fromkeys([*keep, *([attach] if attach else [])]))
    form = ComposeForm(
        heading="Edit draft" if draft_id else "New message", to=to, cc=cc, subject=subject, body=body,
        keep=tuple(files), thread_id=thread_id, draft_id=draft_id,
    )
    library = mailbox.library(gym.db)
    errors = _problems(to_list, cc_list, files, library, saving)
    if errors:
        return _render(gym, replace(form, heading="Reply" if thread_id and not draft_id else form.heading), errors)

    me = mailbox.owner(gym)
    if draft_id is not None:
        msg = gym.get(Message, draft_id)
        if not msg.is_draft:
            raise HTTPException(409, "that draft was already sent")
        t = gym.get(Thread, msg.thread_id)
    elif thread_id is not None:
        t = gym.get(Thread, thread_id)
        msg = Message(thread_id=t.id, sender_email=me.email, sent_at=gym.now)
    else:
        t = Thread(subject=subject.strip(), folder="drafts" if saving else "sent")
        gym.db.add(t)
        gym.db.flush()
        msg = Message(thread_id=t.id, sender_email=me.email, sent_at=gym.now)
    msg.sender_email, msg.sender_name = me.email, me.name
    msg.to, msg.cc = ", ".join(to_list), ", ".join(cc_list)
    msg.subject, msg.body = subject.strip(), body.replace("\r\n", "\n")
    msg.sent_at, msg.read, msg.is_draft = gym.now, True, saving
    gym.db.add(msg)
    gym.db.flush()
    _attach(gym, msg, files, library)
    if not _has_other(gym, t.id, msg.id):
        t.subject = msg.subject
    if not saving and t.folder == "drafts":
        t.folder = "sent"
    gym.db.add(t)
    gym.advance(timedelta(minutes=1))
    if saving:
        return gym.done("/compose", notice="Draft saved.", draft=msg.id)
    return gym.done(f"/thread/{t.id}", notice="Message sent.")


def _problems(to: list[str], cc: list[str], files: list[str], library: dict[str, Attachment], saving: bool) -> dict[str, str]:
    """What stops the message going out, by field (a draft only needs its files to exist)."""
    errors: dict[str, str] = {}
    unknown = [f for f in files if f not in library]
    if unknown:
        errors["attach"] = f"No document named {unknown[0]} to attach."
    if saving:
        return errors
    bad_to, bad_cc = mailbox.invalid_addresses(to), mailbox.invalid_addresses(cc)
    if not to:
        errors["to"] = "Add at least one recipient in To."
    elif bad_to:
        errors["to"] = f"Not a valid email address: {bad_to[0]}"
    if bad_cc:
        errors["cc"] = f"Not a valid email address: {bad_cc[0]}"
    return errors


def _has_other(gym: Gym, thread_id: int, message_id: int) -> bool:
    """Whether the thread holds a message besides this one (then the thread keeps its subject)."""
    return gym.db.exec(select(Message).where(Message.thread_id == thread_id, Message.id != message_id)).first() is not None


def _attach(gym: Gym, msg: Message, files: list[str], library: dict[str, Attachment]) -> None:
    """Make the message's attachments exactly `files`, keeping rows that stay."""
    current = gym.db.exec(select(Attachment).where(Attachment.message_id == msg.id).order_by(Attachment.id)).all()
    for att in current:
        if att.filename not in files:
            gym.db.delete(att)
    have = {a.filename for a in current}
    for name in files:
        if name not in have:
            source = library[name]
            gym.db.add(Attachment(message_id=msg.id, filename=name, size_kb=source.size_kb, content=source.content))
