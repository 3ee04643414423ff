"""Scenarios where something went wrong: claims, refunds, late deliveries and double charges."""

from __future__ import annotations

from .spec import Bill, Booking, Cast, Doc, Mail, Meet, ScenarioSpec, Spend

TROUBLE: tuple[ScenarioSpec, ...] = (
    ScenarioSpec(
        id="insurance_claim", title="An insurance claim with {insurer}", kind="life",
        description="A burst pipe damaged the flat: a claim with {insurer}, photos, quotes and an assessor's visit.",
        cast=(Cast(key="insurer", kind="service", names=("{last} Insurance", "{last} Mutual"), roles=("claims handler",), category="insurance"),
              Cast(key="plumber", kind="vendor", names=("{last} Plumbing", "{last} Heating & Plumbing"), roles=("office",), category="repairs")),
        beats=(
            Doc(name="Claim {ref} - damage list", folder="Personal/Insurance", columns=("Item", "Estimate"),
                rows=(("Flooring", "850.00"), ("Rug", "120.00"), ("Repainting", "300.00"))),
            Meet(title="Assessor visit ({insurer})", who="insurer", organizer="them", days=(2, 6), minutes=60, hours=(10, 14), location=("Home",)),
            Bill(sender="plumber", items=(("Emergency call-out", 120.0), ("Pipe repair", 185.0)), description="emergency plumbing", paid=0.5),
            Mail(subject="Claim {ref}: next steps", body="Dear {user_first}, we have opened claim {ref}. Please send the damage list and the plumber's invoice.",
                 sender="insurer", attach=("Claim {ref} - damage list",), replies=("Attached is the list; the invoice follows.",)),
        ),
    ),
    ScenarioSpec(
        id="delivery_gone_wrong", title="A delivery gone wrong",
        description="An order from {shop} arrived damaged and late: a return, a refund and a replacement.",
        cast=(Cast(key="shop", kind="vendor", names=("{last} Home Store", "{last} Direct", "{last} Electricals"), roles=("customer service",), category="shopping"),
              Cast(key="carrier", kind="service", names=("{last} Parcel", "{last} Logistics"), roles=("support",), category="delivery")),
        beats=(
            Spend(items=(("Order {ref} {shop}", 80, 480),), category="shopping", count=(1, 1), days_ago=(8, 15), refund=True),
            Mail(subject="Order {ref} arrived damaged", body="Hello, order {ref} arrived two days late with a cracked panel. I would like a replacement or a refund.",
                 sender="user", to="shop", replies=("Sorry to hear that. Please send a photo; we will arrange a collection.", "Photo attached to the ticket, thanks.")),
            Mail(subject="Your parcel {ref} is delayed", body="Your parcel is delayed in the network. New delivery window: two working days.", sender="carrier", days_ago=(9, 12)),
            Meet(title="Collection of order {ref}", who="carrier", organizer="them", days=(1, 4), minutes=120, hours=(8, 12), location=("Home",)),
            Doc(name="Order {ref} complaint log", folder="Personal/Orders", columns=("Date", "Event"),
                rows=(("{key_date}", "Ordered"), ("{key_date}", "Arrived damaged"), ("{key_date}", "Complaint sent"))),
        ),
    ),
    ScenarioSpec(
        id="double_charge", title="Charged twice by {merchant}",
        description="{merchant} charged the card twice: spot the duplicate, dispute it, and track the refund.",
        cast=(Cast(key="merchant", kind="vendor", names=("{last} Electronics", "{last} Outfitters", "{last} Market"), roles=("billing",), category="shopping"),),
        beats=(
            Spend(items=(("{merchant} purchase", 60, 300),), category="shopping", count=(1, 1), days_ago=(3, 8)),
            Spend(items=(("{merchant} purchase", 60, 300),), category="shopping", count=(1, 1), days_ago=(3, 8)),
            Mail(subject="Duplicate charge on my card", body="Hello, I was charged twice for the same purchase at {merchant}. Please refund one of the charges.",
                 sender="user", to="merchant", replies=("We are looking into it; refunds take 3-5 working days.",)),
            Doc(name="Card disputes", folder="Finance", columns=("Merchant", "Reason", "Status"), rows=(("{merchant}", "duplicate charge", "open"),)),
        ),
    ),
    ScenarioSpec(
        id="flight_cancelled", title="A cancelled trip to {dest}",
        description="The outbound train to {dest} was cancelled: rebook, move the meetings, claim compensation.",
        cast=(Cast(key="rail", kind="vendor", names=("{last} Rail", "Railway Direct"), roles=("bookings",), category="travel"),
              Cast(key="hotel", kind="vendor", names=("Hotel {last}", "{last} Suites"), roles=("reservations",), category="travel")),
        beats=(
            Booking(what="Train {city} to {dest} (rebooked)", provider="rail", price=(50, 200), day=(2, 5), minutes=160),
            Booking(what="Hotel {hotel}, {dest}", provider="hotel", price=(100, 240), day=(2, 5), hour=(20,), minutes=60),
            Mail(subject="Cancelled: your train to {dest}", body="We are sorry: your train to {dest} was cancelled. You can claim compensation online.",
                 sender="rail", days_ago=(1, 2), unread=True),
            Meet(title="Client visit in {dest}", who="client", days=(3, 6), minutes=90, location=("{client} office",)),
            Doc(name="Compensation claim {ref}", folder="Travel", text="Claim for the cancelled train to {dest}: ticket refund plus 50% delay compensation."),
        ),
    ),
    ScenarioSpec(
        id="subscription_overcharge", title="A subscription price hike",
        description="{vendor} raised its price without notice: compare invoices, query the bill, decide to cancel.",
        beats=(
            Bill(sender="vendor", items=(("Plan (monthly)", 129.0), ("Price adjustment", 40.0)), description="subscription", paid=0.0),
            Mail(subject="Question about the latest invoice", body="Hi, our latest invoice is higher than the last one. Can you explain the price adjustment?",
                 sender="user", to="vendor", replies=("The plan price changed this month; details are on our website.",)),
            Doc(name="Subscriptions", folder="Finance", columns=("Service", "Monthly", "Renews"),
                rows=(("{vendor}", "129.00", "{key_date}"), ("Cloud storage", "9.99", "{key_date}"))),
            Meet(title="Decide on the {vendor} plan", who="colleague", days=(1, 4), minutes=30),
        ),
    ),
    ScenarioSpec(
        id="broken_appliance", title="The {appliance} broke down", kind="life",
        description="The {appliance} stopped working: warranty, a repair visit and a replacement quote.",
        choices={"appliance": ("washing machine", "fridge", "boiler", "dishwasher", "oven")},
        cast=(Cast(key="repairer", kind="vendor", names=("{last} Appliance Repairs", "{last} Fix"), roles=("engineer",), category="repairs"),),
        beats=(
            Meet(title="{appliance} repair visit", who="repairer", organizer="them", days=(1, 5), minutes=90, hours=(8, 13), location=("Home",)),
            Bill(sender="repairer", items=(("Call-out", 75.0), ("Replacement part", 140.0), ("Labour (hour)", 60.0)), description="appliance repair", paid=0.3),
            Doc(name="{appliance} warranty", folder="Personal/Home", text="Warranty for the {appliance}: two years parts and labour from the purchase date."),
            Mail(subject="Repair booking for your {appliance}", body="Hi {user_first}, our engineer will call on the day. Please have the warranty to hand.", sender="repairer"),
        ),
    ),
    ScenarioSpec(
        id="lost_luggage", title="Lost luggage after {dest}", kind="life",
        description="A suitcase went missing on the way back from {dest}: a report, receipts for essentials and a claim.",
        cast=(Cast(key="carrier", kind="service", names=("{last} Airways", "{last} Coaches"), roles=("baggage services",), category="travel"),),
        beats=(
            Spend(items=(("Toiletries", 8, 30), ("Change of clothes", 40, 120)), category="shopping", count=(2, 3), days_ago=(1, 4)),
            Doc(name="Baggage report {ref}", folder="Travel", text="Missing: one blue suitcase, tagged {ref}, travelling from {dest}."),
            Mail(subject="Baggage report {ref}", body="Dear passenger, we have registered your report {ref}. Keep receipts for essential purchases.",
                 sender="carrier", replies=("Thanks - receipts attached.",)),
        ),
    ),
    ScenarioSpec(
        id="late_payment", title="A client pays late",
        description="{client} is late paying: reminders, a statement, and a call to agree a date.",
        beats=(
            Doc(name="{client} statement", folder="Clients/{client}", columns=("Invoice", "Amount", "Status"),
                rows=(("SO-{ref}", "4200.00", "overdue"), ("SO-{ref}-2", "1800.00", "open"))),
            Mail(subject="Overdue: invoice SO-{ref}", body="Hi {client_first}, invoice SO-{ref} is now overdue. Could you let me know when it will be paid?",
                 sender="user", to="client", replies=("Apologies - it is with our finance team.",), attach=("{client} statement",)),
            Meet(title="Payment call with {client}", who="client", days=(1, 4), minutes=30),
        ),
    ),
)
