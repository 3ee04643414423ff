"""Pages and form posts of the shop's catalogue and cart: departments, search and sort, a product with
its colour and size variants and their stock, and the cart.

Checkout, orders and returns live in `orders.py`; the address book in `addresses.py`. The cart is rows
of the instance, so the browser holds nothing; form errors redirect back with the reason.
"""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from . import addresses, orders
from .cart import read_cart
from .catalogue import COLOURS
from .models import CartLine, Category, Product, Variant

router = APIRouter()
router.include_router(orders.router)
router.include_router(addresses.router)
SORTS = {"featured": "Featured", "price_low": "Price: low to high", "price_high": "Price: high to low", "rating": "Avg. rating"}
MAX_QTY = 10


def number(text: str | None) -> int | None:
    """A form's whole number, or None for anything else."""
    return int(text) if text and str(text).strip().isdigit() else None


def _variants(gym, product_id: int) -> list[Variant]:
    return list(gym.db.exec(select(Variant).where(Variant.product_id == product_id).order_by(Variant.id)).all())


@router.get("/")
def home(gym: GymDep, category: int | None = None, sort: str = "featured", q: str = ""):
    rows = list(gym.db.exec(select(Product).order_by(Product.id)).all())
    if category:
        rows = [p for p in rows if p.category_id == category]
    words = q.strip().lower()
    if words:
        rows = [p for p in rows if words in f"{p.name} {p.brand}".lower()]
    sort = sort if sort in SORTS else "featured"
    rows.sort(key={"featured": lambda p: p.id, "price_low": lambda p: (p.price, p.id), "price_high": lambda p: (-p.price, p.id),
                   "rating": lambda p: (-p.rating, p.id)}[sort])
    colours = {p.id: list(dict.fromkeys(v.colour for v in _variants(gym, p.id))) for p in rows}
    return gym.render("home.html", rows=rows, categories=gym.db.exec(select(Category).order_by(Category.id)).all(), category=category,
                      sort=sort, sorts=SORTS, q=q, colours=colours, swatch=COLOURS, cart=read_cart(gym.db))


@router.get("/p/{product_id}")
def product_page(gym: GymDep, product_id: int, colour: str = "", error: str = ""):
    product = gym.get(Product, product_id)
    variants = _variants(gym, product.id)
    names = list(dict.fromkeys(v.colour for v in variants))
    colour = colour if colour in names else names[0]
    return gym.render("product.html", p=product, category=gym.get(Category, product.category_id), colours=names, colour=colour,
                      sizes=[v for v in variants if v.colour == colour], swatch=COLOURS, error=error, max_qty=MAX_QTY, cart=read_cart(gym.db))


@router.post("/cart/add")
def add(gym: GymDep, product: str = Form(""), colour: str = Form(""), size: str = Form(""), quantity: str = Form("1")):
    item = gym.get(Product, number(product) or 0)
    back = dict(colour=colour) if colour else {}
    variant = next((v for v in _variants(gym, item.id) if v.colour == colour and v.size == size), None)
    if variant is None:
        return gym.done(f"/p/{item.id}", error="size", **back)
    qty = number(quantity)
    if qty is None or not 1 <= qty <= MAX_QTY:
        return gym.done(f"/p/{item.id}", error="quantity", **back)
    same = gym.db.exec(select(CartLine).where(CartLine.variant_id == variant.id)).first()
    if (same.quantity if same else 0) + qty > variant.stock:
        return gym.done(f"/p/{item.id}", error="stock", **back)
    if same:
        same.quantity += qty
        gym.db.add(same)
    else:
        gym.db.add(CartLine(variant_id=variant.id, quantity=qty))
    label = "" if variant.size == "One size" else f", size {variant.size}"
    return gym.done("/cart", notice=f"Added {qty} × {item.name} ({variant.colour}{label}) to your cart")


@router.get("/cart")
def cart_page(gym: GymDep):
    return gym.render("cart.html", cart=read_cart(gym.db), swatch=COLOURS)


@router.post("/cart/{line_id}/{change}")
def change_line(gym: GymDep, line_id: int, change: str):
    line = gym.get(CartLine, line_id)
    variant = gym.get(Variant, line.variant_id)
    if change == "more" and line.quantity < min(MAX_QTY, variant.stock):
        line.quantity += 1
        gym.db.add(line)
    elif change == "more":
        return gym.done("/cart", notice=f"Only {variant.stock} in stock")
    elif change == "less" and line.quantity > 1:
        line.quantity -= 1
        gym.db.add(line)
    elif change in ("less", "remove"):
        gym.db.delete(line)
    return gym.done("/cart")
