"""Cart rules apart from HTTP: a line's price with its options, the subtotal, the delivery fee (free over a
threshold), the minimum order, which coupons apply, and the total. Families call these too."""

from __future__ import annotations

__all__ = ["CartError", "coupon_error", "delivery_fee", "line_price", "total"]


class CartError(ValueError):
    """A cart that cannot be checked out (below the minimum order, an unusable coupon)."""


def line_price(base: float, option_prices: list[float]) -> float:
    return round(base + sum(option_prices), 2)


def delivery_fee(subtotal: float, fee: float, free_over: float) -> float:
    return 0.0 if free_over and subtotal >= free_over else fee


def coupon_error(coupon, subtotal: float, restaurant_id: int, today: str) -> str | None:
    """Why a coupon cannot be used on this cart, or None."""
    if coupon.used:
        return "This coupon was already used."
    if coupon.expires < today:
        return "This coupon has expired."
    if coupon.restaurant_id is not None and coupon.restaurant_id != restaurant_id:
        return "This coupon is for another restaurant."
    if subtotal < coupon.min_spend:
        return f"This coupon needs a subtotal of {coupon.min_spend:,.2f} or more."
    return None


def total(subtotal: float, fee: float, discount: float) -> float:
    return round(max(0.0, subtotal - discount) + fee, 2)
