"""Pages and form posts of Rail Tickets: search, the timetable of a route and date, booking and paying.

Orders after payment (refund, change) live in `trips.py`, saved passengers in `passengers.py`. Form
errors redirect back to the form's GET page with the typed values and `check=1`; that page runs the
same validation again, so no state lives in the browser.
"""

from __future__ import annotations

from datetime import date, timedelta

from fastapi import APIRouter, Form, Query, Request
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from . import passengers, trips
from .inventory import next_seat, service, services
from .models import Order, Passenger, PaymentMethod, Station, Ticket, Train
from .rules import bookable_dates, departure, duration_text, ticket_price

router = APIRouter()
router.include_router(trips.router)
router.include_router(passengers.router)

SORTS = {"depart": "Departure time", "duration": "Shortest journey", "price": "Lowest price"}
KINDS = {"G": "High-speed (G)", "D": "Intercity (D)", "K": "Regional (K)"}


def _int(text: str | None) -> int | None:
    return int(text) if text and text.strip().isdigit() else None


def _day(gym: Gym, text: str) -> date | None:
    try:
        day = date.fromisoformat(text.strip()) if text and text.strip() else None
    except ValueError:
        return None
    return day if day in bookable_dates(gym.now) else None


def _stations(gym: Gym) -> list[Station]:
    return list(gym.db.exec(select(Station).order_by(Station.id)).all())


def _upcoming(gym: Gym) -> list[tuple[Order, Train]]:
    rows = gym.db.exec(select(Order, Train).join(Train, Order.train_id == Train.id).where(Order.status.in_(("paid", "unpaid")))
                       .order_by(Order.travel_date, Train.depart, Order.id)).all()
    return [(o, t) for o, t in rows if departure(o.travel_date, t.depart) > gym.now]


@router.get("/")
def home(gym: GymDep, origin: str = "", destination: str = "", day: str = "", check: str = ""):
    stations = _stations(gym)
    values = {"origin": origin or str(stations[0].id), "destination": destination or (str(stations[1].id) if len(stations) > 1 else ""),
              "day": day or gym.now.date().isoformat()}
    errors = _search_errors(gym, origin, destination, day) if check else {}
    return gym.render("home.html", stations=stations, values=values, errors=errors, upcoming=_upcoming(gym)[:3],
                      names={s.id: s.name for s in stations}, dates=bookable_dates(gym.now))


def _search_errors(gym: Gym, origin: str, destination: str, day: str) -> dict[str, str]:
    errors = {}
    a, b = _int(origin), _int(destination)
    if a is None or gym.db.get(Station, a) is None:
        errors["origin"] = "Choose the station you leave from."
    if b is None or gym.db.get(Station, b) is None:
        errors["destination"] = "Choose the station you are going to."
    elif a == b:
        errors["destination"] = "Choose a destination other than the departure station."
    if _day(gym, day) is None:
        last = bookable_dates(gym.now)[-1]
        errors["day"] = f"Choose a travel date from today to {last:%B} {last.day}: tickets go on sale 15 days ahead."
    return errors


@router.get("/trains")
def trains(gym: GymDep, origin: str = "1", destination: str = "2", day: str = "", sort: str = "depart", kinds: list[str] = Query(default=[]),
           available: str = ""):
    """The timetable of a route on a date; an invalid search sends the user back to the search form."""
    day = day or gym.now.date().isoformat()
    if _search_errors(gym, origin, destination, day):
        return gym.done("/", check=1, origin=origin, destination=destination, day=day)
    a, b, when = int(origin), int(destination), _day(gym, day)
    chosen = [k for k in kinds if k in KINDS]
    rows = services(gym.db, a, b, when.isoformat())
    rows = [s for s in rows if s.leaves > gym.now and (not chosen or s.train.kind in chosen) and (not available or s.available)]
    key = {"duration": lambda s: (s.train.duration_min, s.train.depart), "price": lambda s: (s.cheapest, s.train.depart)}.get(sort)
    if key:
        rows.sort(key=key)
    dates = bookable_dates(gym.now)
    return gym.render("trains.html", rows=rows, origin=gym.get(Station, a), destination=gym.get(Station, b), day=when,
                      prev_day=when - timedelta(days=1) if when > dates[0] else None,
                      next_day=when + timedelta(days=1) if when < dates[-1] else None,
                      sort=sort if sort in SORTS else "depart", sorts=SORTS, kinds=KINDS, chosen=chosen, available=available,
                      duration_text=duration_text)


def _offer(gym: Gym, train: str, day: str, seat_class: str):
    t = gym.db.get(Train, _int(train)) if _int(train) else None
    when = _day(gym, day)
    if t is None or when is None:
        return None, None
    s = service(gym.db, t, when.isoformat())
    return s, s.offer(seat_class)


def _book_errors(gym: Gym, train: str, day: str, seat_class: str, chosen: list[int]) -> dict[str, str]:
    s, offer = _offer(gym, train, day, seat_class)
    if s is None or offer is None:
        return {"train": "This train is not on sale for that date and class; search again."}
    if s.leaves <= gym.now:
        return {"train": "This train has already left; choose a later one."}
    errors = {}
    people = [gym.db.get(Passenger, p) for p in chosen]
    if not chosen or None in people:
        errors["passengers"] = "Choose at least one passenger."
    elif len(set(chosen)) != len(chosen):
        errors["passengers"] = "Each passenger can have one seat only."
    elif offer.left < len(chosen):
        errors["passengers"] = (f"Only {offer.left} {offer.fare.seat_class} seat{'' if offer.left == 1 else 's'} left on "
                                f"{s.train.number}: choose fewer passengers or another class." if offer.left else
                                f"{offer.fare.seat_class} on {s.train.number} is sold out: choose another class or train.")
    return errors


def _chosen(text: str) -> list[int]:
    return [int(p) for p in text.split(",") if p.strip().isdigit()]


@router.get("/book")
def book_form(gym: GymDep, train: str = "", day: str = "", seat_class: str = "", chosen: str = "", seat: str = "", check: str = ""):
    s, offer = _offer(gym, train, day, seat_class)
    people = list(gym.db.exec(select(Passenger).order_by(Passenger.is_self.desc(), Passenger.id)).all())
    picked = _chosen(chosen) if check else [p.id for p in people if p.is_self]
    errors = _book_errors(gym, train, day, seat_class, picked) if check or s is None or offer is None else {}
    return gym.render("book.html", s=s, offer=offer, people=people, picked=picked, seat=seat or "none", errors=errors,
                      values={"train": train, "day": day, "seat_class": seat_class}, duration_text=duration_text, ticket_price=ticket_price)


@router.post("/book")
async def book_submit(gym: GymDep, request: Request, train: str = Form(""), day: str = Form(""), seat_class: str = Form(""),
                      seat: str = Form("none")):
    form = await request.form()
    chosen = [int(p) for p in form.getlist("passenger") if str(p).isdigit()]
    if _book_errors(gym, train, day, seat_class, chosen):
        return gym.done("/book", check=1, train=train, day=day, seat_class=seat_class, seat=seat, chosen=",".join(map(str, chosen)) or "none")
    s, offer = _offer(gym, train, day, seat_class)
    order = Order(number="", train_id=s.train.id, travel_date=s.day, seat_class=seat_class, status="unpaid", total=0.0, created_at=gym.now)
    gym.db.add(order)
    gym.db.flush()
    order.number = f"E{gym.now:%y%m%d}{order.id:03d}"
    total, given = 0.0, set()
    for i, pid in enumerate(chosen):
        person = gym.db.get(Passenger, pid)
        price = ticket_price(offer.fare.price, person.kind)
        coach, place = next_seat(gym.db, offer.fare, s.train, s.day, seat, given)
        given.add((coach, place))
        gym.db.add(Ticket(order_id=order.id, passenger_id=person.id, passenger_name=person.name, coach=coach, seat=place, price=price))
        total += price
    order.total = round(total, 2)
    gym.db.add(order)
    gym.advance()
    return gym.done(f"/orders/{order.id}", notice="Seats held: pay to confirm your order")


@router.post("/orders/{order_id}/pay")
def pay(gym: GymDep, order_id: int, method: str = Form("")):
    order = gym.get(Order, order_id)
    if order.status != "unpaid":
        return gym.done(f"/orders/{order_id}", notice=f"This order is {order.status}; nothing was charged.")
    chosen = gym.db.get(PaymentMethod, _int(method)) if _int(method) else None
    if chosen is None:
        return gym.done(f"/orders/{order_id}", error="method")
    order.status, order.payment_method_id, order.paid_at = "paid", chosen.id, gym.now
    gym.db.add(order)
    gym.advance()
    return gym.done(f"/orders/{order_id}", notice=f"Paid {order.total:,.2f}: your tickets are confirmed")


@router.post("/orders/{order_id}/cancel")
def cancel(gym: GymDep, order_id: int):
    order = gym.get(Order, order_id)
    if order.status != "unpaid":
        return gym.done(f"/orders/{order_id}", notice=f"This order is {order.status}; only unpaid orders can be cancelled.")
    order.status = "cancelled"
    for t in gym.db.exec(select(Ticket).where(Ticket.order_id == order_id)).all():
        t.status = "cancelled"
        gym.db.add(t)
    gym.db.add(order)
    return gym.done("/orders", notice=f"Order {order.number} cancelled; the seats were released")


__all__ = ["router"]
