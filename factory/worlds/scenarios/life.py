"""Private-life scenarios of the catalogue: trips, health, home, study and family."""

from __future__ import annotations

from .spec import Bill, Booking, Cast, Doc, Mail, Meet, ScenarioSpec, Spend

_RAIL = Cast(key="rail", kind="vendor", names=("{last} Rail", "Railway Direct", "{last} Trains"), roles=("bookings",), category="travel")
_HOTEL = Cast(key="hotel", kind="vendor", names=("Hotel {last}", "{last} Inn", "The {last} Hotel"), roles=("reservations",), category="travel")

LIFE: tuple[ScenarioSpec, ...] = (
    ScenarioSpec(
        id="trip", title="A trip to {dest}", kind="life",
        description="A trip to {dest}: trains there and back, two hotel nights, and an itinerary to keep straight.",
        cast=(_RAIL, _HOTEL),
        beats=(
            Booking(what="Train {city} to {dest}", provider="rail", price=(35, 160), day=(4, 8), minutes=180),
            Booking(what="Train {dest} to {city}", provider="rail", price=(35, 160), day=(10, 12), hour=(16, 18), minutes=180),
            Booking(what="Hotel {hotel}, {dest}", provider="hotel", price=(180, 420), day=(4, 8), hour=(19,), minutes=60),
            Doc(name="Itinerary {dest}", folder="Travel", text="Out by train, two nights at {hotel}, back by train. Pack the charger."),
            Spend(items=(("Travel insurance", 18, 45), ("Currency exchange", 50, 200)), category="travel", count=(1, 2), days_ago=(1, 10)),
        ),
    ),
    ScenarioSpec(
        id="medical_series", title="A series of appointments at {clinic}", kind="life",
        description="Physiotherapy at {clinic}: weekly appointments, a referral letter and the bills.",
        cast=(Cast(key="clinic", kind="vendor", names=("{last} Medical Centre", "{last} Physio", "{last} Health Clinic"),
                   roles=("receptionist", "physiotherapist"), category="health"),),
        beats=(
            Meet(title="Physio at {clinic}", who="clinic", organizer="them", days=(-7, 2), count=5, every_days=7, minutes=45, hours=(8, 17), location=("{clinic}",)),
            Doc(name="Referral letter", folder="Personal/Health", text="Referral to {clinic} for six sessions of physiotherapy."),
            Bill(sender="clinic", items=(("Physiotherapy session", 65.0), ("Initial assessment", 90.0)), description="physiotherapy", paid=0.5),
            Mail(subject="Your appointments at {clinic}", body="Dear {user_first}, this confirms your weekly appointments. Please arrive ten minutes early.",
                 sender="clinic"),
        ),
    ),
    ScenarioSpec(
        id="house_move", title="Moving house", kind="life",
        description="Moving to a new flat: movers to book, a deposit to pay, utilities and addresses to change.",
        cast=(Cast(key="movers", kind="vendor", names=("{last} Removals", "{last} Movers"), roles=("coordinator",), category="moving"),
              Cast(key="landlord", kind="service", names=("{last} Lettings", "{last} Property"), roles=("letting agent",), category="housing")),
        beats=(
            Meet(title="Moving day", who="household", days=(6, 12), minutes=240, hours=(8,), location=("New flat",)),
            Meet(title="Key handover with {landlord}", who="landlord", organizer="them", days=(3, 5), minutes=30, location=("{landlord} office",)),
            Doc(name="Moving checklist", folder="Personal/Move", columns=("Task", "Done"),
                rows=(("Book movers", "yes"), ("Change address at the bank", "no"), ("Meter readings", "no"))),
            Doc(name="Tenancy agreement", folder="Personal/Move", text="Tenancy between {user} and {landlord}, starting on {key_date}. Deposit: five weeks' rent."),
            Bill(sender="movers", items=(("Van and two movers (day)", 620.0), ("Packing boxes (20)", 45.0)), description="house move", paid=0.0),
            Spend(items=(("Deposit {landlord}", 1400, 2600),), category="housing", account="checking", count=(1, 1), days_ago=(3, 12)),
            Mail(subject="Your move with {movers}", body="Hi {user_first}, we have you down for moving day. Please confirm the new address.",
                 sender="movers", replies=("Confirmed, thanks!",)),
        ),
    ),
    ScenarioSpec(
        id="course_term", title="A term of {course}", kind="life", months=(1, 2, 9, 10),
        description="An evening course in {course}: weekly classes, a reading list, the fee and an assignment due.",
        choices={"course": ("Spanish", "pottery", "accounting", "photography", "Python", "French", "woodwork")},
        cast=(Cast(key="school", kind="vendor", names=("{last} Adult College", "{last} Institute"), roles=("course tutor", "admissions"), category="education"),),
        beats=(
            Meet(title="{course} class", who="school", organizer="them", days=(-14, 1), count=6, every_days=7, minutes=90, hours=(18, 19), location=("{school}",)),
            Doc(name="{course} reading list", folder="Personal/Course", columns=("Week", "Reading"),
                rows=(("1", "Introduction"), ("2", "Chapter 2"), ("3", "Workbook pages 10-24"))),
            Doc(name="{course} assignment 1", folder="Personal/Course", text="Draft of the first assignment, due {key_date}."),
            Bill(sender="school", items=(("Term fee", 320.0), ("Materials", 40.0)), description="course fee", paid=0.6),
            Mail(subject="{course}: assignment 1", body="Hello {user_first}, a reminder that assignment 1 is due on {key_date}.", sender="school", unread=True),
        ),
    ),
    ScenarioSpec(
        id="family_event", title="{relative_first}'s {occasion}", kind="life",
        description="A family {occasion} for {relative_first}: a venue, a cake, invitations and a gift.",
        choices={"occasion": ("birthday party", "anniversary dinner", "graduation party", "retirement lunch")},
        cast=(Cast(key="bakery", kind="vendor", names=("{last} Cakes", "{last} Bakery"), roles=("orders",), category="food"),),
        beats=(
            Meet(title="{relative_first}'s {occasion}", who="household", days=(5, 12), minutes=180, hours=(12, 18), location=("Home", "{bakery}")),
            Doc(name="Guest list", folder="Personal/Family", columns=("Name", "RSVP"), rows=(("{relative}", "yes"), ("Neighbours", "maybe"))),
            Bill(sender="bakery", items=(("Celebration cake", 85.0), ("Cupcakes (24)", 48.0)), description="cake order", paid=0.5),
            Spend(items=(("Gift for {relative_first}", 30, 150), ("Decorations", 10, 40)), category="shopping", count=(1, 3)),
            Mail(subject="Plans for {relative_first}'s {occasion}", body="Hey {user_first}, can you sort out the cake? I'll do the invitations.",
                 sender="household", replies=("On it - ordered from {bakery}.",)),
        ),
    ),
    ScenarioSpec(
        id="wedding_guest", title="A wedding in {dest}", kind="life", months=(5, 6, 7, 8, 9),
        description="A friend's wedding in {dest}: RSVP, a hotel room, the gift registry and the train.",
        cast=(_RAIL, _HOTEL),
        beats=(
            Booking(what="Train {city} to {dest}", provider="rail", price=(30, 140), day=(8, 13), minutes=150),
            Booking(what="Hotel {hotel}, {dest}", provider="hotel", price=(120, 300), day=(8, 13), hour=(17,), minutes=60),
            Meet(title="Wedding ceremony", who="household", days=(9, 13), minutes=180, hours=(14,), location=("{dest}",)),
            Spend(items=(("Wedding gift registry", 60, 200), ("Suit dry cleaning", 15, 35)), category="shopping", count=(1, 2)),
        ),
    ),
    ScenarioSpec(
        id="tax_return", title="Filing the tax return", kind="life", months=(1, 3, 4, 10),
        description="The tax return is due: income, receipts and the accountant's fee.",
        cast=(Cast(key="taxadvisor", kind="vendor", names=("{last} Tax Advisers", "{last} Accounting"), roles=("tax adviser",), category="accounting"),),
        beats=(
            Doc(name="Tax return {year} worksheet", folder="Personal/Tax", columns=("Item", "Amount"),
                rows=(("Salary", "54000.00"), ("Freelance income", "3200.00"), ("Donations", "250.00"))),
            Meet(title="Tax call with {taxadvisor}", who="taxadvisor", organizer="them", days=(2, 7), minutes=30),
            Bill(sender="taxadvisor", items=(("Personal tax return", 280.0),), description="tax return", paid=0.0),
            Mail(subject="Documents for your {year} return", body="Dear {user_first}, please send your worksheet before our call.", sender="taxadvisor",
                 replies=("Attached - thanks.",), attach=("Tax return {year} worksheet",)),
        ),
    ),
    ScenarioSpec(
        id="car_service", title="The car's service and MOT", kind="life",
        description="The car is due for its service: a garage booking, a courtesy car and the bill.",
        cast=(Cast(key="garage", kind="vendor", names=("{last} Motors", "{last} Garage", "{last} Auto Repair"), roles=("service advisor",), category="car"),),
        beats=(
            Meet(title="Car service at {garage}", who="garage", organizer="them", days=(1, 6), minutes=60, hours=(8,), location=("{garage}",)),
            Bill(sender="garage", items=(("Annual service", 189.0), ("Brake pads", 95.0), ("Wiper blades", 24.0)), description="car service", paid=0.2),
            Spend(items=(("Fuel", 40, 90), ("Parking", 3, 15)), category="car", count=(2, 4)),
            Mail(subject="Your booking at {garage}", body="Hi {user_first}, your car is booked in. Please leave the keys at reception.", sender="garage"),
        ),
    ),
)
