"""World -> courses seed: four evening courses the persona takes this term (teachers, modules, weighted
groups, assignments dated around the world's clock), their past work graded, announcements (one names
an exam's date and time), and the persona's Drive documents as the submission picker lists them (the
world's documents, the same names and folders as the Drive app).
"""

from __future__ import annotations

import zlib
from datetime import datetime, time, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

__all__ = ["exam_of", "project", "term_of"]

_TEACHERS = ("Dana Whitfield", "Marco Bellini", "Ines Carvalho", "Tobias Lindqvist", "Priya Natarajan", "Helen Osei", "Kofi Mensah", "Ruth Adler")

# code, name, colour, groups (name, weight), modules: (title, [pages], [(assignment title, group, points, accepts, days from clock)])
_COURSES = (
    ("PM 210", "Project Management Fundamentals", "#2563eb", (("Homework", 30), ("Projects", 40), ("Exams", 30)), (
        ("Week 1: Scope and charters", ("Reading: What a charter is for",), (("Project charter", "Homework", 20, "doc", -20),)),
        ("Week 2: Schedules", ("Reading: Critical path in practice",), (("Gantt chart exercise", "Homework", 20, "table", -9),)),
        ("Week 3: Risk", ("Reading: Risk registers", "Video notes: Pre-mortems"), (("Risk register", "Projects", 50, "table,doc", 3),)),
        ("Week 4: Stakeholders", ("Reading: Communication plans",), (("Stakeholder memo", "Homework", 20, "doc,text", 8),)),
    )),
    ("BW 120", "Business Writing", "#9333ea", (("Assignments", 60), ("Participation", 10), ("Final portfolio", 30)), (
        ("Unit 1: Plain language", ("Reading: Cut the clutter",), (("Rewrite a policy", "Assignments", 25, "doc", -15),)),
        ("Unit 2: Emails that get answers", ("Reading: Subject lines",), (("Discussion post: a hard email", "Participation", 10, "text", -4),)),
        ("Unit 3: Reports", ("Reading: Executive summaries",), (("Executive summary", "Assignments", 25, "doc", 2),)),
        ("Unit 4: Portfolio", ("Reading: Choosing your best work",), (("Final portfolio", "Final portfolio", 50, "doc", 13),)),
    )),
    ("DA 150", "Data Analysis with Spreadsheets", "#0f766e", (("Labs", 50), ("Quizzes", 20), ("Final project", 30)), (
        ("Lab 1: Tables and filters", ("Reading: Clean data first",), (("Lab 1 workbook", "Labs", 10, "table", -18),)),
        ("Lab 2: Pivot tables", ("Reading: Summaries by pivot",), (("Lab 2 workbook", "Labs", 10, "table", -6), ("Quiz 1", "Quizzes", 10, "text", -5))),
        ("Lab 3: Charts", ("Reading: Choosing a chart",), (("Lab 3 workbook", "Labs", 10, "table", 4),)),
        ("Final project", ("Reading: Project brief",), (("Final project report", "Final project", 40, "doc,table", 11),)),
    )),
    ("SP 101", "Spanish for Professionals", "#ea580c", (("Homework", 40), ("Speaking", 20), ("Exams", 40)), (
        ("Lección 1: Presentaciones", ("Vocabulario: saludos",), (("Tarea 1: Mi trabajo", "Homework", 10, "text,doc", -13),)),
        ("Lección 2: Reuniones", ("Vocabulario: la oficina",), (("Tarea 2: Una agenda", "Homework", 10, "doc", -2),)),
        ("Lección 3: Por teléfono", ("Diálogo: una llamada",), (("Tarea 3: Un correo", "Homework", 10, "text,doc", 5),)),
    )),
)

_FEEDBACK = ("Clear and well organised.", "Good work; see my notes on the second part.", "Solid, but watch the deadline next time.",
             "Excellent detail.", "A good start: more evidence would help.")


def _n(text: str) -> int:
    return zlib.crc32(text.encode())


def term_of(world: World) -> str:
    clock = world.scenario.clock
    return f"{('Spring', 'Spring', 'Spring', 'Spring', 'Summer', 'Summer', 'Summer', 'Summer', 'Fall', 'Fall', 'Fall', 'Fall')[clock.month - 1]} {clock.year}"


def _due(world: World, days: int, i: int) -> datetime:
    """A due date `days` from the clock at 23:59 (or 17:00 for every third assignment)."""
    at = time(23, 59) if i % 3 else time(17, 0)
    return datetime.combine(world.scenario.clock.date() + timedelta(days=days), at)


def exam_of(world: World, course_index: int) -> tuple[datetime, int, str]:
    """(start, minutes, room) of a course's midterm exam, named only in its announcement."""
    n = _n(f"{world.id}/exam/{course_index}")
    start = datetime.combine(world.scenario.clock.date() + timedelta(days=5 + n % 8), time(17 + n % 3, 30 if n % 2 else 0))
    return start, (60, 90, 120)[n % 3], f"Room {100 + n % 300}"


def project(world: World) -> dict[str, list[dict]]:
    now = world.scenario.clock
    domain = "evening.example"
    teachers = sorted(_TEACHERS, key=lambda t: _n(f"{world.id}/{t}"))
    files = [{"id": i + 1, "name": d.name, "folder": d.folder, "kind": d.kind} for i, d in enumerate(world.documents)]
    rows: dict[str, list[dict]] = {k: [] for k in ("course", "module", "moduleitem", "assignmentgroup", "assignment", "submission", "announcement")}
    for ci, (code, name, color, groups, modules) in enumerate(_COURSES):
        cid = ci + 1
        teacher = teachers[ci]
        rows["course"].append({"id": cid, "code": code, "name": name, "term": term_of(world), "teacher": teacher,
                               "teacher_email": f"{teacher.split()[0].lower()}.{teacher.split()[-1].lower()}@{domain}", "color": color})
        gids = {}
        for gname, weight in groups:
            gids[gname] = len(rows["assignmentgroup"]) + 1
            rows["assignmentgroup"].append({"id": gids[gname], "course_id": cid, "name": gname, "weight": float(weight)})
        for mi, (title, pages, works) in enumerate(modules):
            mid = len(rows["module"]) + 1
            rows["module"].append({"id": mid, "course_id": cid, "position": mi + 1, "title": title})
            position = 0
            for page in pages:
                position += 1
                past = any(days < 0 for *_, days in works)
                rows["moduleitem"].append({"id": len(rows["moduleitem"]) + 1, "module_id": mid, "position": position, "kind": "page", "title": page,
                                           "body": f"{page.split(': ', 1)[-1]}. Read this before the module's work; it takes about 20 minutes.",
                                           "assignment_id": None, "done": past})
            for wi, (atitle, gname, points, accepts, days) in enumerate(works):
                aid = len(rows["assignment"]) + 1
                due = _due(world, days, aid)
                rows["assignment"].append({"id": aid, "course_id": cid, "group_id": gids[gname], "title": atitle,
                                           "description": f"Hand in {atitle.lower()} as described in {title}.", "points": float(points),
                                           "due_at": due.isoformat(), "lock_at": (due + timedelta(days=3)).isoformat(), "accepts": accepts})
                position += 1
                rows["moduleitem"].append({"id": len(rows["moduleitem"]) + 1, "module_id": mid, "position": position, "kind": "assignment",
                                           "title": atitle, "body": "", "assignment_id": aid, "done": False})
                n = _n(f"{world.id}/{code}/{atitle}")
                if days < 0 and n % 7:  # most past work was handed in; one in seven is missing
                    kind = accepts.split(",")[0]
                    pick = [f for f in files if f["kind"] == kind]
                    late = n % 5 == 0
                    sub = {"id": len(rows["submission"]) + 1, "assignment_id": aid, "attempt": 1,
                           "submitted_at": (due + (timedelta(hours=5) if late else -timedelta(hours=3 + n % 40))).isoformat(),
                           "kind": "text" if kind == "text" or not pick else "file", "drivefile_id": None, "file_name": "", "body": "",
                           "comment": "", "late": late, "score": None, "feedback": ""}
                    if sub["kind"] == "file":
                        f = pick[n % len(pick)]
                        sub["drivefile_id"], sub["file_name"] = f["id"], f["name"]
                    else:
                        sub["body"] = "Please find my answer below. " + atitle
                    if days < -3:  # graded a few days after the due date
                        sub["score"] = float(round(points * (0.62 + (n % 37) / 100)))
                        sub["feedback"] = _FEEDBACK[n % len(_FEEDBACK)]
                    rows["submission"].append(sub)
        exam, minutes, room = exam_of(world, ci)
        posts = (
            (f"Welcome to {code}", f"Welcome to {name}! Modules open week by week; the syllabus is in Module 1.", now - timedelta(days=28)),
            ("Midterm exam date", f"The midterm exam is on {exam:%A, %B} {exam.day} at {exam:%H:%M}, {minutes} minutes, in {room}. "
                                  "Bring a pen; notes are not allowed.", now - timedelta(days=3, hours=_n(code) % 20)),
            ("Office hours this week", f"Office hours move to Thursday 12:00-13:00 this week. Write to {teacher.split()[0]} to book a slot.",
             now - timedelta(days=1, hours=_n(name) % 10)),
        )
        for title, body, at in posts:
            rows["announcement"].append({"id": len(rows["announcement"]) + 1, "course_id": cid, "title": title, "body": body,
                                         "posted_at": at.replace(second=0, microsecond=0).isoformat(), "read": at < now - timedelta(days=7)})
    return {**rows, "drivefile": files, **identity_seed(world.persona)}
