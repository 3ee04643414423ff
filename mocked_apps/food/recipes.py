"""Food's recipes: how the app shows a world's records, golden steps and verifier predicates other families call.

Other families use these instead of re-typing the app's labels (the 'Add <item>' links, the option
boxes, the checkout form), its row ids or its tables.
"""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST
from .projection import payment_methods

__all__ = ["add_item", "checkout", "method_label", "new_orders_source", "open_app", "open_restaurant", "reorder"]


def method_label(world: World, index: int = 0) -> str:
    """How checkout shows the world's card (0) or checking account (1)."""
    return payment_methods(world)[index]["label"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_restaurant(name: str) -> str:
    return "\n".join(['env.click("Restaurants", role="link")', f"env.click({name!r}, role='link')"])


def add_item(item: str, options: list[str], quantity: int) -> str:
    """On a restaurant's menu: open the item, tick `options` (names), set the quantity, add it to the cart."""
    return "\n".join([f'env.click("Add {item}", role="link")', *[f"env.check({o!r}, True)" for o in options],
                      f'env.fill("Quantity", {str(quantity)!r})', 'env.click(env.word("Add to cart"), role="button")'])


def checkout(method: str, coupon: str | None = None) -> str:
    """Open the cart and place the order to the default address, with `coupon` (its title) when given."""
    steps = ['env.click("Cart", role="link")']
    if coupon:
        steps.append(f'env.select("Coupon", {coupon!r})')
    return "\n".join([*steps, f'env.select("Payment method", {method!r})', 'env.click(env.word("Place order"), role="button")'])


def reorder(number: str) -> str:
    """From the order history: put order `number` back in the cart."""
    return "\n".join(['env.click("Orders", role="link")', f'env.click("Reorder {number}", role="button")'])


def new_orders_source(fn: str) -> str:
    """`fn(final)`: orders placed during the attempt (not cancelled), each with `lines`: sorted (item_id, options, quantity)."""
    return f'''
def {fn}(final):
    food, before = final.state["food"], final.initial_state["food"]
    old = {{o["id"] for o in before["foodorder"]}}
    out = []
    for o in food["foodorder"]:
        if o["id"] not in old and o["status"] != "cancelled":
            lines = sorted((l["item_id"], l["options"], l["quantity"]) for l in food["orderline"] if l["order_id"] == o["id"])
            out.append(dict(o, lines=lines))
    return out
'''
