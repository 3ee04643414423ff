"""Pages and form posts of Courses: the dashboard, a course's modules, assignments, grades and
announcements, and handing in work. A submission error redirects back to the assignment with the
typed values and `check=1`; the page validates them again, so no state lives in the browser."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from .grading import KIND_LABELS, accepts, course_total, is_late, latest, letter
from .models import Announcement, Assignment, AssignmentGroup, Course, DriveFile, Module, ModuleItem, Submission

router = APIRouter()


def _all(gym: Gym, model, *where):
    return list(gym.db.exec(select(model).where(*where).order_by(model.id)).all())


def _subs(gym: Gym) -> list[Submission]:
    return _all(gym, Submission)


def _todo(gym: Gym, course_id: int | None = None) -> list[tuple[Assignment, Course]]:
    """Open assignments not handed in yet, soonest due first."""
    subs = _subs(gym)
    rows = gym.db.exec(select(Assignment, Course).join(Course, Assignment.course_id == Course.id)).all()
    out = [(a, c) for a, c in rows if a.lock_at > gym.now and latest(subs, a.id) is None and (course_id is None or c.id == course_id)]
    return sorted(out, key=lambda r: (r[0].due_at, r[0].id))


@router.get("/")
def dashboard(gym: GymDep):
    courses = _all(gym, Course)
    news = gym.db.exec(select(Announcement, Course).join(Course, Announcement.course_id == Course.id)
                       .order_by(Announcement.posted_at.desc(), Announcement.id.desc())).all()[:5]
    unread = {c.id: sum(1 for a in _all(gym, Announcement, Announcement.course_id == c.id) if not a.read) for c in courses}
    return gym.render("dashboard.html", courses=courses, todo=_todo(gym)[:6], news=news, unread=unread)


def _course(gym: Gym, course_id: int) -> Course:
    return gym.get(Course, course_id)


@router.get("/courses/{course_id}")
def modules(gym: GymDep, course_id: int):
    course = _course(gym, course_id)
    subs = _subs(gym)
    mods = [(m, _all(gym, ModuleItem, ModuleItem.module_id == m.id)) for m in _all(gym, Module, Module.course_id == course_id)]
    mods = [(m, sorted(items, key=lambda i: i.position)) for m, items in sorted(mods, key=lambda r: r[0].position)]
    submitted = {s.assignment_id for s in subs}
    return gym.render("modules.html", course=course, tab="modules", modules=mods, submitted=submitted,
                      assignments={a.id: a for a in _all(gym, Assignment, Assignment.course_id == course_id)})


@router.post("/items/{item_id}/done")
def toggle_done(gym: GymDep, item_id: int):
    item = gym.get(ModuleItem, item_id)
    module = gym.get(Module, item.module_id)
    if item.kind != "page":
        return gym.done(f"/courses/{module.course_id}", notice="Assignments count as done once you submit them.")
    item.done = not item.done
    gym.db.add(item)
    return gym.done(f"/courses/{module.course_id}", notice=f"'{item.title}' marked {'done' if item.done else 'not done'}")


@router.get("/items/{item_id}")
def page_item(gym: GymDep, item_id: int):
    item = gym.get(ModuleItem, item_id)
    module = gym.get(Module, item.module_id)
    if item.kind == "assignment" and item.assignment_id:
        return gym.render("page.html", course=_course(gym, module.course_id), tab="modules", item=item, module=module,
                          assignment=gym.db.get(Assignment, item.assignment_id))
    return gym.render("page.html", course=_course(gym, module.course_id), tab="modules", item=item, module=module, assignment=None)


@router.get("/courses/{course_id}/assignments")
def assignments(gym: GymDep, course_id: int):
    course = _course(gym, course_id)
    subs = _subs(gym)
    groups = [(g, sorted(_all(gym, Assignment, Assignment.group_id == g.id), key=lambda a: (a.due_at, a.id)))
              for g in _all(gym, AssignmentGroup, AssignmentGroup.course_id == course_id)]
    return gym.render("assignments.html", course=course, tab="assignments", groups=groups, latest=lambda a: latest(subs, a.id))


@router.get("/courses/{course_id}/grades")
def grades(gym: GymDep, course_id: int):
    course = _course(gym, course_id)
    subs = _subs(gym)
    groups = _all(gym, AssignmentGroup, AssignmentGroup.course_id == course_id)
    works = sorted(_all(gym, Assignment, Assignment.course_id == course_id), key=lambda a: (a.due_at, a.id))
    total, per_group = course_total(groups, works, subs)
    return gym.render("grades.html", course=course, tab="grades", groups=groups, works=works, total=total, per_group=per_group,
                      letter=letter(total), latest=lambda a: latest(subs, a.id), names={g.id: g.name for g in groups})


@router.get("/courses/{course_id}/announcements")
def announcements(gym: GymDep, course_id: int):
    course = _course(gym, course_id)
    rows = sorted(_all(gym, Announcement, Announcement.course_id == course_id), key=lambda a: (a.posted_at, a.id), reverse=True)
    return gym.render("announcements.html", course=course, tab="announcements", rows=rows)


@router.get("/announcements/{announcement_id}")
def announcement(gym: GymDep, announcement_id: int):
    a = gym.get(Announcement, announcement_id)
    gym.view(a, read=True)
    return gym.render("announcement.html", course=_course(gym, a.course_id), tab="announcements", a=a)


def submit_errors(gym: Gym, a: Assignment, kind: str, drivefile: str, body: str) -> dict[str, str]:
    """Field -> message for a submission; the assignment must still be open and take that kind of work."""
    if gym.now > a.lock_at:
        return {"kind": f"This assignment closed on {a.lock_at:%B} {a.lock_at.day} at {a.lock_at:%H:%M}; no more submissions."}
    allowed = accepts(a)
    if kind == "text":
        if "text" not in allowed:
            return {"kind": "This assignment does not take text entries: choose a file from your Drive."}
        return {} if body.strip() else {"body": "Write your answer before submitting."}
    if kind != "file":
        return {"kind": "Choose how to hand in your work."}
    f = gym.db.get(DriveFile, int(drivefile)) if drivefile.isdigit() else None
    if f is None:
        return {"drivefile": "Choose a file from your Drive."}
    if f.kind not in allowed:
        wanted = " or ".join(KIND_LABELS[k] for k in allowed)
        return {"drivefile": f"'{f.name}' is {KIND_LABELS[f.kind]}; this assignment takes {wanted}."}
    return {}


@router.get("/assignments/{assignment_id}")
def assignment(gym: GymDep, assignment_id: int, kind: str = "", drivefile: str = "", body: str = "", comment: str = "", check: str = ""):
    a = gym.get(Assignment, assignment_id)
    course = _course(gym, a.course_id)
    attempts = sorted(_all(gym, Submission, Submission.assignment_id == a.id), key=lambda s: s.attempt, reverse=True)
    allowed = accepts(a)
    kind = kind or ("file" if set(allowed) & {"doc", "table"} else "text")
    errors = submit_errors(gym, a, kind, drivefile, body) if check else {}
    files = sorted((f for f in _all(gym, DriveFile) if f.kind in allowed), key=lambda f: (f.folder, f.name))
    return gym.render("assignment.html", course=course, tab="assignments", a=a, attempts=attempts, allowed=allowed, files=files,
                      values={"kind": kind, "drivefile": drivefile, "body": body, "comment": comment}, errors=errors,
                      group=gym.get(AssignmentGroup, a.group_id), closed=gym.now > a.lock_at, late_now=is_late(a, gym.now), labels=KIND_LABELS)


@router.post("/assignments/{assignment_id}/submit")
def submit(gym: GymDep, assignment_id: int, kind: str = Form(""), drivefile: str = Form(""), body: str = Form(""), comment: str = Form("")):
    a = gym.get(Assignment, assignment_id)
    if submit_errors(gym, a, kind, drivefile, body):
        return gym.done(f"/assignments/{assignment_id}", check=1, kind=kind, drivefile=drivefile, body=body, comment=comment)
    previous = latest(_subs(gym), a.id)
    s = Submission(assignment_id=a.id, attempt=previous.attempt + 1 if previous else 1, submitted_at=gym.now, kind=kind,
                   comment=comment.strip(), late=is_late(a, gym.now))
    if kind == "file":
        f = gym.get(DriveFile, int(drivefile))
        s.drivefile_id, s.file_name = f.id, f.name
    else:
        s.body = body.strip()
    gym.db.add(s)
    gym.advance()
    return gym.done(f"/assignments/{assignment_id}", notice=f"Submitted{' (late)' if s.late else ''}: attempt {s.attempt}")





@router.get("/todo")
def todo(gym: GymDep):
    return gym.render("todo.html", todo=_todo(gym))


@router.get("/grades")
def all_grades(gym: GymDep):
    subs = _subs(gym)
    rows = []
    for c in _all(gym, Course):
        total, _ = course_total(_all(gym, AssignmentGroup, AssignmentGroup.course_id == c.id), _all(gym, Assignment, Assignment.course_id == c.id), subs)
        rows.append((c, total, letter(total)))
    return gym.render("all_grades.html", rows=rows)
__all__ = ["router"]
