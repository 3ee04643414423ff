"""Pages and form posts of Food Delivery: restaurants, menus, an item's options, the cart and checkout.

Placed orders (tracking, cancel, reorder) live in `orders.py`. The cart is rows of the instance, so the
browser holds nothing; form errors redirect back to the page with the reason.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Form, Request
from sqlmodel import func, select

from mocked_apps.kit import Gym, GymDep

from . import orders
from .cart import choice_ids, read_cart
from .models import Address, CartLine, Choice, Coupon, FoodOrder, MenuItem, OrderLine, PaymentMethod, Restaurant
from .pricing import coupon_error, total

router = APIRouter()
router.include_router(orders.router)
SORTS = {"rating": "Top rated", "distance": "Nearest", "time": "Fastest delivery"}


def _int(text: str | None) -> int | None:
    return int(text) if text and str(text).strip().isdigit() else None


def _why(coupon: Coupon, cart, today: str) -> str | None:
    return coupon_error(coupon.used, coupon.expires, coupon.restaurant_id, coupon.min_spend, cart.subtotal, cart.restaurant.id, today)


@router.get("/")
def home(gym: GymDep, cuisine: str = "", sort: str = "rating", q: str = ""):
    rows = list(gym.db.exec(select(Restaurant).order_by(Restaurant.id)).all())
    cuisines = sorted({r.cuisine for r in rows})
    if cuisine:
        rows = [r for r in rows if r.cuisine == cuisine]
    if q.strip():
        hits = {i.restaurant_id for i in gym.db.exec(select(MenuItem).where(MenuItem.name.ilike(f"%{q.strip()}%"))).all()}
        rows = [r for r in rows if r.id in hits or q.strip().lower() in r.name.lower() or q.strip().lower() in r.cuisine.lower()]
    sort = sort if sort in SORTS else "rating"
    rows.sort(key={"rating": lambda r: (-r.rating, r.id), "distance": lambda r: (r.distance_km, r.id),
                   "time": lambda r: (r.delivery_min, r.id)}[sort])
    return gym.render("home.html", rows=rows, cuisines=cuisines, cuisine=cuisine, sort=sort, sorts=SORTS, q=q, cart=read_cart(gym.db))


@router.get("/r/{restaurant_id}")
def menu(gym: GymDep, restaurant_id: int):
    r = gym.get(Restaurant, restaurant_id)
    items = gym.db.exec(select(MenuItem).where(MenuItem.restaurant_id == r.id).order_by(MenuItem.id)).all()
    sections: dict[str, list[MenuItem]] = {}
    for item in items:
        sections.setdefault(item.section, []).append(item)
    return gym.render("menu.html", r=r, sections=sections, cart=read_cart(gym.db))


@router.get("/r/{restaurant_id}/item/{item_id}")
def item_page(gym: GymDep, restaurant_id: int, item_id: int, error: str = ""):
    r = gym.get(Restaurant, restaurant_id)
    item = gym.get(MenuItem, item_id)
    choices = gym.db.exec(select(Choice).where(Choice.item_id == item.id).order_by(Choice.id)).all()
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.group, []).append(c)
    return gym.render("item.html", r=r, item=item, groups=groups, error=error, cart=read_cart(gym.db))


@router.post("/cart/add")
async def add(gym: GymDep, request: Request, item: str = Form(""), quantity: str = Form("1")):
    menu_item = gym.get(MenuItem, _int(item) or 0)
    back = f"/r/{menu_item.restaurant_id}/item/{menu_item.id}"
    form = await request.form()
    picked = sorted({int(v) for k, v in form.multi_items() if k.startswith("choice") and str(v).isdigit()})
    options = {c.id: c for c in gym.db.exec(select(Choice).where(Choice.item_id == menu_item.id)).all()}
    if any(p not in options for p in picked):
        return gym.done(back, error="options")
    for group in {c.group for c in options.values() if not c.multi}:
        if sum(1 for p in picked if options[p].group == group) != 1:
            return gym.done(back, error="options")
    qty = _int(quantity)
    if qty is None or not 1 <= qty <= 50:
        return gym.done(back, error="quantity")
    cart = read_cart(gym.db)
    if cart.restaurant and cart.restaurant.id != menu_item.restaurant_id:
        return gym.done(back, error="other")
    key = ",".join(map(str, picked))
    same = next((line.row for line in cart.lines if line.row.item_id == menu_item.id and line.row.choices == key), None)
    if same:
        same.quantity = min(50, same.quantity + qty)
        gym.db.add(same)
    else:
        gym.db.add(CartLine(restaurant_id=menu_item.restaurant_id, item_id=menu_item.id, choices=key, quantity=qty))
    return gym.done(f"/r/{menu_item.restaurant_id}", notice=f"Added {qty} × {menu_item.name} to your cart")


@router.get("/cart")
def cart_page(gym: GymDep, error: str = "", address: str = "", coupon: str = "", method: str = "", note: str = ""):
    cart = read_cart(gym.db)
    today = gym.now.date().isoformat()
    coupons = gym.db.exec(select(Coupon).where(Coupon.used == False).order_by(Coupon.id)).all()  # noqa: E712
    usable = [(c, _why(c, cart, today) if cart.restaurant else "Add items first.") for c in coupons]
    return gym.render("cart.html", cart=cart, coupons=usable, error=error, addresses=gym.db.exec(select(Address).order_by(Address.id)).all(),
                      methods=gym.db.exec(select(PaymentMethod).order_by(PaymentMethod.id)).all(),
                      values={"address": address or "1", "coupon": coupon, "method": method, "note": note})


@router.post("/cart/{line_id}/{change}")
def change_line(gym: GymDep, line_id: int, change: str):
    line = gym.get(CartLine, line_id)
    if change == "more":
        line.quantity = min(50, line.quantity + 1)
        gym.db.add(line)
    elif change == "less" and line.quantity > 1:
        line.quantity -= 1
        gym.db.add(line)
    elif change in ("less", "remove"):
        gym.db.delete(line)
    return gym.done("/cart")


@router.post("/cart/clear")
def clear(gym: GymDep):
    for line in gym.db.exec(select(CartLine)).all():
        gym.db.delete(line)
    return gym.done("/cart", notice="Cart cleared")


@router.post("/checkout")
def checkout(gym: GymDep, address: str = Form(""), coupon: str = Form(""), method: str = Form(""), note: str = Form("")):
    cart = read_cart(gym.db)
    again = {"address": address, "coupon": coupon, "method": method, "note": note}
    if not cart.lines:
        return gym.done("/cart", error="empty", **again)
    if cart.short_of_minimum:
        return gym.done("/cart", error="minimum", **again)
    where = gym.db.get(Address, _int(address)) if _int(address) else None
    pay = gym.db.get(PaymentMethod, _int(method)) if _int(method) else None
    if where is None:
        return gym.done("/cart", error="address", **again)
    if pay is None:
        return gym.done("/cart", error="method", **again)
    chosen = gym.db.get(Coupon, _int(coupon)) if _int(coupon) else None
    if coupon and (chosen is None or _why(chosen, cart, gym.now.date().isoformat())):
        return gym.done("/cart", error="coupon", **again)
    discount = chosen.discount if chosen else 0.0
    order = FoodOrder(number="", restaurant_id=cart.restaurant.id, address_id=where.id, payment_method_id=pay.id,
                      coupon_id=chosen.id if chosen else None, subtotal=cart.subtotal, delivery_fee=cart.fee, discount=discount,
                      total=total(cart.subtotal, cart.fee, discount), note=note.strip(), placed_at=gym.now,
                      eta=gym.now + timedelta(minutes=cart.restaurant.delivery_min))
    gym.db.add(order)
    gym.db.flush()
    order.number = f"F{gym.now:%y%m%d}{order.id:03d}"
    for line in cart.lines:
        gym.db.add(OrderLine(order_id=order.id, item_id=line.item.id, name=line.item.name, options=line.options,
                             quantity=line.row.quantity, unit_price=line.unit))
        gym.db.delete(line.row)
    if chosen:
        chosen.used = True
        gym.db.add(chosen)
    gym.db.add(order)
    gym.advance()
    return gym.done(f"/orders/{order.id}", notice=f"Order placed: {cart.restaurant.name} is preparing it")


@router.get("/coupons")
def coupons(gym: GymDep):
    rows = gym.db.exec(select(Coupon).order_by(Coupon.used, Coupon.expires, Coupon.id)).all()
    names = {r.id: r.name for r in gym.db.exec(select(Restaurant)).all()}
    return gym.render("coupons.html", rows=rows, names=names, today=gym.now.date().isoformat(),
                      count=gym.db.exec(select(func.count(Coupon.id))).one())
