"""What the rail app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="rail",
    title="Rail Tickets",
    category="travel",
    description=(
        "A national rail ticketing app, mobile-first: search trains between stations on a date, compare departure and "
        "arrival times, journey durations and seat classes with live seat availability, book for saved passengers, pay, "
        "then refund tickets (with a fee that grows as departure nears) or change to another train; order history."
    ),
    icon="▤",
    imitates="a national rail ticketing app (e.g. China Railway 12306, Trainline)",
    pages=(
        PageSpec(path="/", title="Search trains", description="From, to and travel date; upcoming trips."),
        PageSpec(path="/trains?origin=1&destination=2", title="Trains", description="A route's trains today: times, durations, classes, prices, seats left; filter and sort."),
        PageSpec(path="/orders", title="My orders", description="Upcoming, unpaid and past orders."),
        PageSpec(path="/orders/1", title="Order", description="One order's tickets; pay, cancel, refund or change."),
        PageSpec(path="/passengers", title="Passengers", description="Saved travellers: add, edit, remove."),
        PageSpec(path="/passengers/new", title="Add passenger", description="Save a traveller with their ID number and type."),
    ),
    inert_rows={"orders": {"status": "cancelled"}, "ticket": {"status": "cancelled"}},
    consequences={
        "orders.created_at": "the clock when an order is submitted",
        "orders.paid_at": "the clock when it is paid",
        "orders.number": "the order's id and the clock when it is submitted",
        "orders.total": "the seat class and passengers of the order",
        "orders.changed_to_id": "a change of trip (the new order)",
        "orders.fare_difference": "a change of trip (new fare - old fare)",
        "ticket": "the passengers of a submitted order",
        "ticket.status": "a refund, a change or a cancellation of its order",
        "ticket.refund_amount": "a refund (price less the fee)",
        "ticket.refunded_at": "the clock when it is refunded",
    },
)
