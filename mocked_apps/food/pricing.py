"""Cart rules apart from HTTP: a line's price with its options, the subtotal, the delivery fee (free over a
threshold), the minimum order, which coupons apply, and the total. Families call these too."""

from __future__ import annotations

__all__ = ["coupon_error", "delivery_fee", "line_price", "reorder_choices", "total"]


def line_price(base: float, option_prices: list[float]) -> float:
    return round(base + sum(option_prices), 2)


def reorder_choices(options: list[dict], named: str) -> list[dict]:
    """The options a reordered line gets, of an item's `options` (rows with name, group, multi; in id order): those
    the old line `named` (comma-separated), and the first option of every single-choice group it lacks."""
    names = {n.strip() for n in named.split(",") if n.strip()}
    picked = [c for c in options if c["name"] in names]
    for group in dict.fromkeys(c["group"] for c in options if not c["multi"]):
        if not any(c["group"] == group for c in picked):
            picked.append(next(c for c in options if c["group"] == group))
    return picked


def delivery_fee(subtotal: float, fee: float, free_over: float) -> float:
    return 0.0 if free_over and subtotal >= free_over else fee


def coupon_error(used: bool, expires: str, restaurant_id: int | None, min_spend: float, subtotal: float, cart_restaurant: int,
                 today: str) -> str | None:
    """Why a coupon (its used flag, last day, restaurant and minimum spend) cannot be used on this cart, or None."""
    if used:
        return "This coupon was already used."
    if expires < today:
        return "This coupon has expired."
    if restaurant_id is not None and restaurant_id != cart_restaurant:
        return "This coupon is for another restaurant."
    if subtotal < min_spend:
        return f"This coupon needs a subtotal of {min_spend:,.2f} or more."
    return None


def total(subtotal: float, fee: float, discount: float) -> float:
    return round(max(0.0, subtotal - discount) + fee, 2)
