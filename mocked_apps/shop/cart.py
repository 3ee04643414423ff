"""The cart read from an instance: lines with their variant and product, the subtotal, and what stops
checkout (a line over the stock left)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from .models import CartLine, Product, Variant
from .pricing import shipping_fee

__all__ = ["Cart", "Line", "read_cart"]


@dataclass(frozen=True)
class Line:
    row: CartLine
    variant: Variant
    product: Product

    @property
    def amount(self) -> float:
        return round(self.product.price * self.row.quantity, 2)

    @property
    def short(self) -> bool:
        """More in the cart than in stock."""
        return self.row.quantity > self.variant.stock


@dataclass(frozen=True)
class Cart:
    lines: tuple[Line, ...]

    @property
    def subtotal(self) -> float:
        return round(sum(line.amount for line in self.lines), 2)

    @property
    def count(self) -> int:
        return sum(line.row.quantity for line in self.lines)

    def shipping(self, speed: str) -> float:
        return shipping_fee(speed, self.subtotal)


def read_cart(db: Session) -> Cart:
    lines = []
    for row in db.exec(select(CartLine).order_by(CartLine.id)).all():
        variant = db.get(Variant, row.variant_id)
        lines.append(Line(row, variant, db.get(Product, variant.product_id)))
    return Cart(tuple(lines))
