"""The ride app's tables: places (saved under a label, recently used, or just known), vehicle classes with their
rates, payment methods, and rides with their route, fare breakdown, driver, rating and tip. Money is a float,
2 decimals; distances are km on the city's grid.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""

Status = Literal["scheduled", "arriving", "on_trip", "completed", "cancelled"]


class Place(AppModel, table=True):
    """A place a ride can start or end at."""

    id: int | None = Field(default=None, primary_key=True, description="Place id.")
    name: str = Field(min_length=1, description="Name as shown, e.g. 'Office', 'Union Station', a client's name.")
    address: str = Field(description="Street address, one line.")
    x_km: float = Field(description="East-west position on the city grid, km from the office.")
    y_km: float = Field(description="North-south position on the city grid, km from the office.")
    saved_as: str = Field(default="", description="Label it is saved under ('Home', 'Office', 'Gym' ...); '' when not saved.")
    last_used: NaiveDatetime | None = Field(default=None, description="When a ride to or from it was last booked; recent places.")


class VehicleClass(AppModel, table=True):
    """A kind of ride with its rates: fare = max(min_fare, base + per_km * km + per_min * minutes)."""

    __tablename__ = "vehicleclass"

    id: int | None = Field(default=None, primary_key=True, description="Class id.")
    name: str = Field(min_length=1, description="'Express', 'Comfort', 'Premier', 'XL', 'Taxi'.")
    seats: int = Field(ge=1, description="Riders it takes.")
    base: float = Field(ge=0, description="Flag fall.")
    per_km: float = Field(ge=0, description="Rate per km.")
    per_min: float = Field(ge=0, description="Rate per minute of the trip.")
    min_fare: float = Field(ge=0, description="Smallest fare.")
    pickup_min: int = Field(ge=1, description="Minutes until a driver arrives when booked now.")
    blurb: str = Field(default="", description="One line shown under the name.")


class PaymentMethod(AppModel, table=True):
    """A way to pay: a card or bank account of the user's."""

    __tablename__ = "paymentmethod"

    id: int | None = Field(default=None, primary_key=True, description="Payment method id.")
    label: str = Field(min_length=1, description="As shown, e.g. 'Business Platinum Card •••• 1009'.")


class Ride(AppModel, table=True):
    """A booked ride: scheduled, driver on the way ('arriving'), on trip, completed or cancelled."""

    id: int | None = Field(default=None, primary_key=True, description="Ride id.")
    number: str = Field(description="Ride number as shown on the receipt.")
    pickup_id: int = Field(foreign_key="place.id", description="Where it starts.")
    dropoff_id: int = Field(foreign_key="place.id", description="Where it ends.")
    class_id: int = Field(foreign_key="vehicleclass.id", description="Vehicle class.")
    payment_method_id: int = Field(description="How it is paid.")
    status: Status = Field(default="arriving", sa_type=String,
                           description="'scheduled' (for later), 'arriving' (driver on the way), 'on_trip', 'completed' or 'cancelled'.")
    requested_at: NaiveDatetime = Field(description="When it was booked (virtual clock).")
    pickup_at: NaiveDatetime = Field(description="Pickup time: the driver's arrival, or the scheduled time.")
    dropoff_at: NaiveDatetime = Field(description="Arrival at the destination (expected until completed).")
    km: float = Field(ge=0, description="Route distance in km.")
    minutes: int = Field(ge=0, description="Trip duration in minutes.")
    base_fare: float = Field(ge=0, description="Flag fall charged.")
    distance_fare: float = Field(ge=0, description="Distance part of the fare.")
    time_fare: float = Field(ge=0, description="Time part of the fare.")
    adjustment: float = Field(default=0.0, description="Tolls and surcharges (positive) or a promotion (negative).")
    fare: float = Field(ge=0, description="Trip fare: the parts above, at least the class's minimum fare.")
    tip: float = Field(default=0.0, ge=0, description="Tip for the driver, added after the trip.")
    total: float = Field(ge=0, description="fare + tip: what the payment method is charged.")
    rating: int | None = Field(default=None, ge=1, le=5, description="Stars the rider gave the driver; null: not rated.")
    comment: str = Field(default="", description="The rider's comment with the rating.")
    driver_name: str = Field(default="", description="Driver's name ('' until one is assigned).")
    car: str = Field(default="", description="Car colour and model.")
    plate: str = Field(default="", description="Licence plate.")
