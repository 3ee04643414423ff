"""Orders after booking: the order list and an order's page, refunding tickets (fee by how soon the train
leaves) and changing a paid trip to another train of the same route (the fare difference paid or refunded)."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, Form, Request
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from .inventory import next_seat, service, services
from .models import Order, Passenger, PaymentMethod, Station, Ticket, Train
from .rules import RefundError, bookable_dates, departure, duration_text, refund_rate, refund_value, ticket_price

router = APIRouter()
TABS = {"upcoming": "Upcoming", "unpaid": "Unpaid", "past": "Past & refunded"}


def _tickets(gym: Gym, order_id: int) -> list[Ticket]:
    return list(gym.db.exec(select(Ticket).where(Ticket.order_id == order_id).order_by(Ticket.id)).all())


def _tab(order: Order, train: Train, gym: Gym) -> str:
    if order.status == "unpaid":
        return "unpaid"
    return "upcoming" if order.status == "paid" and departure(order.travel_date, train.depart) > gym.now else "past"


@router.get("/orders")
def orders(gym: GymDep, tab: str = "upcoming"):
    tab = tab if tab in TABS else "upcoming"
    rows = gym.db.exec(select(Order, Train).join(Train, Order.train_id == Train.id)).all()
    names = {s.id: s.name for s in gym.db.exec(select(Station)).all()}
    counts = {k: 0 for k in TABS}
    shown = []
    for o, t in rows:
        counts[_tab(o, t, gym)] += 1
        if _tab(o, t, gym) == tab:
            shown.append((o, t))
    shown.sort(key=lambda r: (r[0].travel_date, r[1].depart, r[0].id), reverse=tab == "past")
    return gym.render("orders.html", rows=shown, tab=tab, tabs=TABS, counts=counts, names=names)


@router.get("/orders/{order_id}")
def order_page(gym: GymDep, order_id: int, error: str = ""):
    order = gym.get(Order, order_id)
    train = gym.get(Train, order.train_id)
    leaves = departure(order.travel_date, train.depart)
    s = service(gym.db, train, order.travel_date)
    return gym.render("order.html", o=order, train=train, s=s, tickets=_tickets(gym, order_id), leaves=leaves,
                      future=leaves > gym.now, origin=gym.get(Station, train.origin_id), destination=gym.get(Station, train.destination_id),
                      methods=gym.db.exec(select(PaymentMethod).order_by(PaymentMethod.id)).all(),
                      method=gym.db.get(PaymentMethod, order.payment_method_id) if order.payment_method_id else None,
                      other=gym.db.get(Order, order.changed_to_id or order.changed_from_id or 0), error=error, duration_text=duration_text)


# ---- refunds -------------------------------------------------------------------------------------------
@router.get("/orders/{order_id}/refund")
def refund_form(gym: GymDep, order_id: int, error: str = ""):
    order = gym.get(Order, order_id)
    train = gym.get(Train, order.train_id)
    leaves = departure(order.travel_date, train.depart)
    try:
        rate = refund_rate(leaves, gym.now)
    except RefundError as err:
        rate, error = None, str(err)
    active = [t for t in _tickets(gym, order_id) if t.status == "active"] if order.status == "paid" else []
    return gym.render("refund.html", o=order, train=train, leaves=leaves, rate=rate, tickets=active, error=error,
                      value=lambda t: refund_value(t.price, leaves, gym.now))


@router.post("/orders/{order_id}/refund")
async def refund(gym: GymDep, order_id: int, request: Request):
    order = gym.get(Order, order_id)
    train = gym.get(Train, order.train_id)
    leaves = departure(order.travel_date, train.depart)
    picked = {int(t) for t in (await request.form()).getlist("ticket") if str(t).isdigit()}
    active = [t for t in _tickets(gym, order_id) if t.status == "active"]
    chosen = [t for t in active if t.id in picked]
    if order.status != "paid" or leaves <= gym.now:
        return gym.done(f"/orders/{order_id}", notice="This order cannot be refunded.")
    if not chosen:
        return gym.done(f"/orders/{order_id}/refund", error="Choose the tickets to refund.")
    for t in chosen:
        t.status, t.refund_amount, t.refunded_at = "refunded", refund_value(t.price, leaves, gym.now), gym.now
        gym.db.add(t)
    if len(chosen) == len(active):
        order.status = "refunded"
        gym.db.add(order)
    back = round(sum(t.refund_amount for t in chosen), 2)
    gym.advance()
    return gym.done(f"/orders/{order_id}", notice=f"Refund of {back:,.2f} on its way to your payment method")


# ---- changing a trip -----------------------------------------------------------------------------------
def _changeable(gym: Gym, order: Order, train: Train) -> str | None:
    """Why this order cannot be changed, or None."""
    if order.status != "paid":
        return "Only paid orders can be changed."
    if order.changed_from_id is not None:
        return "This trip was already changed once; refund it and book again instead."
    if departure(order.travel_date, train.depart) <= gym.now:
        return "This train has already left."
    return None


@router.get("/orders/{order_id}/change")
def change_form(gym: GymDep, order_id: int, day: str = ""):
    order = gym.get(Order, order_id)
    train = gym.get(Train, order.train_id)
    try:
        when = date.fromisoformat(day) if day else date.fromisoformat(order.travel_date)
    except ValueError:
        when = date.fromisoformat(order.travel_date)
    dates = bookable_dates(gym.now)
    when = when if when in dates else dates[0]
    options = [s for s in services(gym.db, train.origin_id, train.destination_id, when.isoformat())
               if s.leaves > gym.now and not (s.train.id == train.id and s.day == order.travel_date)]
    return gym.render("change.html", o=order, train=train, problem=_changeable(gym, order, train), options=options, day=when, dates=dates,
                      tickets=[t for t in _tickets(gym, order_id) if t.status == "active"], origin=gym.get(Station, train.origin_id),
                      destination=gym.get(Station, train.destination_id), duration_text=duration_text)


@router.post("/orders/{order_id}/change")
def change(gym: GymDep, order_id: int, train: str = Form(""), day: str = Form(""), seat_class: str = Form("")):
    order = gym.get(Order, order_id)
    old_train = gym.get(Train, order.train_id)
    problem = _changeable(gym, order, old_train)
    new_train = gym.db.get(Train, int(train)) if train.isdigit() else None
    try:
        when = date.fromisoformat(day)
    except ValueError:
        when = None
    if problem or new_train is None or when not in bookable_dates(gym.now) or (new_train.origin_id, new_train.destination_id) != (
            old_train.origin_id, old_train.destination_id):
        return gym.done(f"/orders/{order_id}/change", notice=problem or "Choose a train of the same route.")
    s = service(gym.db, new_train, when.isoformat())
    offer = s.offer(seat_class)
    tickets = [t for t in _tickets(gym, order_id) if t.status == "active"]
    if offer is None or s.leaves <= gym.now or offer.left < len(tickets):
        return gym.done(f"/orders/{order_id}/change", day=when.isoformat(), notice="Not enough seats in that class: choose another train or class.")
    new = Order(number="", train_id=new_train.id, travel_date=when.isoformat(), seat_class=seat_class, status="paid", total=0.0,
                payment_method_id=order.payment_method_id, created_at=gym.now, paid_at=gym.now, changed_from_id=order.id)
    gym.db.add(new)
    gym.db.flush()
    new.number = f"E{gym.now:%y%m%d}{new.id:03d}"
    given: set[tuple[int, str]] = set()
    for i, t in enumerate(tickets):
        person = gym.db.get(Passenger, t.passenger_id)
        coach, place = next_seat(gym.db, offer.fare, new_train, s.day, "none", given)
        given.add((coach, place))
        price = ticket_price(offer.fare.price, person.kind if person else "adult")
        gym.db.add(Ticket(order_id=new.id, passenger_id=t.passenger_id, passenger_name=t.passenger_name, coach=coach, seat=place, price=price))
        new.total = round(new.total + price, 2)
        t.status = "changed"
        gym.db.add(t)
    new.fare_difference = round(new.total - sum(t.price for t in tickets), 2)
    order.status, order.changed_to_id = "changed", new.id
    gym.db.add(order)
    gym.db.add(new)
    gym.advance()
    diff = new.fare_difference
    note = f"paid {diff:,.2f} extra" if diff > 0 else f"{-diff:,.2f} refunded" if diff < 0 else "same fare"
    return gym.done(f"/orders/{new.id}", notice=f"Trip changed to {new_train.number} ({note})")
