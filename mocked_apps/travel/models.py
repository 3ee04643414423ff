"""TripNest's tables: cities with their airport, the daily flight schedule with base fares per cabin,
hotels with room types, payment methods, trips (itineraries) and bookings.

A fare's or room's price here is a base: the price on a date follows from it by `rules` (flight fares
move with the date, hotel nights cost more on Fridays and Saturdays). Money is a float in the persona's
currency, 2 decimals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class City(AppModel, table=True):
    """A city with its main airport."""

    id: int | None = Field(default=None, primary_key=True, description="City id.")
    name: str = Field(min_length=1, description="City name as shown, e.g. 'Seattle'.")
    code: str = Field(min_length=3, max_length=3, description="Airport code, e.g. 'SEA'.")


class Flight(AppModel, table=True):
    """A daily flight from one city to another, nonstop or with one stop."""

    id: int | None = Field(default=None, primary_key=True, description="Flight id.")
    number: str = Field(min_length=3, description="Flight number as shown, e.g. 'SK214'.")
    airline: str = Field(min_length=1, description="Airline name.")
    origin_id: int = Field(foreign_key="city.id", description="Departure city.")
    destination_id: int = Field(foreign_key="city.id", description="Arrival city.")
    depart: str = Field(description="Daily departure time 'HH:MM' (local).")
    duration_min: int = Field(gt=0, description="Total travel time in minutes, stop included.")
    stops: int = Field(default=0, ge=0, le=1, description="0 nonstop, 1 one stop.")
    via: str = Field(default="", description="Airport code of the stop, '' when nonstop.")


class Fare(AppModel, table=True):
    """The base price of one cabin on a flight (per traveller); the price on a date is `rules.fare_price`."""

    id: int | None = Field(default=None, primary_key=True, description="Fare id.")
    flight_id: int = Field(foreign_key="flight.id", index=True, description="Flight.")
    cabin: str = Field(description="'Economy', 'Premium economy' or 'Business'.")
    price: float = Field(gt=0, description="Base price per traveller.")


class Hotel(AppModel, table=True):
    """A hotel in a city."""

    id: int | None = Field(default=None, primary_key=True, description="Hotel id.")
    name: str = Field(min_length=1, description="Hotel name.")
    city_id: int = Field(foreign_key="city.id", index=True, description="City.")
    stars: int = Field(ge=1, le=5, description="Star class.")
    rating: float = Field(ge=0, le=10, description="Guest rating out of 10.")
    reviews: int = Field(ge=0, description="Number of guest reviews.")
    area: str = Field(default="", description="Neighbourhood, e.g. 'Old Town'.")
    amenities: str = Field(default="", description="Comma-separated amenities, e.g. 'Free Wi-Fi, Pool'.")


class Room(AppModel, table=True):
    """A room type of a hotel at a base nightly rate; the rate of a night is `rules.night_rate`."""

    id: int | None = Field(default=None, primary_key=True, description="Room id.")
    hotel_id: int = Field(foreign_key="hotel.id", index=True, description="Hotel.")
    name: str = Field(min_length=1, description="Room type, e.g. 'Deluxe king room'.")
    sleeps: int = Field(ge=1, description="Most guests.")
    price: float = Field(gt=0, description="Base rate of a Sunday-Thursday night.")
    refundable: bool = Field(default=True, description="True: free cancellation until 48 hours before check-in; False: non-refundable rate.")


class PaymentMethod(AppModel, table=True):
    """A way to pay: a card or bank account of the user's, or the company's travel account."""

    id: int | None = Field(default=None, primary_key=True, description="Payment method id.")
    label: str = Field(min_length=1, description="As shown, e.g. 'Company Card •••• 1009'.")
    kind: Literal["card", "bank", "account"] = Field(sa_type=String, description="'card', 'bank' or 'account' (billed to the company).")


class Trip(AppModel, table=True):
    """An itinerary: the bookings of one journey grouped under a name."""

    id: int | None = Field(default=None, primary_key=True, description="Trip id.")
    name: str = Field(min_length=1, description="Trip name as shown, e.g. 'Trip to Chicago'.")
    created_at: NaiveDatetime = Field(description="When it was created (virtual clock).")


class Booking(AppModel, table=True):
    """A flight booking (a fare on a date for some travellers) or a hotel booking (a room for some nights) (table 'trip_booking')."""

    __tablename__ = "trip_booking"

    id: int | None = Field(default=None, primary_key=True, description="Booking id.")
    ref: str = Field(min_length=1, description="Confirmation code as shown, e.g. 'TNF00012'.")
    kind: Literal["flight", "hotel"] = Field(sa_type=String, description="'flight' or 'hotel'.")
    trip_id: int | None = Field(default=None, foreign_key="trip.id", description="The trip (itinerary) it belongs to.")
    status: Literal["confirmed", "cancelled"] = Field(default="confirmed", sa_type=String, description="'confirmed' or 'cancelled'.")
    fare_id: int | None = Field(default=None, foreign_key="fare.id", description="Flight: the fare (flight and cabin) booked.")
    travel_date: str | None = Field(default=None, description="Flight: date of departure 'YYYY-MM-DD'.")
    travellers: int = Field(default=1, ge=1, le=6, description="Flight: number of travellers; hotel: guests.")
    room_id: int | None = Field(default=None, foreign_key="room.id", description="Hotel: the room type booked.")
    check_in: str | None = Field(default=None, description="Hotel: check-in date 'YYYY-MM-DD'.")
    nights: int = Field(default=0, ge=0, description="Hotel: number of nights (0 for flights).")
    total: float = Field(ge=0, description="Price of the booking as it stands (fare x travellers, or the nights' rates).")
    payment_method_id: int | None = Field(default=None, foreign_key="paymentmethod.id", description="How it was paid.")
    created_at: NaiveDatetime = Field(description="When it was booked (virtual clock).")
    changes: int = Field(default=0, ge=0, description="How many times it was changed.")
    fare_difference: float = Field(default=0.0, description="Last change: new total - old total.")
    change_fee: float = Field(default=0.0, ge=0, description="Change fees paid in all.")
    refund_amount: float = Field(default=0.0, ge=0, description="Money returned when cancelled.")
    cancelled_at: NaiveDatetime | None = Field(default=None, description="When it was cancelled.")
