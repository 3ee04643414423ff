"""World -> mail seed: the signed-in owner, the address book, threads, messages and their attachments."""

from __future__ import annotations

from contracts.world import World
from mocked_apps.kit.documents import document_size_kb, document_text
from mocked_apps.kit.identity import identity_seed


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
        "label": [{"id": 1, "name": "Finance", "color": "#1f8a4c"}, {"id": 2, "name": "Clients", "color": "#2f6fed"},
                  {"id": 3, "name": "Team", "color": "#b54708"}],
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
    return rows
