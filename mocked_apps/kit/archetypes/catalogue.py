"""Catalogue grid with filters and sorting, a cart (add, change quantity, remove) and a checkout that places an order."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render
from .records import search

DELIVERY = ("Standard delivery", "Express delivery", "Pick up in store")
_FEES = {"Standard delivery": 4.99, "Express delivery": 12.99, "Pick up in store": 0.0}


def mount_catalogue(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model, line, purchase = app.model(e.name), app.model("cart_line"), app.model("purchase")
    path = page_path(page)
    price = page.options.get("price") or next(f.name for f in e.fields if f.type == "money")
    facets = [f for f in e.fields if f.type == "choice"][:2]

    def cart(gym):
        lines = gym.db.exec(select(line).order_by(line.id)).all()
        items = {r.id: r for r in gym.db.exec(select(model)).all()}
        rows = [(ln, items[ln.item_id]) for ln in lines if ln.item_id in items]
        return rows, round(sum(ln.quantity * (getattr(it, price) or 0) for ln, it in rows), 2)

    @router.get(path)
    def grid(gym: GymDep, request: Request, q: str = "", sort: str = ""):
        stmt = search(app, e, select(model), q)
        chosen = {f.name: request.query_params.get(f.name, "") for f in facets}
        for name, value in chosen.items():
            if value:
                stmt = stmt.where(getattr(model, name) == value)
        column = getattr(model, price)
        stmt = stmt.order_by(column if sort == "price" else column.desc() if sort == "-price" else model.id, model.id)
        rows, total = cart(gym)
        return render(app, gym, "arch/catalogue.html", page_title(app.spec, page), entity=e, items=gym.db.exec(stmt).all(),
                      facets=facets, chosen=chosen, q=q, sort=sort, price=price, path=path, cart_count=sum(ln.quantity for ln, _ in rows))

    @router.post("/cart/add/{item_id}")
    def add(gym: GymDep, item_id: int):
        item = gym.get(model, item_id)
        existing = gym.db.exec(select(line).where(line.item_id == item_id)).first()
        if existing:
            existing.quantity += 1
            gym.db.add(existing)
        else:
            gym.db.add(line(item_id=item_id, quantity=1))
        return gym.done(path, notice=f"Added {getattr(item, e.title)} to your cart")

    @router.get("/cart")
    def cart_page(gym: GymDep):
        rows, total = cart(gym)
        return render(app, gym, "arch/cart.html", "Your cart", entity=e, rows=rows, total=total, price=price, shop=path)

    @router.post("/cart/{line_id}/quantity")
    def quantity(gym: GymDep, line_id: int, change: int = Form(0)):
        ln = gym.get(line, line_id)
        ln.quantity += 1 if change > 0 else -1
        if ln.quantity <= 0:
            gym.db.delete(ln)
        else:
            gym.db.add(ln)
        return gym.done("/cart")

    @router.post("/cart/{line_id}/remove")
    def remove(gym: GymDep, line_id: int):
        gym.db.delete(gym.get(line, line_id))
        return gym.done("/cart", notice="Removed from your cart")

    @router.get("/checkout")
    def checkout_page(gym: GymDep, check: str = ""):
        rows, total = cart(gym)
        return render(app, gym, "arch/checkout.html", "Checkout", rows=rows, total=total, entity=e, price=price,
                      delivery=DELIVERY, fees=_FEES, shop=path, error="Your cart is empty." if check and not rows else "")

    @router.post("/checkout")
    def place(gym: GymDep, delivery: str = Form(DELIVERY[0])):
        rows, total = cart(gym)
        if not rows or delivery not in _FEES:
            return gym.done("/checkout", check=1)
        items = ", ".join(f"{it.id} x {ln.quantity}" for ln, it in rows)
        order = purchase(placed_at=gym.now, total=round(total + _FEES[delivery], 2), delivery=delivery, items=items)
        gym.db.add(order)
        for ln, _ in rows:
            gym.db.delete(ln)
        gym.db.flush()
        return gym.done(path, notice=f"Order #{order.id} placed")


__all__ = ["DELIVERY", "mount_catalogue"]
