"""World -> task manager seed: the team is the persona's organisation; projects are Operations (the
world's invoices to pay and the meetings the persona runs), Team (its shared documents to review) and
one per client (their meetings and a fixed delivery plan). Due days are the world's: an invoice's due
date, a meeting's day; a paid invoice or a past meeting's task is done.
"""

from __future__ import annotations

import zlib
from datetime import date, datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

__all__ = ["COLUMNS", "LABELS", "members", "project"]

COLUMNS = ("To do", "In progress", "Review", "Done")
LABELS = (("Urgent", "#e03131"), ("Finance", "#2f9e44"), ("Meeting", "#1971c2"), ("Client", "#f08c00"), ("Design", "#ae3ec9"),
          ("Docs", "#0c8599"), ("Research", "#5f3dc4"))
_PLAN = (("Kickoff deck", "Design", 1), ("Draft the proposal", "Client", 2), ("Collect feedback on the first round", "Client", 3),
         ("Update the project timeline", "Docs", 4), ("Send the weekly status report", "Client", 5), ("Usability review", "Research", 6))
_COLOURS = ("#4c6ef5", "#12b886", "#fd7e14", "#e64980", "#7950f2", "#15aabf")


def _h(*parts: object) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def members(world: World) -> list[dict]:
    """The persona first, then the colleagues of the persona's organisation in the world's order."""
    me = next(p for p in world.people if p.id == world.user)
    team = [me, *(p for p in world.people if p.org == me.org and p.id != me.id)]
    return [{"id": i, "name": p.name, "email": p.email, "role": p.role, "is_me": p.id == me.id} for i, p in enumerate(team, start=1)]


class _Rows:
    """Accumulates projects, their columns and tasks with ids in creation order."""

    def __init__(self, world: World, team: list[dict]):
        self.world, self.team = world, team
        self.by_email = {m["email"]: m["id"] for m in team}
        self.out: dict[str, list[dict]] = {"project": [], "boardcolumn": [], "taskcard": [], "tasklabel": [], "taskcomment": []}

    def member_of(self, person_id: str) -> int | None:
        person = next((p for p in self.world.people if p.id == person_id), None)
        return self.by_email.get(person.email) if person else None

    def add_project(self, name: str, description: str, owner: int) -> int:
        pid = len(self.out["project"]) + 1
        self.out["project"].append({"id": pid, "name": name, "description": description, "colour": _COLOURS[(pid - 1) % len(_COLOURS)],
                                    "owner_id": owner, "archived": False})
        for pos, col in enumerate(COLUMNS, start=1):
            self.out["boardcolumn"].append({"id": len(self.out["boardcolumn"]) + 1, "project_id": pid, "name": col, "position": pos,
                                            "done": col == "Done"})
        return pid

    def column(self, project_id: int, name: str) -> int:
        return next(c["id"] for c in self.out["boardcolumn"] if c["project_id"] == project_id and c["name"] == name)

    def add_task(self, project_id: int, title: str, column: str, assignee: int | None, due: date | None, labels: tuple[str, ...],
                 created: datetime, priority: str = "medium", description: str = "") -> int:
        tid = len(self.out["taskcard"]) + 1
        col = self.column(project_id, column)
        done = column == "Done"
        self.out["taskcard"].append({"id": tid, "project_id": project_id, "column_id": col, "title": title, "description": description,
                                 "assignee_id": assignee, "due": due.isoformat() if due else None, "priority": priority,
                                 "position": sum(t["column_id"] == col for t in self.out["taskcard"]) + 1, "created_at": created.isoformat(),
                                 "completed_at": (max(created, datetime.combine(due, datetime.min.time()) if due else created) + timedelta(hours=17)).isoformat()
                                 if done else None})
        names = [n for n, _ in LABELS]
        for label in labels:
            self.out["tasklabel"].append({"id": len(self.out["tasklabel"]) + 1, "task_id": tid, "label_id": names.index(label) + 1})
        return tid

    def comment(self, task_id: int, author: int, body: str, at: datetime) -> None:
        self.out["taskcomment"].append({"id": len(self.out["taskcomment"]) + 1, "task_id": task_id, "author_id": author, "body": body, "created_at": at.isoformat()})


def _operations(rows: _Rows, me: int, finance: int) -> None:
    world, now = rows.world, rows.world.scenario.clock
    pid = rows.add_project("Operations", "Bills, month-end and the meetings that keep the studio running.", me)
    for inv in sorted(world.invoices, key=lambda i: (i.due, i.number)):
        vendor = world.org(inv.vendor).name
        late = not inv.paid and inv.due < now.date()
        tid = rows.add_task(pid, f"Pay invoice {inv.number} ({vendor})", "Done" if inv.paid else "In progress" if late else "To do", finance, inv.due,
                            ("Finance", "Urgent") if late else ("Finance",), datetime.combine(inv.issued, datetime.min.time()) + timedelta(hours=9),
                            "high" if late else "medium", f"{inv.description}. Amount ${inv.amount:,.2f}, due {inv.due:%B} {inv.due.day}.")
        if late:
            rows.comment(tid, finance, f"Still open: {vendor} sent a reminder.", min(now - timedelta(hours=2), datetime.combine(inv.due, datetime.min.time()) + timedelta(days=1, hours=10)))
    for m in sorted(world.meetings, key=lambda m: m.start):
        if rows.member_of(m.organizer) == me and m.start.date() >= now.date() - timedelta(days=14):
            past = m.start < now
            rows.add_task(pid, f"Prepare agenda: {m.title} ({m.start:%b} {m.start.day})", "Done" if past else "To do", me, m.start.date(), ("Meeting",),
                          m.start - timedelta(days=5), "medium", f"{m.location}. {m.description}".strip())


def _team(rows: _Rows, me: int) -> None:
    world, now = rows.world, rows.world.scenario.clock
    pid = rows.add_project("Team", "Shared documents, handbook and onboarding.", me)
    docs = [d for d in world.documents if d.folder.split("/")[0] in ("Team", "Projects")]
    for i, d in enumerate(sorted(docs, key=lambda d: (d.modified, d.id))):
        owner = rows.member_of(d.owner) or me
        col = COLUMNS[_h(world.id, d.id) % 3]
        rows.add_task(pid, f"Review \"{d.name}\"", col, owner, (now + timedelta(days=_h(d.id, "due") % 12 - 3)).date(), ("Docs",), d.modified,
                      ("low", "medium", "high")[_h(d.id, "p") % 3])


def _clients(rows: _Rows, me: int) -> None:
    world, now = rows.world, rows.world.scenario.clock
    team = [m["id"] for m in rows.team]
    for org in [o for o in world.organisations if o.kind == "client"]:
        pid = rows.add_project(f"{org.name} account", f"Delivery for {org.name}.", me)
        for title, label, step in _PLAN:
            due = (now + timedelta(days=(step - 3) * 4 + _h(org.id, title) % 3)).date()
            col = "Done" if due < now.date() - timedelta(days=3) else COLUMNS[_h(world.id, org.id, title) % 3]
            who = team[_h(org.id, title, "who") % len(team)]
            tid = rows.add_task(pid, title, col, who, due, (label,) + (("Urgent",) if col != "Done" and due <= now.date() else ()),
                                now - timedelta(days=20 - step), ("low", "medium", "high")[_h(org.id, title, "p") % 3])
            if step == 2:
                other = team[(team.index(who) + 1) % len(team)]
                rows.comment(tid, other, f"I can take the pricing section for {org.name}.", now - timedelta(days=3, hours=2))
        for m in [m for m in world.meetings if any(p.org == org.id for p in world.people if p.id in (m.organizer, *m.attendees))]:
            mine = [rows.member_of(p) for p in (m.organizer, *m.attendees) if rows.member_of(p)]
            rows.add_task(pid, f"Follow up: {m.title}", "Done" if m.start < now else "To do", mine[0] if mine else me, (m.start + timedelta(days=1)).date(),
                          ("Meeting", "Client"), m.start - timedelta(days=3))


def project(world: World) -> dict[str, list[dict]]:
    team = members(world)
    rows = _Rows(world, team)
    me = team[0]["id"]
    finance = next((m["id"] for m in team if "finance" in m["role"] or "bookkeeper" in m["role"]), me)
    _operations(rows, me, finance)
    _team(rows, me)
    _clients(rows, me)
    labels = [{"id": i, "name": n, "colour": c} for i, (n, c) in enumerate(LABELS, start=1)]
    return {"member": team, "label": labels, **rows.out, **identity_seed(world.persona)}
