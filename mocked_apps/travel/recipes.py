"""TripNest's recipes: how the app shows a world's records, golden steps and verifier predicates other
families call instead of re-typing the app's labels (the search forms, 'Select <cabin> on <flight>',
'See rooms at <hotel>', 'Reserve <room>', 'Booking <ref>'), its row ids or its tables."""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST
from .projection import payment_methods, project

__all__ = ["book_and_pay", "booked_flight_source", "booked_stay_source", "cancel_booking", "change_flight_date", "change_stay",
           "city_label", "method_id", "method_label", "new_bookings_source", "open_app", "open_booking", "reserve", "search_flights",
           "search_stays", "select_fare"]


def method_label(world: World, kind: str = "card") -> str:
    """How the payment step shows the world's card ('card'), checking ('bank') or the company's travel account ('account')."""
    return next(m["label"] for m in payment_methods(world) if m["kind"] == kind)


def method_id(world: World, kind: str = "card") -> int:
    return next(m["id"] for m in payment_methods(world) if m["kind"] == kind)


def city_label(world: World, name: str) -> str:
    """How the flight search lists a city: 'Seattle (SEA)'."""
    return next(f"{c['name']} ({c['code']})" for c in project(world)["city"] if c["name"] == name)


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def search_flights(origin_label: str, destination_label: str, day: str, travellers: int = 1, cabin: str = "Economy") -> str:
    """Search a route's flights on a date (ISO); the labels come from `city_label`."""
    return "\n".join([
        'env.click("Flights", role="link")', f'env.select("From", {origin_label!r})', f'env.select("To", {destination_label!r})',
        f'env.fill("Departure date", {day!r})', f'env.fill("Travellers", {str(travellers)!r})', f'env.select("Cabin", {cabin!r})',
        'env.click(env.word("Search") + " flights", role="button")'])


def select_fare(number: str, cabin: str) -> str:
    """From flight results: pick a cabin's fare on a flight."""
    return f'env.click("Select {cabin} on {number}", role="link")'


def search_stays(city: str, check_in: str, nights: int, guests: int = 1) -> str:
    return "\n".join([
        'env.click("Stays", role="link")', f'env.select("Destination", {city!r})', f'env.fill("Check-in", {check_in!r})',
        f'env.fill("Nights", {str(nights)!r})', f'env.fill("Guests", {str(guests)!r})', 'env.click(env.word("Search") + " stays", role="button")'])


def reserve(hotel: str, room: str) -> str:
    """From stay results: open a hotel and reserve one of its room types."""
    return f'env.click("See rooms at {hotel}", role="link")\nenv.click(env.word("Reserve") + {" " + room!r}, role="link")'


def book_and_pay(method: str, trip: str = "New trip") -> str:
    """On a review page: add to a trip (its name, or 'New trip'), choose the payment method, book."""
    return "\n".join([f'env.select("Add to trip", {trip!r})', f'env.select("Payment method", {method!r})',
                      'env.click("Book and pay", role="button")'])


def open_booking(ref: str, past: bool = False) -> str:
    """Open a booking from the trips list by its confirmation code."""
    steps = ['env.click("Trips", role="link")'] + (['env.click("Past", role="link")'] if past else [])
    return "\n".join([*steps, f'env.click("Booking {ref}", role="link")'])


def change_flight_date(day: str) -> str:
    """On a flight booking: move it to another date (ISO) and confirm."""
    return "\n".join(['env.click("Change flight", role="link")', f'env.fill("New date", {day!r})', 'env.click("Show fares", role="button")',
                      'env.click("Confirm change", role="button")'])


def change_stay(check_in: str, nights: int) -> str:
    """On a hotel booking: new check-in (ISO) and nights, then confirm."""
    return "\n".join(['env.click("Change dates", role="link")', f'env.fill("New check-in", {check_in!r})', f'env.fill("Nights", {str(nights)!r})',
                      'env.click("Show price", role="button")', 'env.click("Confirm change", role="button")'])


def cancel_booking() -> str:
    return 'env.click("Cancel this booking", role="link")\nenv.click("Confirm cancellation", role="button")'


def new_bookings_source(fn: str) -> str:
    """`fn(final)`: the confirmed bookings created during the attempt, each with `flight` (number), `cabin`, `hotel`, `room` (names)."""
    return f'''
def {fn}(final):
    t, before = final.state["travel"], final.initial_state["travel"]
    old = {{b["id"] for b in before["trip_booking"]}}
    fares = {{f["id"]: f for f in t["fare"]}}
    flights = {{f["id"]: f["number"] for f in t["flight"]}}
    rooms = {{r["id"]: r for r in t["room"]}}
    hotels = {{h["id"]: h["name"] for h in t["hotel"]}}
    out = []
    for b in t["trip_booking"]:
        if b["id"] in old or b["status"] != "confirmed":
            continue
        fare, room = fares.get(b["fare_id"]), rooms.get(b["room_id"])
        out.append(dict(b, flight=flights.get(fare["flight_id"]) if fare else None, cabin=fare["cabin"] if fare else None,
                        hotel=hotels.get(room["hotel_id"]) if room else None, room=room["name"] if room else None))
    return out
'''


def booked_flight_source(fn: str, number: str, day: str, cabin: str, travellers: int) -> str:
    """`fn(final)`: the new flight bookings of `number` on `day` in `cabin` for `travellers`. Needs `new_bookings_source("_tn_new")`."""
    return f'''
def {fn}(final):
    return [b for b in _tn_new(final) if b["kind"] == "flight" and b["flight"] == {number!r} and b["travel_date"] == {day!r}
            and b["cabin"] == {cabin!r} and b["travellers"] == {travellers!r}]
'''


def booked_stay_source(fn: str, hotel: str, room: str, check_in: str, nights: int) -> str:
    """`fn(final)`: the new hotel bookings of `room` at `hotel` from `check_in` for `nights`. Needs `new_bookings_source("_tn_new")`."""
    return f'''
def {fn}(final):
    return [b for b in _tn_new(final) if b["kind"] == "hotel" and b["hotel"] == {hotel!r} and b["room"] == {room!r}
            and b["check_in"] == {check_in!r} and b["nights"] == {nights!r}]
'''
