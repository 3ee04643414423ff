"""Placed orders: history, tracking (the stage follows the instance clock against the order's times),
cancelling within five minutes, confirming delivery, and reorder (the lines back in the cart at today's prices)."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Address, CartLine, Choice, FoodOrder, MenuItem, OrderLine, PaymentMethod, Restaurant
from .pricing import reorder_choices

router = APIRouter()
CANCEL_WINDOW = timedelta(minutes=5)


def stage(order: FoodOrder, now) -> str:
    """Where a placed order is: 'Preparing', 'On the way' (past 60% of the wait) or 'Arriving' (at its time)."""
    if order.status != "placed":
        return order.status.capitalize()
    if now >= order.eta:
        return "Arriving"
    return "On the way" if now >= order.placed_at + (order.eta - order.placed_at) * 0.6 else "Preparing"


@router.get("/orders")
def history(gym: GymDep):
    rows = gym.db.exec(select(FoodOrder).order_by(FoodOrder.placed_at.desc(), FoodOrder.id.desc())).all()
    names = {r.id: r.name for r in gym.db.exec(select(Restaurant)).all()}
    lines = {o.id: gym.db.exec(select(OrderLine).where(OrderLine.order_id == o.id)).all() for o in rows}
    return gym.render("orders.html", rows=rows, names=names, lines=lines, stage=lambda o: stage(o, gym.now))


@router.get("/orders/{order_id}")
def order_page(gym: GymDep, order_id: int):
    o = gym.get(FoodOrder, order_id)
    return gym.render("order.html", o=o, r=gym.get(Restaurant, o.restaurant_id), stage=stage(o, gym.now),
                      lines=gym.db.exec(select(OrderLine).where(OrderLine.order_id == o.id).order_by(OrderLine.id)).all(),
                      address=gym.db.get(Address, o.address_id), method=gym.db.get(PaymentMethod, o.payment_method_id),
                      can_cancel=o.status == "placed" and gym.now - o.placed_at <= CANCEL_WINDOW)


@router.post("/orders/{order_id}/cancel")
def cancel(gym: GymDep, order_id: int):
    o = gym.get(FoodOrder, order_id)
    if o.status != "placed" or gym.now - o.placed_at > CANCEL_WINDOW:
        return gym.done(f"/orders/{order_id}", notice="This order can no longer be cancelled: the restaurant is cooking it.")
    o.status = "cancelled"
    gym.db.add(o)
    return gym.done(f"/orders/{order_id}", notice="Order cancelled; you were not charged")


@router.post("/orders/{order_id}/received")
def received(gym: GymDep, order_id: int):
    o = gym.get(FoodOrder, order_id)
    if o.status == "placed":
        o.status = "delivered"
        gym.db.add(o)
    return gym.done(f"/orders/{order_id}", notice="Enjoy your meal!")


@router.post("/orders/{order_id}/reorder")
def reorder(gym: GymDep, order_id: int):
    o = gym.get(FoodOrder, order_id)
    for line in gym.db.exec(select(CartLine)).all():
        gym.db.delete(line)
    for line in gym.db.exec(select(OrderLine).where(OrderLine.order_id == o.id).order_by(OrderLine.id)).all():
        if gym.db.get(MenuItem, line.item_id) is None:
            continue
        options = [c.model_dump() for c in gym.db.exec(select(Choice).where(Choice.item_id == line.item_id).order_by(Choice.id)).all()]
        picked = sorted(c["id"] for c in reorder_choices(options, line.options))
        gym.db.add(CartLine(restaurant_id=o.restaurant_id, item_id=line.item_id, choices=",".join(map(str, picked)), quantity=line.quantity))
    return gym.done("/cart", notice="Your previous order is back in the cart")
