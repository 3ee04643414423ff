"""Clinic families: book a named slot, book the earliest in-network slot of a specialty, cancel a visit
(the fee follows the time left), move a visit to another time, save a family member as a patient, tell when a
visit is; and one cross-app family (the clinic knows when, the calendar gets the event).

Single-app tasks run on the phone, the app's primary form factor. Ground truth comes from `offers` (the
world's projection read with the app's own rules); verifiers read the state through `recipes`' predicates.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from contracts.family import Family, PhoneFamily, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as clinic
from .offers import free_times, near_threshold, upcoming, when_text
from .projection import birth_date, carrier_of, member_id, phone_of, project, relationship_of
from .rules import RELATIONSHIPS, REASONS, can_reschedule
from .visits import CANCEL_REASONS

__all__ = ["FAMILIES"]


def _days(world: World) -> list:
    """The days tasks book on: tomorrow to six days ahead."""
    return [world.scenario.clock.date() + timedelta(days=i) for i in range(1, 7)]


def _specialties_for(patient: dict) -> list[str]:
    """Children see pediatricians, dentists and eye doctors; adults anyone but a pediatrician."""
    if patient["relationship"] == "child":
        return ["Pediatrician", "Dentist", "Eye doctor"]
    return [s for s in REASONS if s != "Pediatrician"]


_BOOK_VERIFIER = '''
def verify(final):
    new = _clinic_new(final)
    right = [a for a in new if a["doctor_id"] == {doctor_id} and a["start"] == datetime.fromisoformat({start!r})
             and a["patient_id"] == {patient_id}]
    return {{
        "booked": bool(right),
        "details": any(a["reason"] == {reason!r} and a["insurance"] == {insurance!r} for a in right),
        "only_once": len(new) == 1,
    }}
'''


def _book_context(start: datetime, doctor: dict, patient: dict, reason: str) -> dict:
    return {"doctor": doctor["name"], "doctor_id": doctor["id"], "specialty": doctor["specialty"], "day": start.date().isoformat(),
            "time": f"{start:%H:%M}", "start": start.isoformat(), "patient": patient["name"], "patient_id": patient["id"],
            "reason": reason, "insurance": patient["carrier"]}


def _book_criteria(c: dict) -> list[Criterion]:
    return [
        Criterion(id="booked", description=f"A new booked appointment with {c['doctor']} at {c['start']} for {c['patient']}."),
        Criterion(id="details", description=f"Its reason is '{c['reason']}' and it bills {c['insurance']}."),
        Criterion(id="only_once", description="Exactly one appointment was booked.", weight=0.5),
    ]


class _Booking(PhoneFamily):
    """Shared golden and verifier of the booking families: search in-network, book the slot."""

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clinic.search(c["specialty"], c["day"], c["insurance"]),
                            clinic.book(c["doctor"], c["time"], c["patient"], c["reason"], c["insurance"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return clinic.new_appointments_source("_clinic_new") + _BOOK_VERIFIER.format(
            doctor_id=c["doctor_id"], start=c["start"], patient_id=c["patient_id"], reason=c["reason"], insurance=c["insurance"])


class BookSlot(_Booking):
    name = "clinic.book_slot"
    apps = ("clinic",)
    description = "Book a named doctor at a named free time for yourself, with a reason and your insurance."
    difficulty = "medium"
    capabilities = ("search", "date_time", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        me = rows["patient"][0]
        day = rng.choice(_days(world))
        choices = [(s, d) for s, d in free_times(world, day, carrier=me["carrier"], rows=rows, patient=me["id"]) if d["specialty"] in _specialties_for(me)]
        choice = pick(rng, choices)
        if choice is None:
            return None
        start, doctor = choice
        c = _book_context(start, doctor, me, rng.choice(REASONS[doctor["specialty"]]))
        instruction = say(rng, world, "Book me with {doctor} ({specialty}) on {when} at {time}, reason: {reason}. Use my {carrier} insurance.",
                          "Get me the {time} slot with {doctor} on {when} ({reason_l}); bill my {carrier} plan.",
                          "I need an appointment with {doctor} on {when} at {time} ({reason_l}), on my {carrier} insurance.",
                          doctor=doctor["name"], specialty=doctor["specialty"].lower(), when=when_text(start), time=c["time"],
                          reason=c["reason"], reason_l=c["reason"].lower(), carrier=me["carrier"])
        return self._req(instruction, c, _book_criteria(c))


class EarliestInNetwork(_Booking):
    name = "clinic.earliest_in_network"
    apps = ("clinic",)
    description = "Book the earliest free slot of a specialty on a day with a doctor who takes the patient's insurance."
    difficulty = "hard"
    capabilities = ("search", "filter_sort", "disambiguate", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        traps, plain = [], []
        for patient in rows["patient"]:
            for day in _days(world):
                for specialty in _specialties_for(patient):
                    ours = free_times(world, day, specialty, patient["carrier"], rows, patient=patient["id"])
                    if not ours or sum(s == ours[0][0] for s, _ in ours) > 1:
                        continue  # nothing in network, or two doctors free at the same earliest time
                    every = free_times(world, day, specialty, rows=rows, patient=patient["id"])
                    (traps if every[0][1]["id"] != ours[0][1]["id"] else plain).append((patient, specialty, ours[0]))
        choice = pick(rng, traps) or pick(rng, plain)
        if choice is None:
            return None
        patient, specialty, (start, doctor) = choice
        c = _book_context(start, doctor, patient, rng.choice(REASONS[specialty]))
        who = "me" if patient["is_self"] else patient["name"]
        instruction = say(rng, world, "Book {who} the earliest {specialty} appointment on {when} with a doctor who takes {carrier}, and pick \"{reason}\" as the reason.",
                          "Find the first free {specialty} slot on {when} that is in network for {carrier} and book it for {who} ({reason_l}).",
                          who=who, specialty=specialty.lower(), when=when_text(start), carrier=patient["carrier"], reason=c["reason"],
                          reason_l=c["reason"].lower())
        criteria = _book_criteria(c)
        criteria[0] = Criterion(id="booked", description=f"A new booked appointment for {patient['name']} with {doctor['name']} at {c['start']}, "
                                                         f"the earliest {specialty} slot that day in network for {patient['carrier']}.")
        return self._req(instruction, c, criteria)


class CancelVisit(PhoneFamily):
    name = "clinic.cancel_visit"
    apps = ("clinic",)
    description = "Cancel an upcoming appointment (free 24 hours or more ahead, a late fee after that)."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        now = world.scenario.clock
        visit = pick(rng, [v for v in upcoming(world) if v.online and not near_threshold(v.start, now)])
        if visit is None:
            return None
        whose = "my" if visit.patient == world.persona.name else f"{visit.patient}'s"
        why = rng.choice([r for r in CANCEL_REASONS if r != "Other"])
        instruction = say(rng, world, "Cancel {whose} {reason} appointment with {doctor} on {when}. Reason to give: \"{why}\".",
                          "Please cancel {whose} visit with {doctor} ({when}, {time}); as the reason pick \"{why}\".",
                          whose=whose, reason=visit.reason.lower(), doctor=visit.doctor, when=when_text(visit.start), time=f"{visit.start:%H:%M}",
                          why=why)
        ctx = {"appointment_id": visit.appointment_id, "doctor": visit.doctor, "start": visit.start.isoformat(), "fee": visit.fee, "why": why}
        fee_text = f"a late cancellation fee of {money(visit.fee)}" if visit.fee else "no fee (24 hours or more ahead)"
        return self._req(instruction, ctx, [
            Criterion(id="cancelled", description=f"The appointment with {visit.doctor} at {visit.start.isoformat()} is cancelled."),
            Criterion(id="fee", description=f"It was cancelled with {fee_text}."),
            Criterion(id="reason", description=f"The reason given is '{why}'.", weight=0.5),
            Criterion(id="nothing_booked", description="No appointment was booked instead.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clinic.open_visit(c["doctor"], datetime.fromisoformat(c["start"])), clinic.cancel(c["why"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return clinic.visit_source("_visit") + clinic.new_appointments_source("_clinic_new") + f'''

def verify(final):
    a = _visit(final, {c["appointment_id"]!r})
    cancelled = a is not None and a["status"] == "cancelled"
    return {{"cancelled": cancelled, "fee": cancelled and abs(a["cancel_fee"] - {c["fee"]!r}) < 0.005,
            "reason": cancelled and a["cancel_reason"] == {c["why"]!r}, "nothing_booked": cancelled and not _clinic_new(final)}}
'''


class RescheduleVisit(PhoneFamily):
    name = "clinic.reschedule_visit"
    apps = ("clinic",)
    description = "Move an upcoming appointment to a named free time of the same doctor on another day."
    difficulty = "medium"
    capabilities = ("navigate", "date_time", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        now = world.scenario.clock
        rows = project(world)
        options = []
        for v in upcoming(world, rows):
            if not can_reschedule(v.start, now) or near_threshold(v.start, now):
                continue
            for day in _days(world):
                if day != v.start.date():
                    options += [(v, s) for s, d in free_times(world, day, rows=rows, ignore=v.appointment_id) if d["id"] == v.doctor_id]
        choice = pick(rng, options)
        if choice is None:
            return None
        visit, new = choice
        whose = "my" if visit.patient == world.persona.name else f"{visit.patient}'s"
        instruction = say(rng, world, "Move {whose} appointment with {doctor} on {old} to {new_day} at {time}.",
                          "Reschedule {whose} {reason} with {doctor} ({old}) to {time} on {new_day}, same doctor.",
                          whose=whose, doctor=visit.doctor, old=when_text(visit.start), new_day=when_text(new), time=f"{new:%H:%M}",
                          reason=visit.reason.lower())
        end = new + (visit.end - visit.start)
        ctx = {"appointment_id": visit.appointment_id, "doctor": visit.doctor, "start": visit.start.isoformat(), "new_start": new.isoformat(),
               "new_end": end.isoformat(), "new_day": new.date().isoformat(), "time": f"{new:%H:%M}"}
        return self._req(instruction, ctx, [
            Criterion(id="moved", description=f"The appointment with {visit.doctor} now starts at {new.isoformat()} and is still booked."),
            Criterion(id="same_visit", description="It was moved, not cancelled and booked again: no new appointment.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clinic.open_visit(c["doctor"], datetime.fromisoformat(c["start"])),
                            clinic.reschedule_to(datetime.fromisoformat(c["new_start"]).date(), c["time"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return clinic.visit_source("_visit") + clinic.new_appointments_source("_clinic_new") + f'''

def verify(final):
    a = _visit(final, {c["appointment_id"]!r})
    moved = a is not None and a["status"] == "booked" and a["start"] == datetime.fromisoformat({c["new_start"]!r})
    return {{"moved": moved and a["end"] == datetime.fromisoformat({c["new_end"]!r}), "same_visit": moved and not _clinic_new(final)}}
'''


class AddPatient(PhoneFamily):
    name = "clinic.add_patient"
    apps = ("clinic",)
    description = "Save a family member as a patient with their date of birth, phone and insurance details."
    difficulty = "easy"
    capabilities = ("navigate", "form_fill", "select_option", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        saved = {p["name"] for p in project(world)["patient"]}
        person = pick(rng, [p for p in world.people if world.org(p.org).kind == "household" and p.name not in saved])
        if person is None:
            return None
        rel = relationship_of(person.role)
        born = birth_date(person.name, rel, world.scenario.clock.date())
        phone, carrier, member = phone_of(person.name), carrier_of(world), member_id(person.name)
        day = datetime.fromisoformat(born)
        instruction = say(rng, world, "Add my {role} {name} as a patient: born {born}, phone {phone}, on our {carrier} plan, member ID {member}.",
                          "Save {name} ({role}) in the clinic app so I can book for them. Date of birth {born}, phone {phone}, "
                          "insurance {carrier} with member ID {member}.",
                          role=person.role, name=person.name, born=f"{day:%B} {day.day}, {day.year}", phone=phone, carrier=carrier, member=member)
        ctx = {"name": person.name, "date_of_birth": born, "relationship": rel, "relationship_label": RELATIONSHIPS[rel], "phone": phone,
               "carrier": carrier, "member_id": member}
        return self._req(instruction, ctx, [
            Criterion(id="saved", description=f"One new patient {person.name}, born {born}, saved as {RELATIONSHIPS[rel].lower()}."),
            Criterion(id="insurance", description=f"On {carrier} with member ID {member}."),
            Criterion(id="phone", description=f"With phone {phone}.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(clinic.add_patient(c["name"], c["date_of_birth"], c["relationship_label"], c["phone"], c["carrier"], c["member_id"]))

    verifier_template = '''
def verify(final):
    old = {p["id"] for p in final.initial_state["clinic"]["patient"]}
    new = [p for p in final.state["clinic"]["patient"] if p["id"] not in old]
    right = [p for p in new if " ".join(p["name"].split()).lower() == {{ name.lower()|py }} and p["date_of_birth"] == {{ date_of_birth|py }}
             and p["relationship"] == {{ relationship|py }}]
    ok = len(new) == 1 and len(right) == 1
    digits = lambda s: "".join(ch for ch in s if ch.isdigit())
    return {"saved": ok,
            "insurance": ok and right[0]["carrier"] == {{ carrier|py }} and right[0]["member_id"].upper() == {{ member_id|py }},
            "phone": ok and digits(right[0]["phone"]) == digits({{ phone|py }})}
'''


class VisitTime(PhoneFamily, AnswerFamily):
    name = "clinic.visit_time"
    apps = ("clinic",)
    description = "Look up what time an upcoming appointment is and answer with the time."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        visits = upcoming(world)
        visit = pick(rng, [v for v in visits if sum(x.doctor == v.doctor for x in visits) == 1])
        if visit is None:
            return None
        whose = "my" if visit.patient == world.persona.name else f"{visit.patient}'s"
        instruction = say(rng, world, "What time is {whose} appointment with {doctor} on {when}?",
                          "Check the clinic app: when on {when} is {whose} {reason} with {doctor}? I need the time.",
                          "At what time does {whose} visit with {doctor} ({when}) start?",
                          whose=whose, doctor=visit.doctor, when=when_text(visit.start), reason=visit.reason.lower())
        start = visit.start
        ctx = {"doctor": visit.doctor, "start": start.isoformat(), "time": f"{start:%H:%M}",
               "time_text": f"{start.hour % 12 or 12}:{start:%M} {'AM' if start.hour < 12 else 'PM'}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['time']}, the start of the appointment with {visit.doctor}.",
                                                         "The answer names no other time (listing every time is no answer)."))

    answer = AnswerSpec("time", "time", golden="{time_text}", sentence="It starts at {time}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """From the home page's link to every appointment instead of the menu; the time on the 24-hour clock."""
        label = clinic.visit_label(c["doctor"], datetime.fromisoformat(c["start"]))
        return (clinic.open_visit(c["doctor"], datetime.fromisoformat(c["start"])),
                ('env.click("All appointments", role="link")', f'env.click({label!r}, role="link")'))


class VisitToCalendar(Family):
    name = "cross.clinic_visit_to_calendar"
    apps = ("clinic", "calendar")
    description = "Put an upcoming clinic appointment in the calendar at its time (the time is only in the clinic app)."
    difficulty = "medium"
    capabilities = ("cross_app", "navigate", "form_fill", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        visits = upcoming(world)
        unique = [v for v in visits if sum(x.doctor == v.doctor for x in visits) == 1]
        visit = pick(rng, unique)
        if visit is None:
            return None
        title = f"{visit.reason} with {visit.doctor}"
        whose = "my" if visit.patient == world.persona.name else f"{visit.patient}'s"
        instruction = say(rng, world, "Put {whose} upcoming appointment with {doctor} in my calendar as \"{title}\", from its start to its end "
                          "(the time is in the clinic app).",
                          "Look up when {whose} visit with {doctor} is in the clinic app and block it in my calendar: title \"{title}\", same start and end.",
                          whose=whose, doctor=visit.doctor, title=title)
        ctx = {"doctor": visit.doctor, "title": title, "start": visit.start.isoformat(), "end": visit.end.isoformat()}
        return self._req(instruction, ctx, [
            Criterion(id="event", description=f"A new calendar event \"{title}\" from {visit.start.isoformat()} to {visit.end.isoformat()}."),
            Criterion(id="only_once", description="Exactly one new event with that title.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        start, end = datetime.fromisoformat(c["start"]), datetime.fromisoformat(c["end"])
        return solve_source(clinic.open_app(), clinic.open_visit(c["doctor"], start), calendar.open_app(),
                            calendar.create_event(c["title"], start.date().isoformat(), f"{start:%H:%M}", f"{end:%H:%M}", ""))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (calendar.new_events_source("_timed", c["title"], c["start"], c["end"])
                + calendar.new_events_source("_titled", c["title"]).replace("from datetime import datetime\n", "") + '''

def verify(final):
    return {"event": len(_timed(final)) >= 1, "only_once": len(_titled(final)) == 1 and len(_timed(final)) == 1}
''')


FAMILIES = (BookSlot(), EarliestInNetwork(), CancelVisit(), RescheduleVisit(), AddPatient(), VisitTime(), VisitToCalendar())
