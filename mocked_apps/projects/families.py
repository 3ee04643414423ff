"""Projects families: add a task with its assignee, due day, priority and label; hand every open task of
one colleague in a project to another; comment on a task and move it to review; push a project's
overdue tasks to a new due day; look-ups answered in text: how many unfinished tasks a colleague has in a
project, when a task is due; and one cross-app family (a task due on the day of a calendar meeting, assigned to
the colleague in it).

Ground truth comes from the world's projection; verifiers read the state (tasks with their column and
label names, comments), golden code uses the UI's labels through `recipes`.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from contracts.family import Family, Requirements, first_name, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as projects
from .board import due_state
from .projection import LABELS, members, project

__all__ = ["FAMILIES"]

_TITLES = ("Book the venue for the team offsite", "Renew the company domain", "Order new business cards", "Draft the Q2 budget",
           "Update the client contact list", "Collect receipts for the expense report", "Set up the new laptop", "Plan the summer party")


def _day(d: date) -> str:
    return f"{d:%A, %B} {d.day}"


def _columns(rows: dict, project_id: int) -> dict[int, dict]:
    return {c["id"]: c for c in rows["boardcolumn"] if c["project_id"] == project_id}


def _unique(rows: dict, project_id: int, titles: list[str]) -> bool:
    """Each title names one card of the project's board (golden code opens cards by title)."""
    board = [t["title"] for t in rows["taskcard"] if t["project_id"] == project_id]
    return all(board.count(title) == 1 for title in titles)


def _open(rows: dict, task: dict) -> bool:
    return not next(c for c in rows["boardcolumn"] if c["id"] == task["column_id"])["done"]


class CreateTask(Family):
    name = "projects.create_task"
    apps = ("projects",)
    description = "Add a task to a project's To do column with an assignee, a due day, a priority and a label."
    difficulty = "medium"
    capabilities = ("navigate", "form_fill", "select_option", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        proj = pick(rng, rows["project"])
        who = pick(rng, [m for m in rows["member"] if not m["is_me"]])
        if proj is None or who is None:
            return None
        title = rng.choice(_TITLES)
        if any(t["title"] == title for t in rows["taskcard"]):
            return None
        due = world.scenario.clock.date() + timedelta(days=rng.randint(2, 20))
        priority = rng.choice(["low", "high"])
        label = rng.choice([n for n, _ in LABELS])
        instruction = say(rng, world, "In {p}, add a task \"{title}\" for {who}, due {when}, {prio} priority, labelled {label}.",
                          "Create a to-do in the {p} project: \"{title}\". Assign it to {who}, due date {when}, priority {prio}, label {label}.",
                          p=proj["name"], title=title, who=who["name"], when=_day(due), prio=priority, label=label)
        ctx = {"project": proj["name"], "project_id": proj["id"], "title": title, "assignee": who["name"], "assignee_id": who["id"],
               "due": due.isoformat(), "priority": priority, "label": label}
        return self._req(instruction, ctx, [
            Criterion(id="created", description=f"A new task \"{title}\" in {proj['name']}, in To do."),
            Criterion(id="assignee", description=f"Assigned to {who['name']}."),
            Criterion(id="due", description=f"Due {due.isoformat()}."),
            Criterion(id="priority", description=f"{priority.capitalize()} priority, labelled {label}."),
            Criterion(id="only_once", description="Exactly one such task.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(projects.open_project(c["project"]),
                            projects.add_task("To do", c["title"], c["assignee"], c["due"], c["priority"], (c["label"],)))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return projects.new_tasks_source("_new", c["project_id"], c["title"]) + f'''

def verify(final):
    new = _new(final)
    right = [t for t in new if t["column"] == "To do"]
    return {{
        "created": bool(right),
        "assignee": any(t["assignee_id"] == {c["assignee_id"]!r} for t in right),
        "due": any(t["due"] == {c["due"]!r} for t in right),
        "priority": any(t["priority"] == {c["priority"]!r} and {c["label"]!r} in t["labels"] for t in right),
        "only_once": len(new) == 1,
    }}
'''


class HandOver(Family):
    name = "projects.hand_over"
    apps = ("projects",)
    description = "Reassign every open task of one colleague in a project to another; their finished tasks stay theirs (the footprint guard sees them)."
    difficulty = "hard"
    capabilities = ("filter_sort", "multi_item", "select_option", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        team = {m["id"]: m for m in rows["member"]}
        options = []
        for proj in rows["project"]:
            for m in team.values():
                mine = [t for t in rows["taskcard"] if t["project_id"] == proj["id"] and t["assignee_id"] == m["id"] and _open(rows, t)]
                if 1 <= len(mine) <= 5 and _unique(rows, proj["id"], [t["title"] for t in mine]):
                    options.append((proj, m, mine))
        choice = pick(rng, options)
        if choice is None:
            return None
        proj, old, tasks = choice
        new = pick(rng, [m for m in team.values() if m["id"] != old["id"]])
        who = "my" if old["is_me"] else f"{old['name']}'s"
        instruction = say(rng, world, "Hand {who} open tasks in {p} over to {new}: reassign each of them (finished ones stay as they are).",
                          "{new} takes over {who} unfinished tasks in the {p} project. Reassign them all to {new}; leave completed tasks alone.",
                          who=who, p=proj["name"], new=new["name"])
        ctx = {"project": proj["name"], "project_id": proj["id"], "from": old["name"], "from_id": old["id"], "to": new["name"], "to_id": new["id"],
               "titles": sorted(t["title"] for t in tasks), "task_ids": sorted(t["id"] for t in tasks)}
        return self._req(instruction, ctx, [
            Criterion(id="reassigned", description=f"Every open task of {old['name']} in {proj['name']} ({len(tasks)}) is assigned to {new['name']}."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        steps = [projects.open_project(c["project"])]
        for title in c["titles"]:
            steps += [projects.open_task(title), projects.edit_task(assignee=c["to"]), projects.open_project(c["project"])]
        return solve_source(*steps)

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return projects.tasks_source("_tasks") + f'''

def verify(final):
    before = {{t["id"]: t for t in _tasks(final.initial_state["projects"])}}
    after = {{t["id"]: t for t in _tasks(final.state["projects"])}}
    targets = [i for i, t in before.items() if t["project_id"] == {c["project_id"]!r} and t["assignee_id"] == {c["from_id"]!r} and not t["done"]]
    return {{
        "reassigned": bool(targets) and all(i in after and after[i]["assignee_id"] == {c["to_id"]!r} for i in targets),
    }}
'''


_NOTES = ("Checked it, please take a look.", "Done on my side; ready for review.", "First pass finished, comments welcome.")


class CommentAndReview(Family):
    name = "projects.comment_and_review"
    apps = ("projects",)
    description = "Leave a comment on an open task and move it to the Review column."
    difficulty = "medium"
    capabilities = ("navigate", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {p["id"]: p["name"] for p in rows["project"]}
        cands = [t for t in rows["taskcard"] if _open(rows, t) and _columns(rows, t["project_id"])[t["column_id"]]["name"] != "Review"
                 and sum(x["title"] == t["title"] and x["project_id"] == t["project_id"] for x in rows["taskcard"]) == 1]
        task = pick(rng, cands)
        if task is None:
            return None
        body = rng.choice(_NOTES)
        instruction = say(rng, world, "On the task \"{t}\" in {p}, comment \"{body}\" and move it to Review.",
                          "Move \"{t}\" ({p}) to the Review column and leave this comment on it: \"{body}\"",
                          t=task["title"], p=names[task["project_id"]], body=body)
        review = next(c["id"] for c in _columns(rows, task["project_id"]).values() if c["name"] == "Review")
        me = next(m["id"] for m in rows["member"] if m["is_me"])
        ctx = {"project": names[task["project_id"]], "task_id": task["id"], "title": task["title"], "body": body, "review_id": review, "me_id": me}
        return self._req(instruction, ctx, [
            Criterion(id="commented", description=f"A new comment \"{body}\" by me on \"{task['title']}\"."),
            Criterion(id="in_review", description="The task is in the Review column."),
            Criterion(id="only_once", description="Exactly one new comment.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(projects.open_project(c["project"]), projects.open_task(c["title"]), projects.comment(c["body"]),
                            projects.edit_task(status="Review"))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def _norm(text):
    return " ".join(str(text).split()).strip().lower()


def verify(final):
    old = {{x["id"] for x in final.initial_state["projects"]["taskcomment"]}}
    new = [x for x in final.state["projects"]["taskcomment"] if x["id"] not in old]
    task = next((t for t in final.state["projects"]["taskcard"] if t["id"] == {c["task_id"]!r}), None)
    return {{
        "commented": any(x["task_id"] == {c["task_id"]!r} and x["author_id"] == {c["me_id"]!r} and _norm(x["body"]) == _norm({c["body"]!r}) for x in new),
        "in_review": task is not None and task["column_id"] == {c["review_id"]!r},
        "only_once": len(new) == 1,
    }}
'''


class RescheduleOverdue(Family):
    name = "projects.reschedule_overdue"
    apps = ("projects",)
    description = "Move the due day of every overdue open task of a project to a given day (overdue is read against today)."
    difficulty = "hard"
    capabilities = ("date_time", "filter_sort", "multi_item", "compute")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        today = world.scenario.clock.date()
        late = {}
        for t in rows["taskcard"]:
            if due_state(t["due"], not _open(rows, t), today) == "overdue":
                late.setdefault(t["project_id"], []).append(t)
        pid = pick(rng, sorted(p for p, tasks in late.items() if _unique(rows, p, [t["title"] for t in tasks])))
        if pid is None:
            return None
        proj = next(p for p in rows["project"] if p["id"] == pid)
        friday = today + timedelta(days=(4 - today.weekday()) % 7 or 7)
        instruction = say(rng, world, "Move the due date of every overdue, unfinished task in {p} to {when}.",
                          "Reschedule the overdue open tasks of the {p} project to {when}. Leave the others as they are.",
                          p=proj["name"], when=_day(friday))
        tasks = late[pid]
        ctx = {"project": proj["name"], "project_id": pid, "due": friday.isoformat(), "titles": sorted(t["title"] for t in tasks),
               "task_ids": sorted(t["id"] for t in tasks), "today": today.isoformat()}
        return self._req(instruction, ctx, [
            Criterion(id="rescheduled", description=f"Each of the {len(tasks)} overdue open task(s) of {proj['name']} is due {friday.isoformat()}."),
            Criterion(id="still_open", description="They are still open (not completed).", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        steps = [projects.open_project(c["project"])]
        for title in c["titles"]:
            steps += [projects.open_task(title), projects.edit_task(due=c["due"]), projects.open_project(c["project"])]
        return solve_source(*steps)

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return projects.tasks_source("_tasks") + f'''

def verify(final):
    before = _tasks(final.initial_state["projects"])
    after = {{t["id"]: t for t in _tasks(final.state["projects"])}}
    late = [t["id"] for t in before if t["project_id"] == {c["project_id"]!r} and not t["done"] and t["due"] and t["due"] < {c["today"]!r}]
    return {{
        "rescheduled": bool(late) and all(i in after and after[i]["due"] == {c["due"]!r} for i in late),
        "still_open": all(i in after and not after[i]["done"] for i in late),
    }}
'''


class TaskForMeeting(Family):
    name = "cross.task_for_meeting"
    apps = ("calendar", "projects")
    description = "Add a task due on the day of a calendar meeting, assigned to the colleague in it (day and person are only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "date_time", "form_fill", "select_option")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        team = {m["email"]: m for m in members(world)}
        people = {p.id: p for p in world.people}
        clock = world.scenario.clock
        fits = []
        for m in world.meetings:
            inside = [team[people[p].email] for p in (m.organizer, *m.attendees) if p in people and people[p].email in team and p != world.user]
            if m.start > clock and world.user in (m.organizer, *m.attendees) and len(inside) == 1 and sum(x.title == m.title for x in world.meetings) == 1:
                fits.append((m, inside[0]))
        choice = pick(rng, sorted(fits, key=lambda f: f[0].start))
        if choice is None:
            return None
        meeting, mate = choice
        proj = rows["project"][0]
        title = f"Prepare notes for {meeting.title}"
        if any(t["title"] == title for t in rows["taskcard"]):
            return None
        instruction = say(rng, world, "Add a task \"{title}\" to {p}, due on the day of that meeting and assigned to the colleague I'm meeting there (both are in my calendar).",
                          "In {p}, create \"{title}\": the due date is the day of the meeting \"{m}\" in my calendar, and it goes to the teammate attending it with me.",
                          title=title, p=proj["name"], m=meeting.title)
        ctx = {"title": title, "meeting": meeting.title, "project": proj["name"], "project_id": proj["id"], "due": meeting.start.date().isoformat(),
               "assignee": mate["name"], "assignee_id": mate["id"]}
        return self._req(instruction, ctx, [
            Criterion(id="created", description=f"A new task \"{title}\" in {proj['name']}."),
            Criterion(id="due", description=f"Due {meeting.start.date().isoformat()}, the day of \"{meeting.title}\"."),
            Criterion(id="assignee", description=f"Assigned to {mate['name']} ({first_name(mate['name'])} is in the meeting)."),
            Criterion(id="only_once", description="Exactly one such task.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), projects.open_app(), projects.open_project(c["project"]),
                            projects.add_task("To do", c["title"], c["assignee"], c["due"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return projects.new_tasks_source("_new", c["project_id"], c["title"]) + f'''

def verify(final):
    new = _new(final)
    return {{
        "created": bool(new),
        "due": any(t["due"] == {c["due"]!r} for t in new),
        "assignee": any(t["assignee_id"] == {c["assignee_id"]!r} for t in new),
        "only_once": len(new) == 1,
    }}
'''


_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _filter_to(assignee: str) -> tuple[str, ...]:
    """Narrow the open board to one assignee's tasks."""
    return f'env.select("Assignee", {assignee!r})', 'env.click("Filter", role="button")'


class OpenTaskCount(AnswerFamily):
    name = "projects.open_task_count"
    apps = ("projects",)
    description = "Count a colleague's unfinished tasks in one project (every column but Done) and answer with the number."
    difficulty = "medium"
    capabilities = ("filter_sort", "read_answer", "compute")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        options = []
        for proj in rows["project"]:
            for m in rows["member"]:
                n = sum(t["project_id"] == proj["id"] and t["assignee_id"] == m["id"] and _open(rows, t) for t in rows["taskcard"])
                if not m["is_me"] and 1 <= n <= len(_NUMBERS) - 1:
                    options.append((proj, m, n))
        choice = pick(rng, options)
        if choice is None:
            return None
        proj, who, n = choice
        first = first_name(who["name"])
        first = first if sum(first_name(m["name"]) == first for m in rows["member"]) == 1 else who["name"]
        instruction = say(rng, world, "How many unfinished tasks does {who} have in {p}? Count everything not in Done.",
                          "In the {p} project, how many open tasks are assigned to {who}?",
                          "Tell me how many tasks {first} still has open in {p}.", who=who["name"], first=first, p=proj["name"])
        ctx = {"project": proj["name"], "assignee": who["name"], "count": n, "count_text": _NUMBERS[n]}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {n}, the tasks of {who['name']} in {proj['name']} outside Done.",
                                                         "The answer names no other number."))

    answer = AnswerSpec("count", "count", golden="{count}")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Start from Home, filter the board the same way, and answer in words."""
        route = (projects.open_project(c["project"]), *_filter_to(c["assignee"]))
        return route, ('env.click(env.word("Home"), role="link")', *route)

    def said(self, c: dict) -> str:
        return f"{c['count_text'].capitalize()} unfinished tasks."


def _day_forms(d: date) -> tuple[str, ...]:
    """How a day may be written in a title ("Mar 25", "March 25", "25 March", ISO): such a title would give the answer away."""
    return (d.isoformat(), f"{d:%B} {d.day}", f"{d:%b} {d.day}", f"{d.day} {d:%B}", f"{d.day} {d:%b}")


class TaskDueDate(AnswerFamily):
    name = "projects.task_due_date"
    apps = ("projects",)
    description = "Look up when an open task of a project is due and answer with the date."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {p["id"]: p["name"] for p in rows["project"]}
        cands = [t for t in rows["taskcard"] if _open(rows, t) and t["due"] and _unique(rows, t["project_id"], [t["title"]])
                 and not any(f.lower() in t["title"].lower() for f in _day_forms(date.fromisoformat(t["due"])))]
        task = pick(rng, cands)
        if task is None:
            return None
        due = date.fromisoformat(task["due"])
        instruction = say(rng, world, "When is \"{t}\" in {p} due? Answer with the date.",
                          "What's the due date of the task \"{t}\" in the {p} project?",
                          "Check {p}: by when does \"{t}\" have to be done?", t=task["title"], p=names[task["project_id"]])
        team = {m["id"]: m["name"] for m in rows["member"]}
        ctx = {"project": names[task["project_id"]], "title": task["title"], "due": due.isoformat(),
               "due_text": f"{due:%B} {due.day}, {due.year}", "assignee": team.get(task["assignee_id"], "Unassigned")}
        return self._req(instruction, ctx, self.criteria(f"The answer gives the due date {due.isoformat()}.",
                                                         "The answer names no other date (listing every date is no answer)."))

    answer = AnswerSpec("date", "due", golden="{due_text}", sentence="It is due {due:%A, %B} {due.day}, {due.year}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Narrow the board to the task's assignee before opening it, and say the day with its weekday."""
        return ((projects.open_project(c["project"]), projects.open_task(c["title"])),
                (projects.open_project(c["project"]), *_filter_to(c["assignee"]), projects.open_task(c["title"])))



FAMILIES = (CreateTask(), HandOver(), CommentAndReview(), RescheduleOverdue(), TaskForMeeting(), OpenTaskCount(), TaskDueDate())
