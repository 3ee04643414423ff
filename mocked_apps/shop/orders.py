"""Checkout, placed orders and returns.

Checkout takes the cart, an address of the address book, a shipping speed and a payment method; it
checks the stock again and takes the units out of it. An order can be cancelled until it ships (a day
after it was placed, by the instance clock; cancelling puts the stock back). A delivered order's lines
can be returned within the return window, with a reason; the refund is the units times the price paid
and follows the return's state ('requested' until the parcel is received, then 'refunded').
"""

from __future__ import annotations

from datetime import date, timedelta

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .cart import read_cart
from .models import RETURN_REASONS, Address, CartLine, OrderLine, PaymentMethod, ReturnRequest, ShopOrder, Variant
from .pricing import SPEEDS, arrival, returnable_until, shipping_fee

router = APIRouter()
SHIPS_AFTER = timedelta(days=1)


def one_line(a: Address) -> str:
    return f"{a.name}, {a.line}, {a.city} {a.postcode}"


def stage(order: ShopOrder, now) -> str:
    """What the user sees: an order ships a day after it was placed and is delivered on its day (instance clock)."""
    if order.status in ("placed", "shipped") and now.date() >= date.fromisoformat(order.arrives):
        return "delivered"
    if order.status == "placed" and now >= order.placed_at + SHIPS_AFTER:
        return "shipped"
    return order.status


def _number(text: str) -> int | None:
    return int(text) if text and text.strip().isdigit() else None


@router.get("/checkout")
def checkout_page(gym: GymDep, error: str = "", address: str = "", speed: str = "standard", method: str = ""):
    cart = read_cart(gym.db)
    books = gym.db.exec(select(Address).order_by(Address.is_default.desc(), Address.id)).all()
    chosen = address or (str(books[0].id) if books else "")
    speed = speed if speed in SPEEDS else "standard"
    today = gym.now.date()
    options = [(k, label, shipping_fee(k, cart.subtotal), arrival(k, today)) for k, (label, _, _) in SPEEDS.items()]
    return gym.render("checkout.html", cart=cart, addresses=books, methods=gym.db.exec(select(PaymentMethod).order_by(PaymentMethod.id)).all(),
                      options=options, error=error, values={"address": chosen, "speed": speed, "method": method},
                      fee=cart.shipping(speed))


@router.post("/checkout")
def place(gym: GymDep, address: str = Form(""), speed: str = Form("standard"), method: str = Form("")):
    cart = read_cart(gym.db)
    again = {"address": address, "speed": speed, "method": method}
    if not cart.lines:
        return gym.done("/cart")
    where = gym.db.get(Address, _number(address)) if _number(address) else None
    pay = gym.db.get(PaymentMethod, _number(method)) if _number(method) else None
    error = ("stock" if any(line.short for line in cart.lines) else "address" if where is None else "speed" if speed not in SPEEDS
             else "method" if pay is None else "")
    if error:
        return gym.done("/checkout", error=error, **again)
    fee = cart.shipping(speed)
    order = ShopOrder(number="", address_id=where.id, ship_to=one_line(where), payment_method_id=pay.id, shipping=speed, subtotal=cart.subtotal,
                      shipping_fee=fee, total=round(cart.subtotal + fee, 2), placed_at=gym.now, arrives=arrival(speed, gym.now.date()).isoformat())
    gym.db.add(order)
    gym.db.flush()
    order.number = f"112-{gym.now:%y%m%d}-{order.id:04d}"
    for line in cart.lines:
        gym.db.add(OrderLine(order_id=order.id, variant_id=line.variant.id, product_id=line.product.id, name=line.product.name,
                             colour=line.variant.colour, size=line.variant.size, quantity=line.row.quantity, unit_price=line.product.price))
        line.variant.stock -= line.row.quantity
        gym.db.add(line.variant)
        gym.db.delete(line.row)
    gym.db.add(order)
    gym.advance()
    return gym.done(f"/orders/{order.id}", notice=f"Order placed, thank you! Arriving {date.fromisoformat(order.arrives):%A, %B} {date.fromisoformat(order.arrives).day}")


def _lines(gym, order_id: int) -> list[OrderLine]:
    return list(gym.db.exec(select(OrderLine).where(OrderLine.order_id == order_id).order_by(OrderLine.id)).all())


def _returned(gym, line_id: int) -> int:
    """Units of a line already in a return that was not withdrawn."""
    rows = gym.db.exec(select(ReturnRequest).where(ReturnRequest.line_id == line_id)).all()
    return sum(r.quantity for r in rows if r.status != "withdrawn")


@router.get("/orders")
def history(gym: GymDep, show: str = "all"):
    rows = list(gym.db.exec(select(ShopOrder).order_by(ShopOrder.placed_at.desc(), ShopOrder.id.desc())).all())
    stages = {o.id: stage(o, gym.now) for o in rows}
    if show in ("open", "delivered", "cancelled"):
        rows = [o for o in rows if (stages[o.id] in ("placed", "shipped")) == (show == "open") and (show == "open" or stages[o.id] == show)]
    return gym.render("orders.html", rows=rows, stages=stages, show=show, lines={o.id: _lines(gym, o.id) for o in rows}, cart=read_cart(gym.db))


@router.get("/orders/{order_id}")
def order_page(gym: GymDep, order_id: int):
    o = gym.get(ShopOrder, order_id)
    now_stage = stage(o, gym.now)
    last_day = returnable_until(date.fromisoformat(o.arrives))
    lines = _lines(gym, o.id)
    return gym.render("order.html", o=o, stage=now_stage, lines=lines, left={l.id: l.quantity - _returned(gym, l.id) for l in lines},
                      method=gym.db.get(PaymentMethod, o.payment_method_id), last_day=last_day,
                      can_return=now_stage == "delivered" and gym.now.date() <= last_day, can_cancel=now_stage == "placed",
                      returns=gym.db.exec(select(ReturnRequest).where(ReturnRequest.order_id == o.id).order_by(ReturnRequest.id)).all(),
                      cart=read_cart(gym.db))


@router.post("/orders/{order_id}/cancel")
def cancel(gym: GymDep, order_id: int):
    o = gym.get(ShopOrder, order_id)
    if stage(o, gym.now) != "placed":
        return gym.done(f"/orders/{order_id}", notice="This order has shipped and can no longer be cancelled; return it once it arrives.")
    for line in _lines(gym, o.id):
        variant = gym.db.get(Variant, line.variant_id)
        if variant is not None:
            variant.stock += line.quantity
            gym.db.add(variant)
    o.status = "cancelled"
    gym.db.add(o)
    return gym.done(f"/orders/{order_id}", notice="Order cancelled; your payment method will not be charged")


@router.post("/orders/{order_id}/buy-again/{line_id}")
def buy_again(gym: GymDep, order_id: int, line_id: int):
    line = gym.get(OrderLine, line_id)
    variant = gym.db.get(Variant, line.variant_id)
    if line.order_id != order_id or variant is None:
        return gym.done(f"/orders/{order_id}", notice="This item is no longer sold.")
    if variant.stock < 1:
        return gym.done(f"/p/{variant.product_id}", colour=variant.colour, error="stock")
    same = gym.db.exec(select(CartLine).where(CartLine.variant_id == variant.id)).first()
    if same and same.quantity >= variant.stock:
        return gym.done("/cart", notice=f"Only {variant.stock} in stock")
    if same:
        same.quantity += 1
    gym.db.add(same or CartLine(variant_id=variant.id, quantity=1))
    return gym.done("/cart", notice=f"Added {line.name} ({line.colour}) to your cart")


@router.get("/orders/{order_id}/return")
def return_form(gym: GymDep, order_id: int, line: str = "", quantity: str = "1", reason: str = "", method: str = "drop_off", comment: str = "",
                error: str = ""):
    o = gym.get(ShopOrder, order_id)
    lines = [l for l in _lines(gym, o.id) if l.quantity - _returned(gym, l.id) > 0]
    return gym.render("return.html", o=o, lines=lines, left={l.id: l.quantity - _returned(gym, l.id) for l in lines}, reasons=RETURN_REASONS,
                      values={"line": line or (str(lines[0].id) if lines else ""), "quantity": quantity, "reason": reason, "method": method, "comment": comment},
                      error=error, open=stage(o, gym.now) == "delivered" and gym.now.date() <= returnable_until(date.fromisoformat(o.arrives)),
                      cart=read_cart(gym.db))


@router.post("/orders/{order_id}/return")
def request_return(gym: GymDep, order_id: int, line: str = Form(""), quantity: str = Form(""), reason: str = Form(""), method: str = Form("drop_off"),
                   comment: str = Form("")):
    o = gym.get(ShopOrder, order_id)
    again = {"line": line, "quantity": quantity, "reason": reason, "method": method, "comment": comment}
    row = gym.db.get(OrderLine, _number(line)) if _number(line) else None
    qty = _number(quantity)
    error = ("window" if stage(o, gym.now) != "delivered" or gym.now.date() > returnable_until(date.fromisoformat(o.arrives))
             else "line" if row is None or row.order_id != o.id
             else "quantity" if qty is None or not 1 <= qty <= row.quantity - _returned(gym, row.id)
             else "reason" if reason not in RETURN_REASONS else "method" if method not in ("drop_off", "pickup") else "")
    if error:
        return gym.done(f"/orders/{order_id}/return", error=error, **again)
    req = ReturnRequest(order_id=o.id, line_id=row.id, quantity=qty, reason=reason, comment=comment.strip()[:200], method=method,
                        refund=round(row.unit_price * qty, 2), created_at=gym.now)
    gym.db.add(req)
    gym.advance()
    return gym.done("/returns", notice=f"Return requested: {qty} × {row.name}. Refund of ${req.refund:,.2f} once we receive it")


@router.get("/returns")
def returns(gym: GymDep):
    rows = gym.db.exec(select(ReturnRequest).order_by(ReturnRequest.created_at.desc(), ReturnRequest.id.desc())).all()
    lines = {r.line_id: gym.db.get(OrderLine, r.line_id) for r in rows}
    orders = {r.order_id: gym.db.get(ShopOrder, r.order_id) for r in rows}
    return gym.render("returns.html", rows=rows, lines=lines, orders=orders, cart=read_cart(gym.db))


@router.post("/returns/{return_id}/withdraw")
def withdraw(gym: GymDep, return_id: int):
    r = gym.get(ReturnRequest, return_id)
    if r.status != "requested":
        return gym.done("/returns", notice="This return is already on its way back and cannot be withdrawn.")
    r.status = "withdrawn"
    gym.db.add(r)
    return gym.done("/returns", notice="Return withdrawn")
