"""The cart read from an instance: its restaurant, lines with their options and prices, and the totals."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from .models import CartLine, Choice, MenuItem, Restaurant
from .pricing import delivery_fee, line_price

__all__ = ["Cart", "Line", "read_cart"]


@dataclass(frozen=True)
class Line:
    row: CartLine
    item: MenuItem
    choices: tuple[Choice, ...]

    @property
    def unit(self) -> float:
        return line_price(self.item.price, [c.price for c in self.choices])

    @property
    def amount(self) -> float:
        return round(self.unit * self.row.quantity, 2)

    @property
    def options(self) -> str:
        return ", ".join(c.name for c in self.choices)


@dataclass(frozen=True)
class Cart:
    restaurant: Restaurant | None
    lines: tuple[Line, ...]

    @property
    def subtotal(self) -> float:
        return round(sum(line.amount for line in self.lines), 2)

    @property
    def fee(self) -> float:
        return delivery_fee(self.subtotal, self.restaurant.delivery_fee, self.restaurant.free_delivery_over) if self.restaurant else 0.0

    @property
    def short_of_minimum(self) -> float:
        return round(max(0.0, self.restaurant.min_order - self.subtotal), 2) if self.restaurant else 0.0

    @property
    def count(self) -> int:
        return sum(line.row.quantity for line in self.lines)


def choice_ids(text: str) -> list[int]:
    return sorted(int(c) for c in text.split(",") if c.strip().isdigit())


def read_cart(db: Session) -> Cart:
    rows = db.exec(select(CartLine).order_by(CartLine.id)).all()
    if not rows:
        return Cart(None, ())
    lines = []
    for row in rows:
        item = db.get(MenuItem, row.item_id)
        picked = tuple(db.get(Choice, c) for c in choice_ids(row.choices))
        lines.append(Line(row, item, tuple(c for c in picked if c is not None)))
    return Cart(db.get(Restaurant, rows[0].restaurant_id), tuple(lines))
