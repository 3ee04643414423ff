"""Shop's recipes: how the app shows a world's records, the golden steps and the verifier predicates
other families call instead of re-typing the shop's labels, row ids or tables.

Golden steps return unindented lines of the golden action API (join them with
`contracts.family.solve_source`); predicates return verifier source defining one function.
"""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST
from .pricing import SPEEDS
from .projection import addresses, payment_methods

__all__ = ["add_address", "add_to_cart", "address_label", "checkout", "item_label", "method_label", "new_orders_source",
           "new_returns_source", "open_app", "open_order", "open_product", "request_return", "speed_label"]


def method_label(world: World, index: int = 0) -> str:
    """How checkout shows the world's card (0) or checking account (1)."""
    return payment_methods(world)[index]["label"]


def address_label(row: dict) -> str:
    """How checkout shows an address-book row (name, street, city, postcode)."""
    return f"{row['name']}, {row['line']}, {row['city']} {row['postcode']}"


def office_label(world: World) -> str:
    """The default address (the office) as checkout shows it."""
    return address_label(addresses(world)[0])


def speed_label(speed: str) -> str:
    return SPEEDS[speed][0]


def item_label(name: str, colour: str, size: str) -> str:
    """How the return form names an order line."""
    return f"{name} ({colour})" if size == "One size" else f"{name} ({colour}, {size})"


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_product(name: str) -> str:
    """Search the catalogue for a product by name and open its page."""
    return "\n".join([f'env.fill(env.word("Search") + " the shop", {name!r})', 'env.press("Enter")', f"env.click({name!r}, role='link')"])


def add_to_cart(colour: str, size: str, quantity: int) -> str:
    """On a product page: pick the colour swatch and the size, set the quantity, add to the cart (which opens)."""
    steps = [f"env.click({colour!r}, role='link')"]
    if size != "One size":
        steps.append(f"env.check({size!r}, True)")
    return "\n".join([*steps, f'env.fill("Quantity", {str(quantity)!r})', 'env.click(env.word("Add to cart"), role="button")'])


def checkout(address: str, speed: str, method: str) -> str:
    """From anywhere: open the cart, go to checkout, choose the address (its label), speed and payment, place the order."""
    return "\n".join(['env.click("Cart", role="link")', 'env.click("Proceed to checkout", role="link")', f"env.check({address!r}, True)",
                      f"env.check({speed_label(speed)!r}, True)", f'env.select("Payment method", {method!r})',
                      'env.click("Place your order", role="button")'])


def add_address(name: str, line: str, city: str, postcode: str) -> str:
    """On the checkout page: add an address to the book; checkout comes back with it chosen."""
    return "\n".join(['env.click("Add a new address", role="link")', f'env.fill("Full name", {name!r})', f'env.fill("Street address", {line!r})',
                      f'env.fill("City", {city!r})', f'env.fill("Postal code", {postcode!r})', 'env.click("Use this address", role="button")'])


def open_order(number: str) -> str:
    return "\n".join(['env.click("Orders", role="link")', f'env.click("View order {number}", role="link")'])


def request_return(item: str, quantity: int, reason: str, pickup: bool = False) -> str:
    """On an order's page: return `quantity` units of the line labelled `item` (see item_label) for `reason`."""
    steps = ['env.click("Return items", role="link")', f"env.check({item!r}, True)", f'env.fill("Units to return", {str(quantity)!r})',
             f'env.select("Reason for return", {reason!r})']
    if pickup:
        steps.append('env.check("Courier pickup (free)", True)')
    return "\n".join([*steps, 'env.click("Request return", role="button")'])


def new_orders_source(fn: str) -> str:
    """`fn(final)`: orders placed during the attempt and not cancelled, each with `lines`: sorted [variant_id, quantity]."""
    return f'''
def {fn}(final):
    shop, before = final.state["shop"], final.initial_state["shop"]
    old = {{o["id"] for o in before["shoporder"]}}
    out = []
    for o in shop["shoporder"]:
        if o["id"] not in old and o["status"] != "cancelled":
            lines = sorted([l["variant_id"], l["quantity"]] for l in shop["orderline"] if l["order_id"] == o["id"])
            out.append(dict(o, lines=lines))
    return out
'''


def new_returns_source(fn: str) -> str:
    """`fn(final)`: return requests made during the attempt and not withdrawn."""
    return f'''
def {fn}(final):
    old = {{r["id"] for r in final.initial_state["shop"]["returnrequest"]}}
    return [r for r in final.state["shop"]["returnrequest"] if r["id"] not in old and r["status"] != "withdrawn"]
'''
