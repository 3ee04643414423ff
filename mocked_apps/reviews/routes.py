"""Pages and form posts of Local Reviews: discover businesses, a business's page, writing a review.

Reservations live in `booking.py`, bookmark lists in `lists.py`. Form errors re-render the form with the
values typed (422) and write nothing.
"""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from . import booking, lists
from .models import Bookmark, BookmarkList, Business, Review

router = APIRouter()
router.include_router(booking.router)
router.include_router(lists.router)
SORTS = {"rating": "Top rated", "price": "Lowest price", "reviews": "Most reviewed"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def open_now(b: Business, now) -> bool:
    return now.weekday() != b.closed_weekday and b.opens <= f"{now:%H:%M}" < b.closes


@router.get("/")
def discover(gym: GymDep, category: str = "", price: str = "", sort: str = "rating", q: str = ""):
    rows = list(gym.db.exec(select(Business).order_by(Business.id)).all())
    categories = list(dict.fromkeys(b.category for b in rows))
    if category:
        rows = [b for b in rows if b.category == category]
    if price.isdigit():
        rows = [b for b in rows if b.price_level <= int(price)]
    text = q.strip().lower()
    if text:
        rows = [b for b in rows if text in f"{b.name} {b.cuisine} {b.area} {b.category}".lower()]
    sort = sort if sort in SORTS else "rating"
    rows.sort(key={"rating": lambda b: (-b.rating, -b.review_count, b.id), "price": lambda b: (b.avg_price, b.id),
                   "reviews": lambda b: (-b.review_count, b.id)}[sort])
    return gym.render("discover.html", rows=rows, categories=categories, category=category, price=price, sort=sort, sorts=SORTS, q=q,
                      is_open=lambda b: open_now(b, gym.now))


def _business_page(gym, b: Business, **extra):
    reviews = gym.db.exec(select(Review).where(Review.business_id == b.id).order_by(Review.written_at.desc(), Review.id.desc())).all()
    saved_in = {m.list_id for m in gym.db.exec(select(Bookmark).where(Bookmark.business_id == b.id)).all()}
    all_lists = gym.db.exec(select(BookmarkList).order_by(BookmarkList.id)).all()
    return gym.render("business.html", b=b, reviews=reviews, lists=all_lists, saved_in=saved_in, is_open=open_now(b, gym.now),
                      weekdays=WEEKDAYS, **extra)


@router.get("/b/{business_id}")
def business(gym: GymDep, business_id: int):
    return _business_page(gym, gym.get(Business, business_id))


def _review_form(gym, b: Business, values: dict, errors: dict):
    response = gym.render("review_form.html", b=b, values=values, errors=errors)
    if errors:
        response.status_code = 422
    return response


@router.get("/b/{business_id}/review")
def review_form(gym: GymDep, business_id: int):
    return _review_form(gym, gym.get(Business, business_id), {"stars": "", "text": "", "photos": "0"}, {})


@router.post("/b/{business_id}/review")
def post_review(gym: GymDep, business_id: int, stars: str = Form(""), text: str = Form(""), photos: str = Form("0")):
    b = gym.get(Business, business_id)
    values = {"stars": stars, "text": text, "photos": photos}
    errors = {}
    if stars not in ("1", "2", "3", "4", "5"):
        errors["stars"] = "Choose from 1 to 5 stars."
    if len(text.strip()) < 10:
        errors["text"] = "Write at least 10 characters."
    if photos not in ("0", "1", "2", "3"):
        errors["photos"] = "Attach 0 to 3 photos."
    if errors:
        return _review_form(gym, b, values, errors)
    gym.db.add(Review(business_id=b.id, author=gym.identity.name, mine=True, stars=int(stars), text=" ".join(text.split()),
                      photos=int(photos), written_at=gym.now))
    gym.db.flush()
    all_stars = [r.stars for r in gym.db.exec(select(Review).where(Review.business_id == b.id)).all()]
    b.rating, b.review_count = round(sum(all_stars) / len(all_stars), 1), len(all_stars)
    gym.db.add(b)
    gym.advance()
    return gym.done(f"/b/{b.id}", notice="Thanks! Your review is posted")
