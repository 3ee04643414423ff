"""Courses families: hand in a named Drive file for an assignment, hand in for whichever assignment of a
course is due next, mark a module's readings done, hand in a given text entry, tell when an assignment is due
and what time a midterm starts; and one cross-app family (an announcement names the exam's time, the calendar
gets the event).

Tasks run at desktop size, the app's primary form factor. Ground truth comes from the world's
projection read with the app's own rules (`grading`).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from contracts.family import Family, Requirements, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as courses
from .grading import accepts, latest
from .projection import exam_of, project

__all__ = ["FAMILIES"]


def _dt(text: str) -> datetime:
    return datetime.fromisoformat(str(text))


def _open(world: World, rows: dict) -> list[dict]:
    """Assignments still open a day from now (so the clock's advance cannot close them), by due date."""
    now = world.scenario.clock
    return sorted((a for a in rows["assignment"] if (_dt(a["lock_at"]) - now).total_seconds() > 86400), key=lambda a: (a["due_at"], a["id"]))


def _unique_files(rows: dict, kinds: list[str]) -> list[dict]:
    names = [f["name"] for f in rows["drivefile"]]
    return [f for f in rows["drivefile"] if f["kind"] in kinds and names.count(f["name"]) == 1]


_SUBMIT_VERIFIER = '''
def verify(final):
    new = _new(final)
    right = [s for s in new if s["assignment_id"] == {assignment_id} and s["kind"] == "file" and s["drivefile_id"] == {file_id}]
    return {{"submitted": bool(right), "only_once": len(new) == 1}}
'''


def _submit_context(rows: dict, a: dict, f: dict) -> dict:
    course = next(c for c in rows["course"] if c["id"] == a["course_id"])
    return {"assignment_id": a["id"], "title": a["title"], "code": course["code"], "course": course["name"], "file": f["name"],
            "file_id": f["id"], "resubmit": latest(rows["submission"], a["id"]) is not None}


class _Submit(Family):
    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(courses.open_assignment(c["code"], c["course"], c["title"]), courses.submit_file(c["file"], c["resubmit"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return courses.new_submissions_source("_new") + _SUBMIT_VERIFIER.format(assignment_id=c["assignment_id"], file_id=c["file_id"])


class SubmitDriveFile(_Submit):
    name = "courses.submit_drive_file"
    apps = ("courses",)
    description = "Hand in a named Drive file for a named assignment."
    difficulty = "medium"
    capabilities = ("navigate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        choices = [(a, f) for a in _open(world, rows) for f in _unique_files(rows, accepts(a))]
        choice = pick(rng, choices)
        if choice is None:
            return None
        c = _submit_context(rows, *choice)
        instruction = say(rng, world, "Hand in my Drive file \"{file}\" for the assignment \"{title}\" in {course}.",
                          "Submit \"{file}\" from my Drive as my {code} assignment \"{title}\".",
                          file=c["file"], title=c["title"], course=c["course"], code=c["code"])
        return self._req(instruction, c, [
            Criterion(id="submitted", description=f"A new submission of \"{c['file']}\" (Drive file {c['file_id']}) for \"{c['title']}\"."),
            Criterion(id="only_once", description="Exactly one submission was handed in.", weight=0.5),
        ])


class SubmitDueNext(_Submit):
    name = "courses.submit_due_next"
    apps = ("courses",)
    description = "Hand in a Drive file for whichever assignment of a course is due next (the due dates are only in the app)."
    difficulty = "hard"
    capabilities = ("navigate", "disambiguate", "date_time", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        now = world.scenario.clock
        choices = []
        for course in rows["course"]:
            ahead = [a for a in _open(world, rows) if a["course_id"] == course["id"] and _dt(a["due_at"]) > now
                     and latest(rows["submission"], a["id"]) is None]
            if len(ahead) >= 2 and ahead[0]["due_at"] != ahead[1]["due_at"]:
                choices += [(ahead[0], f) for f in _unique_files(rows, accepts(ahead[0]))]
        choice = pick(rng, choices)
        if choice is None:
            return None
        c = _submit_context(rows, *choice)
        instruction = say(rng, world, "In {course}, hand in \"{file}\" from my Drive for whichever assignment is due next.",
                          "Submit my Drive file \"{file}\" for the next {code} assignment that is due.",
                          file=c["file"], course=c["course"], code=c["code"])
        return self._req(instruction, c, [
            Criterion(id="submitted", description=f"A new submission of \"{c['file']}\" for \"{c['title']}\", the next one due in {c['code']}."),
            Criterion(id="only_once", description="Exactly one submission was handed in.", weight=0.5),
        ])


class MarkModuleDone(Family):
    name = "courses.mark_module_done"
    apps = ("courses",)
    description = "Mark every reading of a named module done."
    difficulty = "easy"
    capabilities = ("navigate", "multi_item")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        modules = []
        for m in rows["module"]:
            pages = [i for i in rows["moduleitem"] if i["module_id"] == m["id"] and i["kind"] == "page"]
            if pages and not all(i["done"] for i in pages):
                modules.append((m, pages))
        several = [(m, pages) for m, pages in modules if sum(not i["done"] for i in pages) >= 2]
        choice = pick(rng, several) if several and rng.random() < 0.5 else pick(rng, modules)
        if choice is None:
            return None
        m, pages = choice
        course = next(c for c in rows["course"] if c["id"] == m["course_id"])
        instruction = say(rng, world, "Mark all the readings of \"{module}\" in {course} as done.",
                          "I've finished the readings for {code} \"{module}\": tick them off.", module=m["title"], course=course["name"],
                          code=course["code"])
        ctx = {"code": course["code"], "course": course["name"], "module": m["title"], "item_ids": [i["id"] for i in pages],
               "todo": [i["title"] for i in pages if not i["done"]]}
        return self._req(instruction, ctx, [
            Criterion(id="done", description=f"Every reading of \"{m['title']}\" is marked done ({', '.join(ctx['todo'])})."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(courses.open_course(c["code"], c["course"]), *[courses.mark_done(t) for t in c["todo"]])

    verifier_template = '''
def verify(final):
    items = {i["id"]: i for i in final.state["courses"]["moduleitem"]}
    return {"done": all(items.get(i, {}).get("done") is True for i in {{ item_ids|py }})}
'''


_ANSWERS = (
    "I will send a short update every Friday and flag risks the same day.",
    "Hola, le escribo para confirmar la reunión del jueves a las diez.",
    "The main stakeholders are the sponsor, finance and the studio leads.",
    "Gracias por su correo. Le envío la agenda mañana por la mañana.",
)


class SubmitTextEntry(Family):
    name = "courses.submit_text_entry"
    apps = ("courses",)
    description = "Hand in a given text as the text entry of an open assignment that takes text."
    difficulty = "medium"
    capabilities = ("navigate", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        assignment = pick(rng, [a for a in _open(world, rows) if "text" in accepts(a)])
        if assignment is None:
            return None
        course = next(c for c in rows["course"] if c["id"] == assignment["course_id"])
        text = rng.choice(_ANSWERS)
        instruction = say(rng, world, "Submit this as my text entry for \"{title}\" in {course}: \"{text}\"",
                          "For {code} \"{title}\", hand in a text entry that says: \"{text}\"", title=assignment["title"],
                          course=course["name"], code=course["code"], text=text)
        ctx = {"assignment_id": assignment["id"], "title": assignment["title"], "code": course["code"], "course": course["name"], "text": text,
               "resubmit": latest(rows["submission"], assignment["id"]) is not None}
        return self._req(instruction, ctx, [
            Criterion(id="submitted", description=f"A new text submission for \"{assignment['title']}\" saying exactly \"{text}\"."),
            Criterion(id="only_once", description="Exactly one submission was handed in.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(courses.open_assignment(c["code"], c["course"], c["title"]), courses.submit_text(c["text"], c["resubmit"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return courses.new_submissions_source("_new") + f'''

def verify(final):
    new = _new(final)
    right = [s for s in new if s["assignment_id"] == {c["assignment_id"]!r} and s["kind"] == "text"
             and " ".join(s["body"].split()) == {c["text"]!r}]
    return {{"submitted": bool(right), "only_once": len(new) == 1}}
'''


def _by_grades(name: str) -> str:
    """From anywhere in the app: a course's grades page, through the Grades overview (another way in than the dashboard)."""
    return "\n".join(['env.click("Grades", role="link")', f'env.click({name!r}, role="link")'])


class AssignmentDueDate(AnswerFamily):
    name = "courses.assignment_due_date"
    apps = ("courses",)
    description = "Look up the day an assignment is due and answer with the date."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        titles = [a["title"] for a in rows["assignment"]]
        a = pick(rng, [a for a in rows["assignment"] if titles.count(a["title"]) == 1])
        if a is None:
            return None
        course = next(c for c in rows["course"] if c["id"] == a["course_id"])
        due = _dt(a["due_at"])
        instruction = say(rng, world, "When is \"{title}\" for {code} due?", "What's the due date of the {course} assignment \"{title}\"?",
                          "Check the course site: on which day is \"{title}\" ({code}) due?", title=a["title"], code=course["code"],
                          course=course["name"])
        ctx = {"title": a["title"], "code": course["code"], "course": course["name"], "due": due.date().isoformat(),
               "due_text": f"{due:%B} {due.day}, {due.year}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['due']}, the day '{a['title']}' is due.",
                                                         "The answer names no other date (listing every date is no answer)."))

    answer = AnswerSpec("date", "due", golden="{due_text}", sentence="It's due {due:%A}, {due:%B} {due.day}, {due.year}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Read the due date off the course's gradebook instead of the assignment; the date with its weekday."""
        return courses.open_assignment(c["code"], c["course"], c["title"]), _by_grades(c["course"])


class MidtermTime(AnswerFamily):
    name = "courses.midterm_time"
    apps = ("courses",)
    description = "Find a course's midterm in its announcements and answer with the time it starts."
    difficulty = "medium"
    capabilities = ("navigate", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        index = rng.randrange(len(rows["course"]))
        course = rows["course"][index]
        start, _minutes, _room = exam_of(world, index)
        instruction = say(rng, world, "What time does the {code} midterm exam start?", "When does the {course} midterm begin? I only need the time.",
                          "Look up the start time of the midterm in {course} ({code}) and tell me.", code=course["code"], course=course["name"])
        ctx = {"code": course["code"], "course": course["name"], "time": f"{start:%H:%M}",
               "time_text": f"{start.hour % 12 or 12}:{start:%M} {'AM' if start.hour < 12 else 'PM'}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['time']}, when the {course['code']} midterm starts.",
                                                         "The answer names no other time (listing every time is no answer)."))

    answer = AnswerSpec("time", "time", golden="{time_text}", sentence="It starts at {time}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Reach the announcements through the gradebook instead of the dashboard; the time on the 24-hour clock."""
        return (courses.open_announcement(c["code"], c["course"], "Midterm exam date"),
                (_by_grades(c["course"]), 'env.click("Announcements", role="link")', 'env.click("Midterm exam date", role="link")'))


class ExamToCalendar(Family):
    name = "cross.exam_to_calendar"
    apps = ("courses", "calendar")
    description = "Put a course's midterm exam in the calendar at the date, time and length its announcement gives."
    difficulty = "medium"
    capabilities = ("cross_app", "navigate", "form_fill", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        index = rng.randrange(len(rows["course"]))
        course = rows["course"][index]
        start, minutes, _room = exam_of(world, index)
        end = start + timedelta(minutes=minutes)
        title = f"{course['code']} midterm"
        instruction = say(rng, world, "My {course} teacher announced the midterm: put it in my calendar as \"{title}\", at the time and for the length "
                          "the announcement gives.",
                          "Add the {code} midterm exam to my calendar (title \"{title}\"); the date, time and length are in the course's announcements.",
                          course=course["name"], code=course["code"], title=title)
        ctx = {"code": course["code"], "course": course["name"], "title": title, "start": start.isoformat(), "end": end.isoformat()}
        return self._req(instruction, ctx, [
            Criterion(id="event", description=f"A new calendar event \"{title}\" from {start.isoformat()} to {end.isoformat()}."),
            Criterion(id="only_once", description="Exactly one new event with that title.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        start, end = _dt(c["start"]), _dt(c["end"])
        return solve_source(courses.open_app(), courses.open_announcement(c["code"], c["course"], "Midterm exam date"), calendar.open_app(),
                            calendar.create_event(c["title"], start.date().isoformat(), f"{start:%H:%M}", f"{end:%H:%M}", ""))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (calendar.new_events_source("_timed", c["title"], c["start"], c["end"])
                + calendar.new_events_source("_titled", c["title"]).replace("from datetime import datetime\n", "") + '''

def verify(final):
    return {"event": len(_timed(final)) >= 1, "only_once": len(_titled(final)) == 1 and len(_timed(final)) == 1}
''')


FAMILIES = (SubmitDriveFile(), SubmitDueNext(), MarkModuleDone(), SubmitTextEntry(), AssignmentDueDate(), MidtermTime(), ExamToCalendar())
