"""Checkout rules apart from HTTP: shipping speeds and fees (standard is free from a threshold), delivery
days, the return window and refunds. Families call these too, so tasks and the app agree."""

from __future__ import annotations

from datetime import date, timedelta

__all__ = ["FREE_SHIPPING_OVER", "RETURN_DAYS", "SPEEDS", "arrival", "returnable_until", "shipping_fee"]

FREE_SHIPPING_OVER = 50.0
RETURN_DAYS = 30
SPEEDS = {"standard": ("Standard (3-5 days)", 4.99, 5), "express": ("Express (next day)", 12.99, 1)}
"""Speed -> (label, fee, days to arrive)."""


def shipping_fee(speed: str, subtotal: float) -> float:
    """Standard is free from FREE_SHIPPING_OVER; express always costs its fee."""
    label, fee, _ = SPEEDS[speed]
    return 0.0 if speed == "standard" and subtotal >= FREE_SHIPPING_OVER else fee


def arrival(speed: str, placed: date) -> date:
    return placed + timedelta(days=SPEEDS[speed][2])


def returnable_until(delivered: date) -> date:
    """The last day a delivered order's items can be returned."""
    return delivered + timedelta(days=RETURN_DAYS)
