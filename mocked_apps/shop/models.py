"""The shop's tables: the catalogue (products in categories, each sold in size/colour variants with their
own stock), the cart (kept in the instance so the browser holds nothing), the address book, payment
methods, orders with their lines, and return requests with their refund state. Money is a float, 2 decimals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""

RETURN_REASONS = ("Doesn't fit", "Changed my mind", "Damaged or defective", "Not as described", "Arrived too late")
"""The reasons a return may give, as the return form lists them."""


class Category(AppModel, table=True):
    """A department of the catalogue."""

    id: int | None = Field(default=None, primary_key=True, description="Category id.")
    name: str = Field(min_length=1, description="As shown, e.g. 'Clothing', 'Office'.")


class Product(AppModel, table=True):
    """A product page: one price for every variant."""

    id: int | None = Field(default=None, primary_key=True, description="Product id.")
    category_id: int = Field(foreign_key="category.id", index=True, description="Category.")
    name: str = Field(min_length=1, description="Product name, e.g. 'Merino crew T-shirt'.")
    brand: str = Field(description="Brand as shown.")
    price: float = Field(gt=0, description="Price of one, any variant.")
    rating: float = Field(ge=0, le=5, description="Average rating out of 5, one decimal.")
    reviews: int = Field(ge=0, description="Number of ratings.")
    description: str = Field(default="", description="What it is.")


class Variant(AppModel, table=True):
    """One buyable variant of a product: a colour and a size ('One size' when it has none) and its stock."""

    id: int | None = Field(default=None, primary_key=True, description="Variant id.")
    product_id: int = Field(foreign_key="product.id", index=True, description="Product.")
    colour: str = Field(description="Colour name, e.g. 'Navy'.")
    size: str = Field(description="Size label, e.g. 'M', '42', or 'One size'.")
    sku: str = Field(description="Stock keeping unit as shown.")
    stock: int = Field(ge=0, description="Units in stock; 0: sold out (cannot be added to the cart).")


class Address(AppModel, table=True):
    """An entry of the address book."""

    id: int | None = Field(default=None, primary_key=True, description="Address id.")
    name: str = Field(min_length=1, description="Recipient's full name.")
    line: str = Field(min_length=1, description="Street and number.")
    city: str = Field(min_length=1, description="City.")
    postcode: str = Field(min_length=1, description="Postal code.")
    phone: str = Field(default="", description="Phone for the courier.")
    label: str = Field(default="", description="'Office', 'Home' or empty.")
    is_default: bool = Field(default=False, description="The address checkout proposes first (exactly one is).")


class PaymentMethod(AppModel, table=True):
    """A card or bank account of the user's."""

    id: int | None = Field(default=None, primary_key=True, description="Payment method id.")
    label: str = Field(min_length=1, description="As shown, e.g. 'Business Platinum Card •••• 1009'.")


class CartLine(AppModel, table=True):
    """A variant in the cart."""

    id: int | None = Field(default=None, primary_key=True, description="Cart line id.")
    variant_id: int = Field(foreign_key="variant.id", description="Variant.")
    quantity: int = Field(ge=1, description="How many.")


class ShopOrder(AppModel, table=True):
    """A placed order."""

    __tablename__ = "shoporder"

    id: int | None = Field(default=None, primary_key=True, description="Order id.")
    number: str = Field(description="Order number as shown, e.g. '112-260302-0007'.")
    address_id: int = Field(description="Shipping address (address book id).")
    ship_to: str = Field(description="The address as it was when ordered, one line (name, street, city, postcode).")
    payment_method_id: int = Field(description="How it was paid.")
    shipping: Literal["standard", "express"] = Field(default="standard", sa_type=String, description="Shipping speed.")
    subtotal: float = Field(ge=0, description="Sum of the lines.")
    shipping_fee: float = Field(ge=0, description="Shipping charged.")
    total: float = Field(ge=0, description="subtotal + shipping_fee.")
    status: Literal["placed", "shipped", "delivered", "cancelled"] = Field(default="placed", sa_type=String,
                                                                          description="'placed' (can still be cancelled), 'shipped', 'delivered' or 'cancelled'.")
    placed_at: NaiveDatetime = Field(description="When it was placed (virtual clock).")
    arrives: str = Field(description="Delivery day 'YYYY-MM-DD' (expected, or when it was delivered).")


class OrderLine(AppModel, table=True):
    """One line of a placed order (names and price as they were)."""

    __tablename__ = "orderline"

    id: int | None = Field(default=None, primary_key=True, description="Line id.")
    order_id: int = Field(foreign_key="shoporder.id", index=True, description="Order.")
    variant_id: int = Field(description="Variant bought.")
    product_id: int = Field(description="Its product.")
    name: str = Field(description="Product name.")
    colour: str = Field(description="Colour bought.")
    size: str = Field(description="Size bought.")
    quantity: int = Field(ge=1, description="How many.")
    unit_price: float = Field(ge=0, description="Price of one.")


class ReturnRequest(AppModel, table=True):
    """A return of some units of one order line, and the refund it leads to."""

    __tablename__ = "returnrequest"

    id: int | None = Field(default=None, primary_key=True, description="Return id.")
    order_id: int = Field(description="Order.")
    line_id: int = Field(description="Order line returned.")
    quantity: int = Field(ge=1, description="Units returned (at most the line's quantity less earlier returns).")
    reason: str = Field(description="One of: " + "; ".join(RETURN_REASONS) + ".")
    comment: str = Field(default="", description="Free text for the seller.")
    method: Literal["drop_off", "pickup"] = Field(default="drop_off", sa_type=String, description="'drop_off' at a parcel point or courier 'pickup'.")
    refund: float = Field(ge=0, description="Amount refunded to the order's payment method (units × unit price).")
    status: Literal["requested", "received", "refunded", "withdrawn"] = Field(default="requested", sa_type=String,
                                                                             description="'requested' (label issued), 'received', 'refunded' or 'withdrawn' by the user.")
    created_at: NaiveDatetime = Field(description="When it was requested.")
