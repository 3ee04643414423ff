"""Local Reviews' recipes: golden steps and verifier predicates other families call instead of re-typing the app's
labels (the search box, the reservation form, the list picker, the review form), its row ids or its tables."""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["new_reservations_source", "open_app", "open_business", "open_category", "reserve", "save_to_list", "write_review"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_business(name: str) -> str:
    """Find a business with the search box and open its page."""
    return f'env.fill(env.word("Search") + " places", {name!r})\nenv.press("Enter")\nenv.click({name!r}, role="link")'


def open_category(name: str) -> str:
    """From Discover: list one category's places (best rated first)."""
    return f'env.click("Discover", role="link")\nenv.click({name!r}, role="link")'


def reserve(day: str, time: str, party: int) -> str:
    """On a business's page: reserve a table on `day` (YYYY-MM-DD) at `time` (HH:MM) for `party`, under the user's name."""
    return "\n".join(['env.click("Reserve a table", role="link")', f'env.fill("Date", {day!r})', f'env.select("Time", {time!r})',
                      f'env.fill("Party size", {str(party)!r})', 'env.click("Book table", role="button")'])


def save_to_list(name: str, new: bool) -> str:
    """On a business's page: save it to the list `name`, a new one when `new`."""
    pick = f'env.fill("Or a new list", {name!r})' if new else f'env.select("Save to list", {name!r})'
    return f'{pick}\nenv.click("Save", role="button")'


def write_review(stars: int, text: str, photos: int) -> str:
    """On a business's page: post a review with `stars`, `text` and `photos` (0-3)."""
    star = f"{stars} star" + ("" if stars == 1 else "s")
    return "\n".join(['env.click("Write a review", role="link")', f"env.check({star!r}, True)", f'env.fill("Your review", {text!r})',
                      f'env.select("Photos", {f"{photos} photo" + ("" if photos == 1 else "s")!r})', 'env.click("Post review", role="button")'])


def new_reservations_source(fn: str) -> str:
    """`fn(final)`: the reservations made during the attempt and still booked."""
    return f'''
def {fn}(final):
    rv, before = final.state["reviews"], final.initial_state["reviews"]
    old = {{r["id"] for r in before["reservation"]}}
    return [r for r in rv["reservation"] if r["id"] not in old and r["status"] == "booked"]
'''
