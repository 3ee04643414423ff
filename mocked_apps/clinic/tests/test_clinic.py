"""The clinic app over real HTTP and a real browser: free slots that disappear as they are booked and
come back on cancel, booking checks (patient, reason, visit type, insurance, double booking), the
cancellation policy by time, rescheduling, patient details validation, and the world projection."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from mocked_apps.clinic.projection import project
from mocked_apps.clinic.rules import free_slots
from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.clinic")
DAY = "2026-03-04"  # a Wednesday, two days after the seed's clock
NOW = datetime(2026, 3, 2, 9, 0)  # the seed's clock


@pytest.fixture
def clinic(server):
    with Client(server) as instance:
        yield instance


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace(" ", "T"))


def _visit(state: dict, reason: str) -> dict:
    """The seed's upcoming visit for `reason` (the projection books one of each, whatever the world)."""
    return next(a for a in state["appointment"] if a["reason"] == reason and a["status"] == "booked" and _at(a["start"]) > NOW)


def _times(page: str, doctor: str) -> list[str]:
    """The times offered as 'Book <doctor> at HH:MM' links on a page."""
    return re.findall(r'aria-label="Book %s at (\d\d:\d\d)"' % re.escape(doctor), page)


def _book(clinic: Client, doctor: int, start: str, patient: str = "1", reason: str = "Illness", insurance: str = "", **extra) -> str:
    return clinic.post("/book", doctor=str(doctor), start=start, patient=patient, reason=reason, visit_type=extra.get("visit_type", "in_person"),
                       insurance=insurance, note=extra.get("note", ""))


def test_a_booked_slot_disappears_and_comes_back_on_cancel(clinic):
    state = clinic.state()
    patel = next(d for d in state["doctor"] if d["specialty"] == "Primary care")
    page = clinic.get("/search", specialty="Primary care", day=DAY).text
    shown = _times(page, patel["name"])
    expected = [s.strftime("%H:%M") for s in free_slots(patel, datetime.fromisoformat(DAY).date(), NOW, state["appointment"])]
    assert shown == expected and len(shown) >= 3
    start = f"{DAY}T{shown[1]}:00"
    where = _book(clinic, patel["id"], start, note=" bring results ")
    visit = clinic.state()["appointment"][-1]
    assert where.startswith(f"/appointments/{visit['id']}?notice=Booked")
    assert (visit["doctor_id"], visit["start"].replace(" ", "T")[:16], visit["end"][11:16], visit["status"], visit["note"]) == (
        patel["id"], start[:16], _plus(shown[1], patel["slot_minutes"]), "booked", "bring results")
    assert visit["code"] == f"C{NOW:%y%m%d}{visit['id']:03d}"
    assert _times(clinic.get("/search", specialty="Primary care", day=DAY).text, patel["name"]) == [t for t in shown if t != shown[1]]
    # the same slot again: refused with the reason, nothing written
    before = clinic.state()
    again = _book(clinic, patel["id"], start)
    assert "is no longer available" in clinic.get(again).text and clinic.state() == before
    assert clinic.post(f"/appointments/{visit['id']}/cancel", reason="I feel better").startswith(f"/appointments/{visit['id']}?notice=")
    cancelled = clinic.state()["appointment"][-1]
    assert (cancelled["status"], cancelled["cancel_fee"], cancelled["cancel_reason"]) == ("cancelled", 0.0, "I feel better")
    assert _times(clinic.get("/search", specialty="Primary care", day=DAY).text, patel["name"]) == shown


def _plus(hhmm: str, minutes: int) -> str:
    h, m = map(int, hhmm.split(":"))
    total = h * 60 + m + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def test_booking_checks_write_nothing(clinic):
    state = clinic.state()
    cho = next(d for d in state["doctor"] if d["specialty"] == "Dentist" and not d["video"])  # in person only
    start = f"{DAY}T{_times(clinic.get('/doctors/%d' % cho['id'], day=DAY).text, cho['name'])[0]}:00"
    me = state["patient"][0]
    cases = {
        "Choose who the appointment is for.": dict(patient=""),
        "Choose the reason for the visit.": dict(reason="Illness"),  # a primary-care reason at a dentist
        "sees patients in person only": dict(reason="Toothache", visit_type="video"),
        f"Choose {me['name']}&#39;s insurance or self-pay.": dict(reason="Toothache", insurance="Aetna" if me["carrier"] != "Aetna" else "Cigna"),
    }
    for message, fields in cases.items():
        where = _book(clinic, cho["id"], start, **fields)
        assert where.startswith("/book?check=1") and message in clinic.get(where).text, message
    out = next(d for d in state["doctor"] if me["carrier"] not in d["accepts"] and d["specialty"] != "Pediatrician")
    slot = next(s for s in free_slots(out, datetime.fromisoformat(DAY).date(), NOW, state["appointment"]))
    where = _book(clinic, out["id"], slot.isoformat(), reason=_reason(out), insurance=me["carrier"])
    assert f"does not take {me['carrier']}" in clinic.get(where).text
    # the patient already has a visit then: the seed's eye exam
    visit = _visit(state, "Eye exam")
    eye = (_at(visit["start"]), _at(visit["end"]))
    other, overlap = next((d, s) for d in state["doctor"] if d["specialty"] != "Pediatrician"
                          for s in free_slots(d, eye[0].date(), NOW, state["appointment"])
                          if s < eye[1] and s + timedelta(minutes=d["slot_minutes"]) > eye[0])
    where = _book(clinic, other["id"], overlap.isoformat(), reason=_reason(other), patient=str(visit["patient_id"]))
    assert f"already has an appointment at {eye[0]:%H:%M}" in clinic.get(where).text
    assert clinic.state() == state


def _reason(doctor: dict) -> str:
    from mocked_apps.clinic.rules import REASONS
    return REASONS[doctor["specialty"]][0]


def test_cancellation_and_rescheduling_follow_the_time_left(server):
    with Client(server) as clinic:
        state = clinic.state()
        dentist = _visit(state, "Cleaning and check-up")  # between 2 and 24 hours ahead: late fee, cannot be moved
        assert timedelta(hours=2) < _at(dentist["start"]) - NOW < timedelta(hours=24)
        page = clinic.get(f"/appointments/{dentist['id']}").text
        assert "late cancellation fee applies" in page and "Reschedule" not in page
        where = clinic.post(f"/appointments/{dentist['id']}/reschedule", start=(NOW + timedelta(days=8)).isoformat())
        assert "can+only+be+cancelled" in where
        eye = _visit(state, "Eye exam")  # more than 24 hours ahead: free, and movable
        assert _at(eye["start"]) - NOW > timedelta(hours=24)
        berg = next(d for d in state["doctor"] if d["id"] == eye["doctor_id"])
        day = next(_at(eye["start"]).date() + timedelta(days=i) for i in range(1, 8)
                   if free_slots(berg, _at(eye["start"]).date() + timedelta(days=i), NOW, state["appointment"], ignore=eye["id"]))
        new = free_slots(berg, day, NOW, state["appointment"], ignore=eye["id"])[0]
        assert f"Move to {new:%H:%M}" in clinic.get(f"/appointments/{eye['id']}/reschedule", day=day.isoformat()).text
        assert clinic.post(f"/appointments/{eye['id']}/reschedule", start=new.isoformat()).startswith(f"/appointments/{eye['id']}?notice=Moved")
        moved = next(a for a in clinic.state()["appointment"] if a["id"] == eye["id"])
        assert (moved["start"].replace(" ", "T")[:16], moved["reschedules"], moved["status"]) == (new.isoformat()[:16], 1, "booked")
        old = _at(eye["start"])
        assert f"{old:%H:%M}" in _times(clinic.get(f"/doctors/{berg['id']}", day=old.date().isoformat()).text, berg["name"])  # free again
        clinic.post(f"/appointments/{dentist['id']}/cancel", reason="")
        late = next(a for a in clinic.state()["appointment"] if a["id"] == dentist["id"])
        fee = next(d for d in state["doctor"] if d["id"] == dentist["doctor_id"])["late_fee"]
        assert (late["status"], late["cancel_fee"]) == ("cancelled", fee)
        again = clinic.state()
        clinic.post(f"/appointments/{dentist['id']}/cancel")
        assert clinic.state() == again
    with Client(server, clock=(_at(dentist["start"]) - timedelta(minutes=90)).isoformat()) as early:  # 90 minutes before: call the clinic
        dentist_id = dentist["id"]
        before = early.state()
        assert "Too+late+to+cancel+online" in early.post(f"/appointments/{dentist_id}/cancel")
        assert early.state() == before and "call the clinic" in early.get(f"/appointments/{dentist_id}/cancel").text


def test_patient_details_are_validated(clinic):
    before = clinic.state()
    good = dict(name="Henry Morgan", date_of_birth="1958-06-14", relationship="parent", phone="(555) 210-2853", email="", carrier="Aetna",
                member_id="fq3787835")
    bad = {
        "first and last name": dict(name="Henry"),
        "cannot be in the future": dict(date_of_birth="2027-01-01"),
        "as YYYY-MM-DD": dict(date_of_birth="14/06/1958"),
        "at least 7 digits": dict(phone="12-34"),
        "name@example.com": dict(email="henry@"),
        "6 to 15 letters and digits": dict(member_id=""),
        "Self-pay patients have no member ID": dict(carrier=""),
        "Choose how the patient is related": dict(relationship="self"),
    }
    for message, change in bad.items():
        where = clinic.post("/patients/new", **{**good, **change})
        assert where.startswith("/patients/new?check=1") and message in clinic.get(where).text, message
    assert clinic.state() == before
    assert clinic.post("/patients/new", **good).startswith("/patients?notice=")
    saved = clinic.state()["patient"][-1]
    assert (saved["name"], saved["member_id"], saved["relationship"], saved["is_self"]) == ("Henry Morgan", "FQ3787835", "parent", False)
    clinic.post("/patients/1/delete")
    assert clinic.state()["patient"][0]["is_self"]


def _world():
    """A small world by hand: a persona in Seattle with a partner, a mother and a physiotherapy practice with weekly sessions."""
    from contracts.world import Meeting, Organisation, Person, Persona, Scenario, World

    persona = Persona(id="p", name="Kenji Watanabe", email="k@kw.example", role="consultant", company="KW", domain="kw.example", city="Seattle")
    now = datetime(2026, 5, 4, 9, 0)
    physio = lambda i, day: Meeting(id=f"m{i}", title="Physio at Lind Physio", start=datetime(2026, 5, day, 10), end=datetime(2026, 5, day, 10, 45),  # noqa: E731
                                    location="Lind Physio", organizer="t", attendees=("u",))
    return World(
        id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="Physio", description="", clock=now), user="u",
        organisations=(Organisation(id="o1", name="KW", kind="self", domain="kw.example"),
                       Organisation(id="o2", name="Watanabe family", kind="household", domain="mailbox.example"),
                       Organisation(id="o3", name="Lind Physio", kind="vendor", domain="lind.example", category="health")),
        people=(Person(id="u", name="Kenji Watanabe", email="k@kw.example", org="o1", role="consultant"),
                Person(id="h", name="Aiko Watanabe", email="a@mailbox.example", org="o2", role="partner"),
                Person(id="g", name="Emi Watanabe", email="e@mailbox.example", org="o2", role="mother"),
                Person(id="r", name="Lena Lind", email="r@lind.example", org="o3", role="receptionist"),
                Person(id="t", name="Ola Lind", email="t@lind.example", org="o3", role="physiotherapist")),
        meetings=(physio(1, 1), physio(2, 8)),
    )


def test_projection_keeps_the_worlds_people_and_times():
    world = _world()
    rows = project(world)
    assert [c["name"] for c in rows["clinic"]] == ["Seattle Family Health", "Bright Smile Dental", "Cedar Skin & Eye Clinic",
                                                    "Harbor Physio & Sports", "Lind Physio"]
    therapist = rows["doctor"][-1]
    assert (therapist["name"], therapist["specialty"], therapist["clinic_id"]) == ("Ola Lind", "Physical therapist", 5)
    assert [(p["name"], p["relationship"]) for p in rows["patient"]] == [("Kenji Watanabe", "self"), ("Aiko Watanabe", "partner")]
    assert len({p["carrier"] for p in rows["patient"]}) == 1
    physio = [a for a in rows["appointment"] if a["doctor_id"] == therapist["id"]]
    assert [(a["start"], a["end"]) for a in physio] == [("2026-05-01T10:00:00", "2026-05-01T10:45:00"), ("2026-05-08T10:00:00", "2026-05-08T10:45:00")]
    ahead = [a for a in rows["appointment"] if a["start"] > "2026-05-04T09:00:00"]
    assert len(ahead) == 4 and any(a["patient_name"] == "Aiko Watanabe" for a in ahead)
    assert project(world) == rows


def test_main_flow_in_a_real_browser_at_both_sizes(clinic):
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(clinic.url("/"))
            page.select_option("#specialty", label="Dermatologist")
            page.fill("#day", DAY)
            page.select_option("#insurance", index=0)
            page.get_by_role("button", name="Find doctors").click()
            page.get_by_role("link", name=re.compile("^Book Dr\\. ")).first.click()
            page.select_option("#reason", label="Skin check")
            page.select_option("#insurance", index=0)
            page.get_by_role("button", name="Book appointment").click()
            assert "Booked: Dr." in page.inner_text("main"), form_factor
            assert page.get_by_role("navigation").get_by_role("link", name="Appointments").is_visible()
    assert pages.errors == []

