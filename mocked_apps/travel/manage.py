"""Trips and bookings after booking: the itinerary list, one booking, changing a flight's date or a
stay's dates, and cancelling with the fare's or rate's refund rules (see `rules`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from .models import Booking, City, Fare, Flight, Hotel, PaymentMethod, Room, Trip
from .offers import when_text
from .rules import CABINS, CHECK_IN, SALE_DAYS, arrival, departure, duration_text, fare_price, flight_change, flight_refund, hotel_refund, on_sale, stay_total

router = APIRouter()


@dataclass(frozen=True)
class View:
    """A booking with what its pages show: title, when it starts and ends, details, and whether it is still ahead."""

    booking: Booking
    title: str
    starts: datetime
    ends: datetime
    detail: str
    ahead: bool
    flight: Flight | None = None
    fare: Fare | None = None
    room: Room | None = None
    hotel: Hotel | None = None


def view(gym: Gym, b: Booking) -> View:
    if b.kind == "flight":
        fare = gym.get(Fare, b.fare_id)
        f = gym.get(Flight, fare.flight_id)
        a, z = gym.get(City, f.origin_id), gym.get(City, f.destination_id)
        stops = "Nonstop" if not f.stops else f"1 stop ({f.via})"
        starts = departure(b.travel_date, f.depart)
        return View(b, f"{a.name} ({a.code}) → {z.name} ({z.code})", starts, arrival(b.travel_date, f.depart, f.duration_min),
                    f"{f.airline} {f.number} · {fare.cabin} · {stops} · {duration_text(f.duration_min)} · {b.travellers} traveller{'s' if b.travellers > 1 else ''}",
                    gym.now < starts, flight=f, fare=fare)
    room = gym.get(Room, b.room_id)
    hotel = gym.get(Hotel, room.hotel_id)
    start = datetime.combine(date.fromisoformat(b.check_in), CHECK_IN)
    return View(b, f"{hotel.name}, {gym.get(City, hotel.city_id).name}", start, start + timedelta(days=b.nights, hours=-4),
                f"{room.name} · {b.nights} night{'s' if b.nights > 1 else ''} · {b.travellers} guest{'s' if b.travellers > 1 else ''} · "
                f"{'Free cancellation' if room.refundable else 'Non-refundable'}", gym.now < start, room=room, hotel=hotel)


def _bookings(gym: Gym, trip_id: int) -> list[View]:
    rows = gym.db.exec(select(Booking).where(Booking.trip_id == trip_id)).all()
    return sorted((view(gym, b) for b in rows), key=lambda v: (v.starts, v.booking.id))


@router.get("/trips")
def trips(gym: GymDep, tab: str = "upcoming"):
    """Every trip with its bookings; a trip is upcoming while one of its confirmed bookings is still ahead."""
    out = []
    for t in gym.db.exec(select(Trip).order_by(Trip.id)).all():
        views = _bookings(gym, t.id)
        live = [v for v in views if v.booking.status == "confirmed"]
        ahead = any(v.ahead for v in live)
        kind = "upcoming" if ahead else "past" if live else "cancelled"
        if kind == tab:
            out.append((t, views, min((v.starts for v in views), default=t.created_at)))
    out.sort(key=lambda x: (x[2], x[0].id), reverse=tab != "upcoming")
    return gym.render("trips.html", trips=out, tab=tab if tab in ("upcoming", "past", "cancelled") else "upcoming")


@router.get("/trips/{trip_id}")
def trip_page(gym: GymDep, trip_id: int):
    t = gym.get(Trip, trip_id)
    views = _bookings(gym, t.id)
    total = round(sum(v.booking.total for v in views if v.booking.status == "confirmed"), 2)
    return gym.render("trip.html", trip=t, views=views, total=total)


@router.get("/bookings/{booking_id}")
def booking_page(gym: GymDep, booking_id: int):
    v = view(gym, gym.get(Booking, booking_id))
    method = gym.db.get(PaymentMethod, v.booking.payment_method_id) if v.booking.payment_method_id else None
    trip = gym.db.get(Trip, v.booking.trip_id) if v.booking.trip_id else None
    return gym.render("booking.html", v=v, b=v.booking, method=method, trip=trip, terms=CABINS.get(v.fare.cabin) if v.fare else None,
                      refund=_refund(gym, v) if v.booking.status == "confirmed" and v.ahead else None)


def _refund(gym: Gym, v: View) -> float:
    b = v.booking
    if b.kind == "flight":
        return flight_refund(v.fare.cabin, b.total, b.created_at, gym.now)
    return hotel_refund(v.room.refundable, v.room.price, b.check_in, b.total, gym.now)


def _live(gym: Gym, booking_id: int) -> tuple[View, str | None]:
    """The booking's view, and why it cannot be changed or cancelled now (None: it can)."""
    v = view(gym, gym.get(Booking, booking_id))
    if v.booking.status != "confirmed":
        return v, "This booking is cancelled."
    if not v.ahead:
        return v, "This trip has already started; it can no longer be changed or cancelled."
    return v, None


@router.get("/bookings/{booking_id}/cancel")
def cancel_form(gym: GymDep, booking_id: int):
    v, why = _live(gym, booking_id)
    return gym.render("cancel.html", v=v, b=v.booking, why=why, refund=None if why else _refund(gym, v))


@router.post("/bookings/{booking_id}/cancel")
def cancel(gym: GymDep, booking_id: int):
    v, why = _live(gym, booking_id)
    if why:
        return gym.done(f"/bookings/{booking_id}", notice=why)
    b = v.booking
    b.refund_amount, b.status, b.cancelled_at = _refund(gym, v), "cancelled", gym.now
    gym.db.add(b)
    gym.advance()
    return gym.done(f"/bookings/{booking_id}", notice=f"Booking {b.ref} cancelled: {b.refund_amount:,.2f} refunded")


# ---- changes -----------------------------------------------------------------------------------------

def _new_date(gym: Gym, text: str) -> date | None:
    try:
        day = date.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        return None
    return day if on_sale(gym.now, day) else None


def flight_quote(gym: Gym, v: View, day: date) -> dict:
    """What moving a flight booking to `day` costs: new total, fare difference, change fee, due now."""
    new_total = round(fare_price(v.fare.price, v.fare.id, day) * v.booking.travellers, 2)
    diff, fee, due = flight_change(v.fare.cabin, v.booking.total, new_total)
    return {"day": day, "total": new_total, "difference": diff, "fee": fee, "due": due,
            "leaves": departure(day, v.flight.depart), "arrives": arrival(day, v.flight.depart, v.flight.duration_min)}


def stay_quote(gym: Gym, v: View, check_in: date, nights: int) -> dict:
    new_total = stay_total(v.room.price, check_in, nights)
    return {"check_in": check_in, "nights": nights, "total": new_total, "difference": round(new_total - v.booking.total, 2),
            "check_out": check_in + timedelta(days=nights)}


def _change_errors(gym: Gym, v: View, day: str, nights: str) -> tuple[dict[str, str], dict | None]:
    when = _new_date(gym, day)
    last = gym.now.date() + timedelta(days=SALE_DAYS)
    if when is None:
        return {"day": f"Choose a date from today to {last:%B} {last.day}."}, None
    if v.booking.kind == "flight":
        if departure(when, v.flight.depart) <= gym.now:
            return {"day": "That flight has already left on this date; choose a later one."}, None
        if when.isoformat() == v.booking.travel_date:
            return {"day": "This is the date you are booked on already."}, None
        return {}, flight_quote(gym, v, when)
    n = int(nights) if nights and nights.strip().isdigit() else 0
    if not 1 <= n <= 14:
        return {"nights": "Nights: 1 to 14."}, None
    if datetime.combine(when, CHECK_IN) <= gym.now:
        return {"day": "Check-in must be later than now."}, None
    if (when.isoformat(), n) == (v.booking.check_in, v.booking.nights):
        return {"day": "These are the dates you are booked for already."}, None
    return {}, stay_quote(gym, v, when, n)


@router.get("/bookings/{booking_id}/change")
def change_form(gym: GymDep, booking_id: int, day: str = "", nights: str = ""):
    v, why = _live(gym, booking_id)
    errors, quote = _change_errors(gym, v, day, nights) if day and not why else ({}, None)
    values = {"day": day or (v.booking.travel_date or v.booking.check_in), "nights": nights or str(v.booking.nights)}
    return gym.render("change.html", v=v, b=v.booking, why=why, errors=errors, quote=quote, values=values, when_text=when_text,
                      terms=CABINS.get(v.fare.cabin) if v.fare else None, last=gym.now.date() + timedelta(days=SALE_DAYS))


@router.post("/bookings/{booking_id}/change")
def change(gym: GymDep, booking_id: int, day: str = Form(""), nights: str = Form("")):
    v, why = _live(gym, booking_id)
    if why:
        return gym.done(f"/bookings/{booking_id}", notice=why)
    errors, quote = _change_errors(gym, v, day, nights)
    if errors:
        return gym.done(f"/bookings/{booking_id}/change", day=day, nights=nights)
    b = v.booking
    if b.kind == "flight":
        b.travel_date, b.change_fee = quote["day"].isoformat(), round(b.change_fee + quote["fee"], 2)
        what = f"Flight moved to {when_text(quote['day'])}"
    else:
        b.check_in, b.nights = quote["check_in"].isoformat(), quote["nights"]
        what = f"Stay changed to {quote['nights']} night{'s' if quote['nights'] > 1 else ''} from {when_text(quote['check_in'])}"
    b.fare_difference, b.total, b.changes = quote["difference"], quote["total"], b.changes + 1
    gym.db.add(b)
    gym.advance()
    return gym.done(f"/bookings/{booking_id}", notice=what)
