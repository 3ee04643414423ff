"""What the reviews app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="reviews",
    title="Local Reviews",
    category="food",
    description=(
        "A local-reviews app, mobile-first: businesses by category and area with opening hours, price level and average "
        "spend per person; star ratings and reviews with photos; write a review; bookmark places into lists of one's own; "
        "reserve a table (date, time within the opening hours, party size) and cancel it."
    ),
    icon="✦",
    imitates="a local-reviews app (e.g. Dianping, Yelp)",
    pages=(
        PageSpec(path="/", title="Discover", description="Businesses by category; filter by price level, sort by rating, price or reviews; search."),
        PageSpec(path="/b/1", title="Business", description="Hours, price, address, photos and reviews; save to a list; reserve."),
        PageSpec(path="/b/1/review", title="Write a review", description="Stars, text and photos."),
        PageSpec(path="/b/1/reserve", title="Reserve a table", description="Date, time, party size and contact."),
        PageSpec(path="/reservations", title="Reservations", description="Upcoming and past reservations; cancel."),
        PageSpec(path="/lists", title="Lists", description="Bookmark lists: create one, remove a saved place."),
    ),
    inert_rows={"reservation": {"status": "cancelled"}},
    consequences={
        "reservation.number": "the reservation's id and the clock when it is made",
        "reservation.created_at": "the clock when it is made",
        "review.written_at": "the clock when a review is posted",
        "business.rating": "the reviews of the business",
        "business.review_count": "the reviews of the business",
    },
)
