"""The food app's tables: restaurants and their menus (items with option groups), the cart (one restaurant
at a time, kept in the instance so the browser holds nothing), coupons, delivery addresses, payment
methods, and orders with their lines. Money is a float, 2 decimals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Restaurant(AppModel, table=True):
    """A restaurant that delivers."""

    id: int | None = Field(default=None, primary_key=True, description="Restaurant id.")
    name: str = Field(min_length=1, description="Name as shown, e.g. 'Golden Wok'.")
    cuisine: str = Field(description="Cuisine, e.g. 'Chinese', 'Pizza', 'Vegetarian'.")
    rating: float = Field(ge=0, le=5, description="Average rating out of 5, one decimal.")
    distance_km: float = Field(ge=0, description="Distance from the default address in km.")
    delivery_min: int = Field(gt=0, description="Typical minutes from order to door.")
    min_order: float = Field(ge=0, description="Smallest subtotal the restaurant delivers.")
    delivery_fee: float = Field(ge=0, description="Delivery fee added to every order.")
    free_delivery_over: float = Field(default=0.0, ge=0, description="Subtotal from which delivery is free (0: never).")


class MenuItem(AppModel, table=True):
    """A dish or drink on a restaurant's menu."""

    __tablename__ = "menuitem"

    id: int | None = Field(default=None, primary_key=True, description="Menu item id.")
    restaurant_id: int = Field(foreign_key="restaurant.id", index=True, description="Restaurant.")
    section: str = Field(description="Menu section, e.g. 'Mains', 'Drinks'.")
    name: str = Field(min_length=1, description="Item name.")
    price: float = Field(gt=0, description="Base price.")
    description: str = Field(default="", description="What it is.")
    vegetarian: bool = Field(default=False, description="True for a vegetarian dish.")


class Choice(AppModel, table=True):
    """One option of an item: in a 'pick one' group (size, spice) or an add-on ('pick any')."""

    id: int | None = Field(default=None, primary_key=True, description="Option id.")
    item_id: int = Field(foreign_key="menuitem.id", index=True, description="Menu item.")
    group: str = Field(description="Option group, e.g. 'Size', 'Spice level', 'Add-ons'.")
    name: str = Field(description="Option name, e.g. 'Large', 'Extra cheese'.")
    price: float = Field(default=0.0, ge=0, description="Added to the item's price.")
    multi: bool = Field(default=False, description="True for add-ons (any number); False: exactly one of the group.")


class Coupon(AppModel, table=True):
    """A coupon in the user's wallet."""

    id: int | None = Field(default=None, primary_key=True, description="Coupon id.")
    title: str = Field(description="As shown, e.g. '$5 off orders over $30'.")
    discount: float = Field(gt=0, description="Amount off the subtotal.")
    min_spend: float = Field(default=0.0, ge=0, description="Smallest subtotal it applies to.")
    restaurant_id: int | None = Field(default=None, description="Only at this restaurant; null: anywhere.")
    expires: str = Field(description="Last day it can be used 'YYYY-MM-DD'.")
    used: bool = Field(default=False, description="True once spent on an order.")


class Address(AppModel, table=True):
    """A delivery address."""

    id: int | None = Field(default=None, primary_key=True, description="Address id.")
    label: str = Field(description="'Office', 'Home' ...")
    line: str = Field(description="Street address, one line.")


class PaymentMethod(AppModel, table=True):
    """A way to pay: a card or bank account of the user's."""

    id: int | None = Field(default=None, primary_key=True, description="Payment method id.")
    label: str = Field(min_length=1, description="As shown, e.g. 'Company Card •••• 1009'.")


class CartLine(AppModel, table=True):
    """An item in the cart, with its chosen options."""

    id: int | None = Field(default=None, primary_key=True, description="Cart line id.")
    restaurant_id: int = Field(description="Restaurant of the cart (every line has the same).")
    item_id: int = Field(description="Menu item.")
    choices: str = Field(default="", description="Chosen option ids, comma-separated in id order, e.g. '3,7'.")
    quantity: int = Field(ge=1, description="How many.")


class FoodOrder(AppModel, table=True):
    """A placed order."""

    __tablename__ = "foodorder"

    id: int | None = Field(default=None, primary_key=True, description="Order id.")
    number: str = Field(description="Order number as shown.")
    restaurant_id: int = Field(foreign_key="restaurant.id", description="Restaurant.")
    address_id: int = Field(description="Delivery address.")
    payment_method_id: int = Field(description="How it was paid.")
    coupon_id: int | None = Field(default=None, description="Coupon spent on it.")
    subtotal: float = Field(ge=0, description="Sum of the lines.")
    delivery_fee: float = Field(ge=0, description="Delivery fee charged.")
    discount: float = Field(default=0.0, ge=0, description="Coupon discount.")
    total: float = Field(ge=0, description="subtotal + delivery_fee - discount.")
    note: str = Field(default="", description="Note for the restaurant or rider.")
    status: Literal["placed", "delivered", "cancelled"] = Field(default="placed", sa_type=String,
                                                                description="'placed' (on its way; see tracking), 'delivered' or 'cancelled'.")
    placed_at: NaiveDatetime = Field(description="When it was placed (virtual clock).")
    eta: NaiveDatetime = Field(description="Expected delivery time.")


class OrderLine(AppModel, table=True):
    """One line of a placed order (names and prices as they were)."""

    __tablename__ = "orderline"

    id: int | None = Field(default=None, primary_key=True, description="Line id.")
    order_id: int = Field(foreign_key="foodorder.id", index=True, description="Order.")
    item_id: int = Field(description="Menu item.")
    name: str = Field(description="Item name.")
    options: str = Field(default="", description="Chosen options as shown, e.g. 'Large, Extra cheese'.")
    quantity: int = Field(ge=1, description="How many.")
    unit_price: float = Field(ge=0, description="Price of one, options included.")
