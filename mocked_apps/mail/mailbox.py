"""Read side of the mailbox: thread summaries, folder/label views, search, address helpers, and
`page`, the renderer every mail page goes through.

Nothing here writes; routes.py and compose.py own every state change.
"""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from mocked_apps.kit import Gym

from mocked_apps.kit.identity import Identity

from .models import Attachment, Contact, Label, Message, Thread, ThreadLabel

FOLDER_TITLES = {"inbox": "Inbox", "sent": "Sent", "drafts": "Drafts", "archive": "Archive", "trash": "Trash"}
VIEW_TITLES = {"inbox": "Inbox", "starred": "Starred", "sent": "Sent", "drafts": "Drafts", "archive": "Archive", "trash": "Trash"}
_EMAIL = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+$")


@dataclass(frozen=True)
class Row:
    """One thread as a list shows it."""

    thread: Thread
    messages: tuple[Message, ...]  # sent messages, oldest first
    drafts: tuple[Message, ...]
    labels: tuple[str, ...]
    attachments: tuple[str, ...]  # filenames over the whole thread, first occurrence order
    participants: str
    sent_by_me: bool

    @property
    def unread(self) -> bool:
        return any(not m.read for m in self.messages)

    @property
    def last_at(self) -> datetime:
        return max(m.sent_at for m in (self.messages or self.drafts))

    @property
    def subject(self) -> str:
        return self.thread.subject or "(no subject)"

    @property
    def snippet(self) -> str:
        last = (self.messages or self.drafts)[-1]
        text = " ".join((last.body.split("\n--\n")[0].strip() or last.body).split())
        return text[:110] + ("…" if len(text) > 110 else "")


def owner(gym: Gym) -> Identity:
    """The mailbox owner: the kit's signed-in identity; a neutral placeholder when a seed signs nobody in."""
    me = gym.identity
    return me if me.email else Identity(name="Me", email="me@mail.example")


def people(db: Session, me: Identity) -> dict[str, str]:
    """Address -> display name, from contacts, senders and the owner."""
    names: dict[str, str] = {}
    for email, name in db.exec(select(Message.sender_email, Message.sender_name)):
        if name:
            names[email.lower()] = name
    for c in db.exec(select(Contact)):
        names[c.email.lower()] = c.name
    names[me.email.lower()] = me.name
    return names


def split_addresses(raw: str) -> list[str]:
    """'a@x.example, B <b@y.example>; c@z' -> ['a@x.example', 'b@y.example', 'c@z']."""
    out = []
    for part in re.split(r"[,;]", raw or ""):
        part = part.strip()
        match = re.search(r"<([^>]+)>", part)
        part = (match.group(1) if match else part).strip()
        if part and part.lower() not in {p.lower() for p in out}:
            out.append(part)
    return out


def invalid_addresses(addresses: list[str]) -> list[str]:
    return [a for a in addresses if not _EMAIL.match(a)]


def library(db: Session) -> dict[str, Attachment]:
    """Every document the user has as an attachment: filename -> its first attachment (size and text to copy)."""
    files: dict[str, Attachment] = {}
    for att in db.exec(select(Attachment).order_by(Attachment.id)):
        files.setdefault(att.filename, att)
    return dict(sorted(files.items(), key=lambda kv: kv[0].lower()))


def rows(gym: Gym) -> list[Row]:
    """Every thread as a Row, newest activity first."""
    db, me = gym.db, owner(gym).email.lower()
    threads = db.exec(select(Thread)).all()
    by_thread: dict[int, list[Message]] = defaultdict(list)
    for m in db.exec(select(Message).order_by(Message.sent_at, Message.id)):
        by_thread[m.thread_id].append(m)
    files: dict[int, list[str]] = defaultdict(list)
    for att in db.exec(select(Attachment).order_by(Attachment.id)):
        files[att.message_id].append(att.filename)
    labels: dict[int, list[str]] = defaultdict(list)
    for tl in db.exec(select(ThreadLabel).order_by(ThreadLabel.label)):
        labels[tl.thread_id].append(tl.label)
    out = []
    for t in threads:
        msgs = by_thread.get(t.id, [])
        if not msgs:
            continue
        sent = tuple(m for m in msgs if not m.is_draft)
        names: list[str] = []
        for m in sent:
            name = "me" if m.sender_email.lower() == me else (m.sender_name or m.sender_email)
            if name not in names:
                names.append(name)
        if len(names) > 1:
            names = [n.split()[0] for n in names]
        participants = ", ".join(names) + (f" ({len(sent)})" if len(sent) > 1 else "")
        thread_files = list(dict.fromkeys(f for m in msgs for f in files.get(m.id, [])))
        out.append(
            Row(
                thread=t,
                messages=sent,
                drafts=tuple(m for m in msgs if m.is_draft),
                labels=tuple(labels.get(t.id, [])),
                attachments=tuple(thread_files),
                participants=participants,
                sent_by_me=any(m.sender_email.lower() == me for m in sent),
            )
        )
    out.sort(key=lambda r: (r.last_at, r.thread.id), reverse=True)
    return out


_VIEWS: dict[str, Callable[[Row], bool]] = {
    "inbox": lambda r: r.thread.folder == "inbox",
    "starred": lambda r: r.thread.starred and r.thread.folder != "trash",
    "sent": lambda r: r.sent_by_me and r.thread.folder != "trash",
    "drafts": lambda r: bool(r.drafts) and r.thread.folder != "trash",
    "archive": lambda r: r.thread.folder == "archive",
    "trash": lambda r: r.thread.folder == "trash",
}


def in_view(all_rows: list[Row], view: str) -> list[Row]:
    return [r for r in all_rows if _VIEWS[view](r)]


def with_label(all_rows: list[Row], label: str) -> list[Row]:
    return [r for r in all_rows if label in r.labels and r.thread.folder != "trash"]


def nav_counts(all_rows: list[Row], labels: list[Label]) -> dict[str, int]:
    """Side-navigation badges: unread in Inbox and each label, drafts in Drafts."""
    counts = {
        "inbox": sum(r.unread for r in in_view(all_rows, "inbox")),
        "drafts": len(in_view(all_rows, "drafts")),
    }
    for label in labels:
        counts[f"label:{label.name}"] = sum(r.unread for r in with_label(all_rows, label.name))
    return counts


def search(all_rows: list[Row], query: str) -> list[Row]:
    """Threads matching every term of a Gmail-style query.

    Free words match sender, recipients, subject, body or attachment names; operators:
    from:, to:, subject:, label:, in:FOLDER, is:unread|read|starred, has:attachment.
    """
    try:
        terms = shlex.split(query)
    except ValueError:
        terms = query.split()
    terms = [t for t in terms if t.strip()]
    if not terms:
        return []
    return [r for r in all_rows if all(_matches(r, t.lower()) for t in terms)]


def _matches(row: Row, term: str) -> bool:
    key, _, value = term.partition(":")
    msgs = row.messages + row.drafts
    if value and key == "from":
        return any(value in f"{m.sender_name} {m.sender_email}".lower() for m in msgs)
    if value and key == "to":
        return any(value in f"{m.to} {m.cc}".lower() for m in msgs)
    if value and key == "subject":
        return value in row.thread.subject.lower() or any(value in m.subject.lower() for m in msgs)
    if value and key == "label":
        return any(value == label.lower() for label in row.labels)
    if value and key == "in":
        view = {"all": None, "anywhere": None}.get(value, value)
        return view is None or (view in _VIEWS and _VIEWS[view](row))
    if value and key == "is":
        return {"unread": row.unread, "read": not row.unread, "starred": row.thread.starred}.get(value, False)
    if value and key == "has":
        return value in ("attachment", "attachments") and bool(row.attachments)
    haystack = " ".join(
        [row.thread.subject, *row.attachments, *row.labels]
        + [f"{m.sender_name} {m.sender_email} {m.to} {m.cc} {m.subject} {m.body}" for m in msgs]
    ).lower()
    return term in haystack


def when(value: datetime, now: datetime) -> str:
    """List-style date: time today, 'Feb 27' this year, else 'Dec 3, 2025'."""
    if value.date() == now.date():
        return value.strftime("%H:%M")
    if value.year == now.year:
        return value.strftime("%b %-d")
    return value.strftime("%b %-d, %Y")


def page(gym: Gym, template: str, **values: Any):
    """Render with what every mail page shows: navigation, counts, the owner and the search box."""
    me = owner(gym)
    all_rows = values.pop("all_rows", None) or rows(gym)
    labels = gym.db.exec(select(Label).order_by(Label.name)).all()
    here = gym.request.url.path[len(gym.base):] or "/"
    if gym.request.url.query:
        here += "?" + gym.request.url.query
    values.setdefault("q", "")
    return gym.render(
        template,
        nav_labels=labels,
        counts=nav_counts(all_rows, labels),
        me=me,
        when=lambda value: when(value, gym.now),
        here=here,
        label_colors={lb.name: lb.color for lb in labels},
        folder_titles=FOLDER_TITLES,
        **values,
    )
