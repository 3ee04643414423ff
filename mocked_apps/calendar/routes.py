"""Calendar pages (day, week, month, agenda, invitations, search, event) and their POST actions."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from fastapi import APIRouter, Form, HTTPException, Request
from sqlalchemy import func, or_
from sqlmodel import col, select

from mocked_apps.kit import Gym, GymDep

from . import grid
from .forms import EventForm, FormError, Guest, parse_guests
from mocked_apps.kit.identity import Identity

from .models import Calendar, Event, Invitee

router = APIRouter()

AGENDA_DAYS = 14
ANSWERS = {"yes": "Yes", "no": "No", "maybe": "Maybe"}


# ---- shared lookups -----------------------------------------------------------------------
def _user(gym: Gym) -> Identity:
    """The signed-in user, from the kit's identity (an empty one owns and is invited to nothing)."""
    return gym.identity


def _calendars(gym: Gym) -> list[Calendar]:
    return list(gym.db.exec(select(Calendar).order_by(Calendar.id)).all())


def _between(gym: Gym, start: datetime, end: datetime, calendar_id: int | None = None) -> list[Event]:
    query = select(Event).where(Event.start < end, Event.end > start)
    if calendar_id is not None:
        query = query.where(Event.calendar_id == calendar_id)
    return list(gym.db.exec(query.order_by(Event.start, Event.end, Event.id)).all())


def _my_answers(gym: Gym, user: Identity, events: list[Event]) -> dict[int, str]:
    """event id -> the user's RSVP, for events the user is invited to."""
    ids = [e.id for e in events]
    rows = gym.db.exec(select(Invitee).where(col(Invitee.event_id).in_(ids), func.lower(Invitee.email) == user.email.lower()))
    return {row.event_id: row.rsvp for row in rows}


def _pending_count(gym: Gym, user: Identity) -> int:
    query = (
        select(func.count()).select_from(Invitee).join(Event, Event.id == Invitee.event_id)
        .where(func.lower(Invitee.email) == user.email.lower(), Invitee.rsvp == "pending", Event.end > gym.now)
    )
    return gym.db.exec(query).one()


def _page(gym: Gym, template: str, view: str, day: date, **values):
    """Render with what every page's side bar and app bar need."""
    user = _user(gym)
    calendars = _calendars(gym)
    return gym.render(
        template, view=view, day=day, today=gym.now.date(), user=user, calendars=calendars,
        calendar_by_id={c.id: c for c in calendars}, delta_day=timedelta(days=1), pending=_pending_count(gym, user),
        q=values.pop("q", ""), calendar_filter=values.pop("calendar_filter", None), **values,
    )


def _day(gym: Gym, value: str | None) -> date:
    if not value:
        return gym.now.date()
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise HTTPException(400, f"{value!r} is not a date (use YYYY-MM-DD)") from None


def _directory(gym: Gym) -> dict[str, str]:
    """Everyone seen in this calendar: email -> display name (for guests typed without a name)."""
    people = {e.organizer_email.lower(): e.organizer_name for e in gym.db.exec(select(Event)) if e.organizer_name}
    people.update({i.email.lower(): i.name for i in gym.db.exec(select(Invitee).order_by(Invitee.id)) if i.name})
    return people


def _guests(gym: Gym, event: Event) -> list[Invitee]:
    return list(gym.db.exec(select(Invitee).where(Invitee.event_id == event.id).order_by(Invitee.id)).all())


def _own(gym: Gym, event: Event) -> None:
    if event.organizer_email.lower() != _user(gym).email.lower():
        raise HTTPException(403, f"Only the organiser ({event.organizer_name or event.organizer_email}) can change this event")


def _back(next_path: str, default: str) -> str:
    """A safe in-app path to return to after a POST."""
    return next_path if next_path.startswith("/") and not next_path.startswith("//") else default


# ---- views ----------------------------------------------------------------------------------
@router.get("/")
def home(gym: GymDep):
    return week(gym, None)


@router.get("/week")
def week(gym: GymDep, date: str | None = None):
    day = _day(gym, date)
    days = grid.week_days(day)
    events = _between(gym, grid.midnight(days[0]), grid.midnight(days[-1] + timedelta(days=1)))
    return _page(
        gym, "timegrid.html", "week", day, heading=_range_title(days[0], days[-1]), tgrid=grid.time_grid(days, events),
        prev=days[0] - timedelta(days=7), next=days[0] + timedelta(days=7), unit="week",
        answers=_my_answers(gym, _user(gym), events),
    )


@router.get("/day")
def day_view(gym: GymDep, date: str | None = None):
    day = _day(gym, date)
    events = _between(gym, grid.midnight(day), grid.midnight(day + timedelta(days=1)))
    return _page(
        gym, "timegrid.html", "day", day, heading=day.strftime("%A, %B %-d, %Y"), tgrid=grid.time_grid([day], events),
        prev=day - timedelta(days=1), next=day + timedelta(days=1), unit="day",
        answers=_my_answers(gym, _user(gym), events),
    )


@router.get("/month")
def month(gym: GymDep, date: str | None = None):
    day = _day(gym, date)
    weeks = grid.month_weeks(day)
    events = _between(gym, grid.midnight(weeks[0][0]), grid.midnight(weeks[-1][-1] + timedelta(days=1)))
    cells = [[(d, grid.events_on(events, d)) for d in w] for w in weeks]
    first = day.replace(day=1)
    return _page(
        gym, "month.html", "month", day, heading=first.strftime("%B %Y"), weeks=cells,
        prev=grid.add_months(first, -1), next=grid.add_months(first, 1), unit="month",
        answers=_my_answers(gym, _user(gym), events),
    )


@router.get("/agenda")
def agenda(gym: GymDep, date: str | None = None, calendar: int | None = None):
    day = _day(gym, date)
    last = day + timedelta(days=AGENDA_DAYS - 1)
    events = _between(gym, grid.midnight(day), grid.midnight(last + timedelta(days=1)), calendar)
    days = [day + timedelta(days=i) for i in range(AGENDA_DAYS)]
    groups = [(d, grid.events_on(events, d)) for d in days]
    return _page(
        gym, "agenda.html", "agenda", day, heading=_range_title(day, last), groups=[g for g in groups if g[1]],
        prev=day - timedelta(days=AGENDA_DAYS), next=day + timedelta(days=AGENDA_DAYS), unit="period",
        answers=_my_answers(gym, _user(gym), events), calendar_filter=calendar,
    )


@router.get("/invitations")
def invitations(gym: GymDep):
    user = _user(gym)
    query = (
        select(Event, Invitee).join(Invitee, Invitee.event_id == Event.id)
        .where(func.lower(Invitee.email) == user.email.lower(), Event.end > gym.now)
        .order_by(Event.start, Event.id)
    )
    rows = gym.db.exec(query).all()
    waiting = [(e, i) for e, i in rows if i.rsvp == "pending"]
    answered = [(e, i) for e, i in rows if i.rsvp != "pending"]
    return _page(gym, "invitations.html", "invitations", gym.now.date(), waiting=waiting, answered=answered)


@router.get("/search")
def search(gym: GymDep, q: str = ""):
    term = q.strip()
    results: list[Event] = []
    if term:
        like = f"%{term.lower()}%"
        guests = select(Invitee.event_id).where(or_(func.lower(Invitee.email).like(like), func.lower(Invitee.name).like(like)))
        query = select(Event).where(
            or_(
                func.lower(Event.title).like(like),
                func.lower(Event.location).like(like),
                func.lower(Event.description).like(like),
                func.lower(Event.organizer_name).like(like),
                func.lower(Event.organizer_email).like(like),
                col(Event.id).in_(guests),
            )
        )
        results = list(gym.db.exec(query.order_by(Event.start, Event.id)).all())
    return _page(gym, "search.html", "search", gym.now.date(), q=term, results=results, examples=_search_examples(gym))


def _search_examples(gym: Gym) -> list[str]:
    """What the empty search page suggests: the first organiser other than the user, by name and by email, so the
    examples are this calendar's own people (whatever world it was made from)."""
    query = select(Event).where(func.lower(Event.organizer_email) != _user(gym).email.lower(), Event.organizer_name != "")
    other = gym.db.exec(query.order_by(Event.start, Event.id)).first()
    return [other.organizer_name, other.organizer_email] if other else []


@router.get("/event/new")
def new_event(gym: GymDep, date: str | None = None, hour: int = 10, calendar: int | None = None):
    calendars = _calendars(gym)
    day = _day(gym, date)
    form = EventForm.blank(day, hour, calendar or (calendars[0].id if calendars else None))
    return _page(gym, "event_form.html", "new", day, form=form, event=None, errors={})


@router.post("/event/new")
async def create_event(gym: GymDep, request: Request):
    form = await _read_form(request)
    user = _user(gym)
    try:
        values = form.values(_calendars(gym))
        guests = form.guest_list(_directory(gym), user.email)
    except FormError as err:
        return _form_error(gym, form, None, err)
    event = Event(**values, organizer_email=user.email, organizer_name=user.name)
    gym.db.add(event)
    gym.db.flush()
    for guest in guests:
        gym.db.add(Invitee(event_id=event.id, email=guest.email, name=guest.name))
    return gym.done(f"/event/{event.id}", notice=f"Created “{event.title}”")


@router.get("/event/{event_id}")
def show_event(gym: GymDep, event_id: int):
    return _event_page(gym, gym.get(Event, event_id))


def _event_page(gym: Gym, event: Event, values: dict | None = None, errors: dict[str, str] | None = None):
    """An event, its guests and your answer; with `errors` the add-guest form is shown again (422, nobody added)."""
    user = _user(gym)
    guests = _guests(gym, event)
    mine = next((g for g in guests if g.email.lower() == user.email.lower()), None)
    invited = [g for g in guests if g.email.lower() != event.organizer_email.lower()]
    counts = {k: sum(1 for g in invited if g.rsvp == k) for k in ("yes", "no", "maybe", "pending")}
    counts["yes"] += 1  # the organiser, listed first, is going
    response = _page(
        gym, "event.html", "event", event.start.date(), event=event, guests=invited, mine=mine, counts=counts,
        headcount=len(invited) + 1, values=values or {}, errors=errors or {},
        is_organizer=event.organizer_email.lower() == user.email.lower(), answer_labels=ANSWERS,
    )
    response.status_code = 422 if errors else 200
    return response


@router.get("/event/{event_id}/edit")
def edit_event(gym: GymDep, event_id: int):
    event = gym.get(Event, event_id)
    _own(gym, event)
    form = EventForm.of(event, [Guest(g.email, g.name) for g in _guests(gym, event)])
    return _page(gym, "event_form.html", "edit", event.start.date(), form=form, event=event, errors={})


@router.post("/event/{event_id}/edit")
async def update_event(gym: GymDep, event_id: int, request: Request):
    event = gym.get(Event, event_id)
    _own(gym, event)
    form = await _read_form(request)
    try:
        values = form.values(_calendars(gym))
        wanted = form.guest_list(_directory(gym), event.organizer_email)
    except FormError as err:
        return _form_error(gym, form, event, err)
    for key, value in values.items():
        setattr(event, key, value)
    current = {g.email.lower(): g for g in _guests(gym, event)}
    for email, row in current.items():
        if email not in {g.email for g in wanted}:
            gym.db.delete(row)
    for guest in wanted:
        if guest.email not in current:
            gym.db.add(Invitee(event_id=event.id, email=guest.email, name=guest.name))
    return gym.done(f"/event/{event.id}", notice=f"Saved “{event.title}”")


@router.post("/event/{event_id}/delete")
def delete_event(gym: GymDep, event_id: int):
    event = gym.get(Event, event_id)
    _own(gym, event)
    for guest in _guests(gym, event):
        gym.db.delete(guest)
    gym.db.flush()
    gym.db.delete(event)
    return gym.done("/week", notice=f"Deleted “{event.title}”", date=event.start.date().isoformat())


@router.post("/event/{event_id}/rsvp")
def rsvp(gym: GymDep, event_id: int, answer: str = Form(), back: str = Form("", alias="next")):
    event = gym.get(Event, event_id)
    email = _user(gym).email.lower()
    mine = next((g for g in _guests(gym, event) if g.email.lower() == email), None)
    if mine is None:
        raise HTTPException(403, "You are not invited to this event")
    if answer not in ANSWERS:
        raise HTTPException(400, f"answer must be one of {', '.join(ANSWERS)}")
    mine.rsvp = answer
    return gym.done(_back(back, f"/event/{event.id}"), notice=f"You replied {ANSWERS[answer]} to “{event.title}”")


@router.post("/event/{event_id}/guests")
def add_guest(gym: GymDep, event_id: int, email: str = Form(), name: str = Form("")):
    event = gym.get(Event, event_id)
    _own(gym, event)
    typed = {"email": email, "name": name}
    try:
        found = parse_guests(f"{name} <{email}>" if name.strip() else email, _directory(gym))
    except FormError as err:
        return _event_page(gym, event, typed, {"email": str(err)})
    if not found or found[0].email == event.organizer_email.lower():
        return _event_page(gym, event, typed, {"email": "The organiser is already on the event."})
    guest = found[0]
    if guest.email in {g.email.lower() for g in _guests(gym, event)}:
        return _event_page(gym, event, typed, {"email": f"{guest.email} is already invited."})
    gym.db.add(Invitee(event_id=event.id, email=guest.email, name=guest.name))
    return gym.done(f"/event/{event.id}", notice=f"Invited {guest.name}")


@router.post("/event/{event_id}/guests/{invitee_id}/remove")
def remove_guest(gym: GymDep, event_id: int, invitee_id: int):
    event = gym.get(Event, event_id)
    _own(gym, event)
    guest = gym.get(Invitee, invitee_id)
    if guest.event_id != event.id:
        raise HTTPException(404, f"Invitee {invitee_id} is not on event {event_id}")
    gym.db.delete(guest)
    return gym.done(f"/event/{event.id}", notice=f"Removed {guest.name or guest.email}")


# ---- helpers --------------------------------------------------------------------------------
async def _read_form(request: Request) -> EventForm:
    data = await request.form()
    text = {k: str(data.get(k, "")) for k in EventForm.__dataclass_fields__ if k != "all_day"}
    return EventForm(**text, all_day=bool(data.get("all_day")))


def _form_error(gym: Gym, form: EventForm, event: Event | None, err: FormError):
    """Re-show the form with what was typed and what to fix; nothing is saved."""
    gym.db.rollback()
    day = _day(gym, form.start_date) if _is_date(form.start_date) else gym.now.date()
    response = _page(gym, "event_form.html", "edit" if event else "new", day, form=form, event=event,
                     errors={err.field: str(err)})
    response.status_code = 422
    return response


def _is_date(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _range_title(first: date, last: date) -> str:
    """'Mar 2 – 8, 2026', 'Mar 30 – Apr 5, 2026' or 'Dec 29, 2025 – Jan 4, 2026'."""
    if first.year != last.year:
        return f"{first:%b} {first.day}, {first.year} – {last:%b} {last.day}, {last.year}"
    if first.month != last.month:
        return f"{first:%b} {first.day} – {last:%b} {last.day}, {last.year}"
    return f"{first:%B} {first.day} – {last.day}, {last.year}"
