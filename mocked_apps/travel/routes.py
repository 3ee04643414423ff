"""Pages and form posts of TripNest: flight search and booking, stay search and booking.

Trips and what happens to a booking after it is made (change, cancel) live in `manage.py`. A search with
bad values goes back to its form with the reasons (`check=1`: the form runs the same validation again);
a booking form error re-renders the review page with the reason and writes nothing.
"""

from __future__ import annotations

from datetime import date, timedelta

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from . import manage
from .models import Booking, City, Fare, Flight, Hotel, PaymentMethod, Room, Trip
from .offers import flight_offers, stay_offers, when_text
from .rules import CABINS, SALE_DAYS, departure, duration_text, on_sale, stay_total

router = APIRouter()
router.include_router(manage.router)

SORTS = {"recommended": "Recommended", "price": "Lowest price", "depart": "Earliest departure", "duration": "Shortest duration"}
STAY_SORTS = {"recommended": "Recommended", "price": "Lowest price", "rating": "Guest rating", "stars": "Stars"}
NEW_TRIP = "new"


def rows(gym: Gym, model) -> list[dict]:
    """Every row of a table as dicts, by id (the shape `offers` reads)."""
    return [r.model_dump() for r in gym.db.exec(select(model).order_by(model.id)).all()]


def _int(text: str | None) -> int | None:
    return int(text) if text and str(text).strip().isdigit() else None


def _date(gym: Gym, text: str) -> date | None:
    try:
        day = date.fromisoformat(text.strip()) if text and text.strip() else None
    except ValueError:
        return None
    return day if day and on_sale(gym.now, day) else None


def _date_error(gym: Gym) -> str:
    last = gym.now.date() + timedelta(days=SALE_DAYS)
    return f"Choose a date from today to {last:%B} {last.day}."


def _cities(gym: Gym) -> list[City]:
    return list(gym.db.exec(select(City).order_by(City.id)).all())


def upcoming(gym: Gym) -> list[tuple[Trip, date]]:
    """Trips with a confirmed booking still ahead, soonest first, with that booking's date."""
    soonest: dict[int, date] = {}
    for b in gym.db.exec(select(Booking).where(Booking.status == "confirmed")).all():
        day = date.fromisoformat(b.travel_date or b.check_in)
        if b.trip_id and day >= gym.now.date():
            soonest[b.trip_id] = min(day, soonest.get(b.trip_id, day))
    return sorted(((gym.get(Trip, t), d) for t, d in soonest.items()), key=lambda x: (x[1], x[0].id))


# ---- flights ---------------------------------------------------------------------------------------

def _search_errors(gym: Gym, origin: str, destination: str, day: str, travellers: str) -> dict[str, str]:
    errors = {}
    a, b = _int(origin), _int(destination)
    if a is None or gym.db.get(City, a) is None:
        errors["origin"] = "Choose where you fly from."
    if b is None or gym.db.get(City, b) is None:
        errors["destination"] = "Choose where you fly to."
    elif a == b:
        errors["destination"] = "Choose a destination other than the departure city."
    if _date(gym, day) is None:
        errors["day"] = _date_error(gym)
    if _int(travellers) is None or not 1 <= int(travellers) <= 6:
        errors["travellers"] = "Travellers: 1 to 6."
    return errors


@router.get("/")
def home(gym: GymDep, origin: str = "", destination: str = "", day: str = "", travellers: str = "1", cabin: str = "Economy", check: str = ""):
    places = _cities(gym)
    values = {"origin": origin or str(places[0].id), "destination": destination or str(places[1].id),
              "day": day or (gym.now.date() + timedelta(days=7)).isoformat(), "travellers": travellers, "cabin": cabin}
    errors = _search_errors(gym, origin, destination, day, travellers) if check else {}
    return gym.render("home.html", cities=places, values=values, errors=errors, cabins=list(CABINS), trips=upcoming(gym)[:3],
                      last=gym.now.date() + timedelta(days=SALE_DAYS))


@router.get("/flights")
def flight_results(gym: GymDep, origin: str = "1", destination: str = "2", day: str = "", travellers: str = "1", cabin: str = "Economy",
                   sort: str = "recommended", nonstop: str = ""):
    """A route's flights on a date; an invalid search goes back to the form."""
    day = day or (gym.now.date() + timedelta(days=7)).isoformat()
    if _search_errors(gym, origin, destination, day, travellers):
        return gym.done("/", check=1, origin=origin, destination=destination, day=day, travellers=travellers, cabin=cabin)
    cabin = cabin if cabin in CABINS else "Economy"
    a, b, when = int(origin), int(destination), _date(gym, day)
    found = [o for o in flight_offers(rows(gym, Flight), rows(gym, Fare), a, b, when.isoformat()) if o.leaves > gym.now]
    if nonstop:
        found = [o for o in found if o.flight["stops"] == 0]
    key = {"price": lambda o: (o.fares.get(cabin, (0, 1e9))[1], o.flight["depart"]), "depart": lambda o: o.flight["depart"],
           "duration": lambda o: (o.flight["duration_min"], o.flight["depart"]),
           "recommended": lambda o: (o.flight["stops"], o.cheapest + o.flight["duration_min"] / 3)}.get(sort, lambda o: o.flight["depart"])
    found.sort(key=key)
    today, last = gym.now.date(), gym.now.date() + timedelta(days=SALE_DAYS)
    strip = [when + timedelta(days=i) for i in range(-2, 3) if today <= when + timedelta(days=i) <= last]
    return gym.render("flights.html", offers=found, origin=gym.get(City, a), destination=gym.get(City, b), day=when, strip=strip,
                      travellers=int(travellers), cabin=cabin, cabins=list(CABINS), sort=sort if sort in SORTS else "recommended",
                      sorts=SORTS, nonstop=nonstop, duration_text=duration_text, codes={c.id: c.code for c in _cities(gym)})


def _flight_offer(gym: Gym, fare: str, day: str):
    """(offer, fare row) of a fare id on a date, or (None, None)."""
    f = gym.db.get(Fare, _int(fare)) if _int(fare) else None
    when = _date(gym, day)
    if f is None or when is None:
        return None, None
    flight = gym.get(Flight, f.flight_id)
    offer = flight_offers([flight.model_dump()], [f.model_dump()], flight.origin_id, flight.destination_id, when.isoformat())[0]
    return offer, f


def _trips(gym: Gym) -> list[Trip]:
    return [t for t, _ in upcoming(gym)]


def _review(gym: Gym, template: str, errors: dict, **values):
    methods = list(gym.db.exec(select(PaymentMethod).order_by(PaymentMethod.id)).all())
    response = gym.render(template, methods=methods, trips=_trips(gym), errors=errors, values=values, duration_text=duration_text,
                          terms=CABINS, when_text=when_text, **values)
    if errors:
        response.status_code = 422
    return response


def _pay_errors(gym: Gym, method: str, trip: str) -> dict[str, str]:
    errors = {}
    if _int(method) is None or gym.db.get(PaymentMethod, int(method)) is None:
        errors["method"] = "Choose how to pay."
    if trip != NEW_TRIP and (_int(trip) is None or gym.db.get(Trip, int(trip)) is None):
        errors["trip"] = "Choose a trip or a new one."
    return errors


@router.get("/flights/review")
def flight_review(gym: GymDep, fare: str = "", day: str = "", travellers: str = "1"):
    offer, f = _flight_offer(gym, fare, day)
    count = _int(travellers) or 1
    errors = {} if offer and offer.leaves > gym.now and 1 <= count <= 6 else {"fare": "This flight is not on sale for that date; search again."}
    return _review(gym, "flight_review.html", errors, offer=offer, fare=f, travellers=count, day=day, cities={c.id: c for c in _cities(gym)},
                   method="", trip=NEW_TRIP)


def _trip_for(gym: Gym, trip: str, city: City) -> int:
    """The chosen trip's id, or a new trip named after the city ('Trip to Seattle (2)' beside an older one: trips are chosen by name)."""
    if trip != NEW_TRIP:
        return int(trip)
    taken = set(gym.db.exec(select(Trip.name)).all())
    name = next(n for n in (f"Trip to {city.name}" + (f" ({k})" if k > 1 else "") for k in range(1, len(taken) + 2)) if n not in taken)
    row = Trip(name=name, created_at=gym.now)
    gym.db.add(row)
    gym.db.flush()
    return row.id


def _confirm(gym: Gym, booking: Booking) -> object:
    gym.db.add(booking)
    gym.db.flush()
    booking.ref = f"TN{'F' if booking.kind == 'flight' else 'H'}{booking.id:05d}"
    gym.db.add(booking)
    gym.advance()
    return gym.done(f"/bookings/{booking.id}", notice=f"Booked: confirmation {booking.ref}")


@router.post("/flights/book")
def flight_book(gym: GymDep, fare: str = Form(""), day: str = Form(""), travellers: str = Form("1"), method: str = Form(""),
                trip: str = Form(NEW_TRIP)):
    offer, f = _flight_offer(gym, fare, day)
    count = _int(travellers) or 0
    if offer is None or offer.leaves <= gym.now or not 1 <= count <= 6:
        return gym.done("/", notice="That flight is no longer on sale; search again.")
    errors = _pay_errors(gym, method, trip)
    if errors:
        return _review(gym, "flight_review.html", errors, offer=offer, fare=f, travellers=count, day=day,
                       cities={c.id: c for c in _cities(gym)}, method=method, trip=trip)
    trip_id = _trip_for(gym, trip, gym.get(City, offer.flight["destination_id"]))
    price = offer.fares[f.cabin][1]
    return _confirm(gym, Booking(ref="", kind="flight", trip_id=trip_id, fare_id=f.id, travel_date=offer.day, travellers=count,
                                 total=round(price * count, 2), payment_method_id=int(method), created_at=gym.now))


# ---- stays -----------------------------------------------------------------------------------------

def _stay_errors(gym: Gym, city: str, check_in: str, nights: str, guests: str) -> dict[str, str]:
    errors = {}
    c = _int(city)
    if c is None or gym.db.get(City, c) is None or c == 1:
        errors["city"] = "Choose a destination."
    if _date(gym, check_in) is None:
        errors["check_in"] = _date_error(gym)
    if _int(nights) is None or not 1 <= int(nights) <= 14:
        errors["nights"] = "Nights: 1 to 14."
    if _int(guests) is None or not 1 <= int(guests) <= 4:
        errors["guests"] = "Guests: 1 to 4."
    return errors


@router.get("/stays")
def stays(gym: GymDep, city: str = "", check_in: str = "", nights: str = "1", guests: str = "1", check: str = ""):
    places = _cities(gym)
    values = {"city": city or str(places[1].id), "check_in": check_in or (gym.now.date() + timedelta(days=7)).isoformat(),
              "nights": nights, "guests": guests}
    errors = _stay_errors(gym, city, check_in, nights, guests) if check else {}
    return gym.render("stays.html", cities=places[1:], values=values, errors=errors, trips=upcoming(gym)[:3],
                      last=gym.now.date() + timedelta(days=SALE_DAYS))


@router.get("/stays/results")
def stay_results(gym: GymDep, city: str = "2", check_in: str = "", nights: str = "1", guests: str = "1", sort: str = "recommended",
                 stars: str = "", refundable: str = ""):
    check_in = check_in or (gym.now.date() + timedelta(days=7)).isoformat()
    if _stay_errors(gym, city, check_in, nights, guests):
        return gym.done("/stays", check=1, city=city, check_in=check_in, nights=nights, guests=guests)
    found = stay_offers(rows(gym, Hotel), rows(gym, Room), int(city), check_in, int(nights), int(guests))
    if _int(stars):
        found = [o for o in found if o.hotel["stars"] >= int(stars)]
    if refundable:
        found = [o for o in found if any(r["refundable"] for r, _ in o.rooms)]
    key = {"price": lambda o: o.cheapest, "rating": lambda o: -o.hotel["rating"], "stars": lambda o: (-o.hotel["stars"], o.cheapest),
           "recommended": lambda o: -(o.hotel["rating"] * 20 - o.cheapest / int(nights) / 10)}.get(sort, lambda o: o.hotel["id"])
    found.sort(key=key)
    return gym.render("stay_results.html", offers=found, city=gym.get(City, int(city)), check_in=date.fromisoformat(check_in),
                      nights=int(nights), guests=int(guests), sort=sort if sort in STAY_SORTS else "recommended", sorts=STAY_SORTS,
                      stars=stars, refundable=refundable, check_out=date.fromisoformat(check_in) + timedelta(days=int(nights)))


@router.get("/stays/{hotel_id}")
def hotel_page(gym: GymDep, hotel_id: int, check_in: str = "", nights: str = "1", guests: str = "1"):
    hotel = gym.get(Hotel, hotel_id)
    check_in = check_in if _date(gym, check_in) else (gym.now.date() + timedelta(days=7)).isoformat()
    n = _int(nights) if _int(nights) and 1 <= int(nights) <= 14 else 1
    g = _int(guests) if _int(guests) and 1 <= int(guests) <= 4 else 1
    offer = stay_offers([hotel.model_dump()], rows(gym, Room), hotel.city_id, check_in, n, 1)[0]
    return gym.render("hotel.html", hotel=hotel, offer=offer, city=gym.get(City, hotel.city_id), check_in=date.fromisoformat(check_in),
                      nights=n, guests=g, check_out=date.fromisoformat(check_in) + timedelta(days=n))


def _stay(gym: Gym, room: str, check_in: str, nights: str, guests: str):
    """(room, hotel, check-in date, nights, guests) of a valid stay request, or None."""
    r = gym.db.get(Room, _int(room)) if _int(room) else None
    day, n, g = _date(gym, check_in), _int(nights), _int(guests)
    if r is None or day is None or not n or not 1 <= n <= 14 or not g or not 1 <= g <= r.sleeps:
        return None
    if departure(day, "15:00") <= gym.now:
        return None
    return r, gym.get(Hotel, r.hotel_id), day, n, g


@router.get("/stays/review/room")
def stay_review(gym: GymDep, room: str = "", check_in: str = "", nights: str = "1", guests: str = "1"):
    stay = _stay(gym, room, check_in, nights, guests)
    errors = {} if stay else {"room": "This room is not available for those dates and guests; search again."}
    return _review(gym, "stay_review.html", errors, stay=stay, total=stay_total(stay[0].price, stay[2], stay[3]) if stay else 0.0,
                   city=gym.get(City, stay[1].city_id) if stay else None, method="", trip=NEW_TRIP)


@router.post("/stays/book")
def stay_book(gym: GymDep, room: str = Form(""), check_in: str = Form(""), nights: str = Form("1"), guests: str = Form("1"),
              method: str = Form(""), trip: str = Form(NEW_TRIP)):
    stay = _stay(gym, room, check_in, nights, guests)
    if stay is None:
        return gym.done("/stays", notice="That room is no longer available; search again.")
    r, hotel, day, n, g = stay
    total = stay_total(r.price, day, n)
    errors = _pay_errors(gym, method, trip)
    if errors:
        return _review(gym, "stay_review.html", errors, stay=stay, total=total, city=gym.get(City, hotel.city_id), method=method, trip=trip)
    trip_id = _trip_for(gym, trip, gym.get(City, hotel.city_id))
    return _confirm(gym, Booking(ref="", kind="hotel", trip_id=trip_id, room_id=r.id, check_in=day.isoformat(), nights=n, travellers=g,
                                 total=total, payment_method_id=int(method), created_at=gym.now))


__all__ = ["router"]
