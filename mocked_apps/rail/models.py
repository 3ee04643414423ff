"""The rail app's tables: stations, the timetable (trains and their fares), saved passengers, payment
methods, and orders with one ticket per passenger.

Seat availability is not stored: it is a train's capacity per class, less the seats sold on other
channels (a fixed function of the fare and the date, `rules.sold_elsewhere`), less the tickets of this
instance's live orders, so it changes as tickets sell and comes back as they are refunded.
Money is a float in the persona's currency, 2 decimals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""

SEAT_CLASSES = ("Business class", "First class", "Second class")
"""Seat classes, dearest first; a train sells a subset."""


class Station(AppModel, table=True):
    """A station (one per city)."""

    id: int | None = Field(default=None, primary_key=True, description="Station id.")
    name: str = Field(min_length=1, description="Station name as shown, e.g. 'Portland'.")
    code: str = Field(description="Three-letter station code, e.g. 'POR'.")


class Train(AppModel, table=True):
    """A train: a daily service from one station to another (table 'service')."""

    __tablename__ = "service"

    id: int | None = Field(default=None, primary_key=True, description="Train id.")
    number: str = Field(min_length=2, description="Train number, e.g. 'G104' (G high-speed, D intercity, K regional).")
    kind: Literal["G", "D", "K"] = Field(sa_type=String, description="'G' high-speed, 'D' intercity, 'K' regional.")
    origin_id: int = Field(foreign_key="station.id", description="Departure station.")
    destination_id: int = Field(foreign_key="station.id", description="Arrival station.")
    depart: str = Field(description="Daily departure time 'HH:MM'.")
    duration_min: int = Field(gt=0, description="Journey time in minutes.")


class Fare(AppModel, table=True):
    """The price and capacity of one seat class on a train."""

    id: int | None = Field(default=None, primary_key=True, description="Fare id.")
    train_id: int = Field(foreign_key="service.id", index=True, description="Train.")
    seat_class: str = Field(description="'Business class', 'First class' or 'Second class'.")
    price: float = Field(gt=0, description="Adult fare of one seat; children pay half.")
    seats: int = Field(gt=0, description="Seats of this class on one day's train.")


class Passenger(AppModel, table=True):
    """A saved traveller the user can book for."""

    id: int | None = Field(default=None, primary_key=True, description="Passenger id.")
    name: str = Field(min_length=1, description="Full name as on the ID document.")
    id_number: str = Field(min_length=1, description="ID document number, e.g. 'P48213377'.")
    kind: Literal["adult", "child", "senior"] = Field(default="adult", sa_type=String, description="'adult', 'child' (half fare) or 'senior'.")
    phone: str = Field(default="", description="Contact phone, optional.")
    is_self: bool = Field(default=False, description="True for the signed-in user's own entry.")


class PaymentMethod(AppModel, table=True):
    """A way to pay: a card or bank account of the user's."""

    id: int | None = Field(default=None, primary_key=True, description="Payment method id.")
    label: str = Field(min_length=1, description="As shown, e.g. 'Company Card •••• 1009'.")
    kind: Literal["card", "bank"] = Field(sa_type=String, description="'card' or 'bank'.")


class Order(AppModel, table=True):
    """A booking of one train on one date in one seat class, for one or more passengers."""

    __tablename__ = "orders"

    id: int | None = Field(default=None, primary_key=True, description="Order id.")
    number: str = Field(description="Order number as shown, e.g. 'E260302001'.")
    train_id: int = Field(foreign_key="service.id", description="Train booked.")
    travel_date: str = Field(description="Date of travel 'YYYY-MM-DD'.")
    seat_class: str = Field(description="Seat class of every ticket of the order.")
    status: Literal["unpaid", "paid", "cancelled", "refunded", "changed"] = Field(
        default="unpaid", sa_type=String,
        description="'unpaid' (seats held), 'paid', 'cancelled' (unpaid and given up), 'refunded' (every ticket refunded), "
                    "'changed' (replaced by the order in changed_to_id)")
    total: float = Field(ge=0, description="Sum of the tickets' prices.")
    payment_method_id: int | None = Field(default=None, foreign_key="paymentmethod.id", description="How it was paid; null while unpaid.")
    created_at: NaiveDatetime = Field(description="When it was submitted (virtual clock).")
    paid_at: NaiveDatetime | None = Field(default=None, description="When it was paid.")
    changed_from_id: int | None = Field(default=None, description="The order this one replaced by a change of trip.")
    changed_to_id: int | None = Field(default=None, description="The order that replaced this one (status 'changed').")
    fare_difference: float = Field(default=0.0, description="For a changed trip: new total - old total (positive = paid extra, negative = refunded).")


class Ticket(AppModel, table=True):
    """One passenger's seat on an order."""

    id: int | None = Field(default=None, primary_key=True, description="Ticket id.")
    order_id: int = Field(foreign_key="orders.id", index=True, description="Order.")
    passenger_id: int = Field(description="Passenger booked (not a foreign key: tickets outlive a deleted passenger).")
    passenger_name: str = Field(description="Passenger's name at booking.")
    coach: int = Field(ge=1, description="Coach number.")
    seat: str = Field(description="Seat, e.g. '12A' (A and F are windows).")
    price: float = Field(ge=0, description="Price paid for this ticket.")
    status: Literal["active", "refunded", "changed", "cancelled"] = Field(
        default="active", sa_type=String, description="'active', 'refunded', 'changed' (moved to a new order) or 'cancelled'.")
    refund_amount: float = Field(default=0.0, ge=0, description="Money returned when refunded (price less the refund fee).")
    refunded_at: NaiveDatetime | None = Field(default=None, description="When it was refunded.")
