"""World -> mail seed: the signed-in owner, the address book, threads, messages and their attachments.

The world's messages become the mailbox's conversations as they are. A real mailbox holds more than the
world's business mail, so `_everyday` adds what every inbox has besides (vendors' newsletters, a sign-in
notice, a document shared by a colleague, a lunch thread, a webinar invitation in the trash, an unsent draft),
made from the world's own people, organisations and clock and seeded by the world's id, so every world gets
the same believable kinds of mail and the same world always gets the same mail.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from contracts.world import World
from mocked_apps.kit.documents import document_size_kb, document_text
from mocked_apps.kit.identity import identity_seed

LABELS = (("Finance", "#1f8a4c"), ("Clients", "#2f6fed"), ("Team", "#b54708"), ("Newsletters", "#7a5af8"))
"""The user's labels (name, chip colour): invoices are Finance, clients' mail Clients, newsletters Newsletters."""


def _iso(value) -> str:
    return value.isoformat()


def project(world: World) -> dict[str, list[dict]]:
    user = world.person(world.user)
    people = {p.id: p for p in world.people}
    orgs = {o.id: o for o in world.organisations}
    invoice_threads = {f"inv-{i.number}" for i in world.invoices}
    client_people = {p.id for p in world.people if orgs[p.org].kind == "client"}
    threads: dict[str, list] = {}
    for msg in sorted(world.messages, key=lambda m: (m.sent, m.id)):
        threads.setdefault(msg.thread, []).append(msg)
    rows: dict[str, list[dict]] = {
        **identity_seed(world.persona),
        "contact": [{"id": i + 1, "name": p.name, "email": p.email, "organization": orgs[p.org].name}
                    for i, p in enumerate(p for p in world.people if p.id != user.id)],
        "label": [{"id": i + 1, "name": name, "color": color} for i, (name, color) in enumerate(LABELS)],
        "thread": [], "thread_label": [], "message": [], "attachment": [],
    }
    for tid, (key, msgs) in enumerate(threads.items(), start=1):
        mine = all(m.sender == user.id for m in msgs)
        rows["thread"].append({"id": tid, "subject": msgs[0].subject, "folder": "sent" if mine else msgs[0].folder,
                               "starred": any(m.starred for m in msgs)})
        if key in invoice_threads:
            rows["thread_label"].append({"thread_id": tid, "label": "Finance"})
        elif any(pid in client_people for m in msgs for pid in (m.sender, *m.to)):
            rows["thread_label"].append({"thread_id": tid, "label": "Clients"})
        for m in msgs:
            mid = len(rows["message"]) + 1
            sender = people[m.sender]
            rows["message"].append({
                "id": mid, "thread_id": tid, "sender_email": sender.email, "sender_name": sender.name,
                "to": ", ".join(people[p].email for p in m.to), "cc": ", ".join(people[p].email for p in m.cc),
                "subject": m.subject, "body": m.body, "sent_at": _iso(m.sent), "read": m.read or m.sender == user.id,
                "is_draft": False,
            })
            for name in m.attachments:
                rows["attachment"].append({"id": len(rows["attachment"]) + 1, "message_id": mid, "filename": name,
                                           "size_kb": document_size_kb(name), "content": document_text(world, name)})
    for thread in _everyday(world, random.Random(world.id)):
        _add_thread(rows, thread)
    return rows


def _add_thread(rows: dict[str, list[dict]], thread: dict) -> None:
    """Append one made-up conversation (its thread row, label and messages) after the world's threads."""
    tid = len(rows["thread"]) + 1
    rows["thread"].append({"id": tid, "subject": thread["subject"], "folder": thread["folder"],
                           "starred": thread.get("starred", False)})
    if thread.get("label"):
        rows["thread_label"].append({"thread_id": tid, "label": thread["label"]})
    for i, m in enumerate(thread["messages"]):
        rows["message"].append({"id": len(rows["message"]) + 1, "thread_id": tid, "cc": "", "is_draft": False,
                                "subject": ("Re: " if i else "") + thread["subject"], **m, "sent_at": _iso(m["sent_at"])})


def _everyday(world: World, rng: random.Random) -> list[dict]:
    """The mail besides the world's business: each kind only where the world has the people it needs."""
    user = world.person(world.user)
    clock = world.scenario.clock
    colleagues = [p for p in world.people if p.org == user.org and p.id != user.id]
    vendors = [o for o in world.organisations if o.kind == "vendor"]
    clients = [p for p in world.people if world.org(p.org).kind == "client"]
    made = [_newsletter(world, v, clock - timedelta(days=days), rng, folder)
            for v, days, folder in zip(rng.sample(vendors, min(2, len(vendors))), (rng.randint(26, 34), rng.randint(1, 3)),
                                       ("archive", "inbox"))]
    made.append(_sign_in_notice(world, clock - timedelta(days=rng.randint(3, 6), hours=rng.randint(1, 8))))
    shared = [d for d in world.documents if d.owner != user.id and d.owner in {c.id for c in colleagues}]
    if shared:
        made.append(_shared_document(world, rng.choice(shared), clock - timedelta(hours=rng.randint(2, 14))))
    if len(colleagues) >= 2:
        made.append(_lunch(world, rng.sample(colleagues, 2), clock, rng))
    if vendors:
        made.append(_webinar(world, rng.choice(vendors), clock - timedelta(days=rng.randint(7, 12), hours=3)))
    if clients:
        made.append(_draft(world, rng.choice(clients), clock - timedelta(days=1, hours=rng.randint(1, 5))))
    return made


def _mail(sender_email: str, sender_name: str, to: str, body: str, sent_at: datetime, read: bool = True, **more) -> dict:
    """One made-up message's row fields (its id, thread and subject are given by `_add_thread`)."""
    return {"sender_email": sender_email, "sender_name": sender_name, "to": to, "body": body, "sent_at": sent_at,
            "read": read, **more}


def _newsletter(world: World, vendor, sent: datetime, rng: random.Random, folder: str) -> dict:
    sent = sent.replace(hour=6, minute=30)
    topic = vendor.category or "our services"
    tip = rng.choice(("three ways to cut costs this quarter", "what is new in our customer portal",
                      "our spring price list", "answers to the questions customers asked most"))
    body = (f"Hello from {vendor.name}!\n\nThis month in {topic}: {tip}.\n\nYou receive this newsletter as a customer "
            f"of {vendor.name}. Unsubscribe at any time from your account settings.")
    return {"subject": f"{vendor.name} news – {sent:%B %Y}", "folder": folder, "label": "Newsletters",
            "messages": [_mail(f"news@{vendor.domain}", f"{vendor.name} News", world.persona.email, body, sent,
                               read=folder != "inbox")]}


def _sign_in_notice(world: World, sent: datetime) -> dict:
    company = world.persona.company
    body = (f"Hi {world.persona.name.split()[0]},\n\nYour {company} account was signed in to from a new device "
            f"(Chrome on Windows) on {sent:%B %d at %H:%M}.\n\nIf this was you, there is nothing to do. "
            f"If not, change your password now.\n\n{company} IT")
    return {"subject": f"New sign-in to your {company} account", "folder": "inbox",
            "messages": [_mail(f"no-reply@{world.persona.domain}", f"{company} IT", world.persona.email, body, sent)]}


def _shared_document(world: World, doc, sent: datetime) -> dict:
    owner = world.person(doc.owner)
    body = (f"{owner.name} shared a document with you:\n\n  {doc.name}\n  in {doc.folder}\n\n"
            f"Open it in Drive to view and comment.")
    return {"subject": f'{owner.name} shared "{doc.name}" with you', "folder": "inbox", "label": "Team",
            "messages": [_mail(f"drive-noreply@{world.persona.domain}", "Drive", world.persona.email, body, sent,
                               read=False)]}


def _lunch(world: World, pair: list, clock: datetime, rng: random.Random) -> dict:
    """A three-message thread among the user and two colleagues, the last one unread; starred."""
    asker, other = pair
    me = world.person(world.user)
    place = rng.choice(("the Italian place on the corner", "the new ramen bar", "the food trucks by the park"))
    start = (clock - timedelta(days=rng.randint(2, 4))).replace(hour=11, minute=40)
    return {"subject": "Lunch on Friday?", "folder": "inbox", "starred": True, "label": "Team", "messages": [
        _mail(asker.email, asker.name, me.email, f"Shall we try {place} on Friday at 12:30?", start, cc=other.email),
        _mail(me.email, me.name, asker.email, "Count me in!", start + timedelta(minutes=25), cc=other.email),
        _mail(other.email, other.name, f"{me.email}, {asker.email}", "Me too - I'll book a table for three.",
              start + timedelta(hours=1, minutes=5), read=False),
    ]}


def _webinar(world: World, vendor, sent: datetime) -> dict:
    body = (f"Join the {vendor.name} team for a free 45-minute webinar on getting more out of "
            f"{vendor.category or 'our services'}. Seats are limited; register from the link in your account.")
    return {"subject": f"Webinar invitation: getting more from {vendor.category or vendor.name}", "folder": "trash",
            "messages": [_mail(f"events@{vendor.domain}", f"{vendor.name} Events", world.persona.email, body, sent)]}


def _draft(world: World, client, saved: datetime) -> dict:
    me = world.person(world.user)
    org = world.org(client.org).name
    body = f"Hi {client.name.split()[0]},\n\nThanks for your time this week. As promised, here are the next steps:\n\n"
    return {"subject": f"Next steps with {org}", "folder": "drafts", "label": "Clients",
            "messages": [_mail(me.email, me.name, client.email, body, saved, is_draft=True)]}
