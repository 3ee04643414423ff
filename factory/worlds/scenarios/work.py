"""Work scenarios of the catalogue: closing the month, clients, the team, launches and reviews."""

from __future__ import annotations

from .spec import Bill, Booking, Cast, Doc, Mail, Meet, ScenarioSpec, Spend

WORK: tuple[ScenarioSpec, ...] = (
    ScenarioSpec(
        id="month_end", title="Month-end close", days=(1, 3),
        description="Invoices are due, the budget needs updating and expenses must be filed.",
        beats=(
            Meet(title="Month-end close review", who="colleagues", days=(1, 3), minutes=60, location=("Main meeting room",)),
            Doc(name="Expense report {month} {year}", folder="Finance/Expenses", columns=("Date", "Item", "Amount"),
                rows=(("{key_date}", "Client lunch", "64.20"), ("{key_date}", "Taxi to airport", "38.50"), ("{key_date}", "Train ticket", "86.00"))),
            Mail(subject="Expenses for {month}", body="Hi {user_first}, could you file your expenses for {month} by Friday? The report template is in Finance.",
                 sender="colleague", replies=("Will do - the report is in the drive.",), attach=("Expense report {month} {year}",)),
            Spend(items=(("Client lunch {client}", 40, 120), ("Taxi", 12, 45), ("Conference coffee", 4, 9)), category="card"),
        ),
    ),
    ScenarioSpec(
        id="client_kickoff", title="A new client kicks off",
        description="{client} signs on: meetings to schedule, briefs to share, suppliers to pay.",
        beats=(
            Meet(title="{client} kickoff", who="client", organizer="user", days=(2, 4), hours=(11, 14, 15), location=("Client office", "Video call"),
                 description="First working session with {client}."),
            Doc(name="{client} brief", folder="Clients/{client}", owner="colleague",
                text="{client} wants a refreshed brand and a launch plan. Budget agreed in principle. Kickoff: see calendar."),
            Doc(name="{client} contract", folder="Clients/{client}", text="Statement of work for {client}: discovery, design, delivery. Fee in three instalments."),
            Mail(subject="Welcome aboard, {client}", body="Hi {client_first}, great to have you with us. Attached is the brief we discussed.", sender="user", to="client",
                 cc=("colleague",), replies=("Thanks {user_first}, looking forward to the kickoff.",), attach=("{client} brief",)),
        ),
    ),
    ScenarioSpec(
        id="offsite", title="Planning the team offsite", months=(4, 5, 6, 9, 10),
        description="The team offsite is coming: venue, catering and travel bills, and the agenda.",
        cast=(Cast(key="venue", kind="vendor", names=("{last} Lodge", "{last} House", "The {last} Barn"), roles=("events manager",), category="venue"),),
        beats=(
            Meet(title="Team offsite at {venue}", who="colleagues", days=(8, 14), minutes=240, hours=(9,), location=("{venue}",)),
            Meet(title="Offsite planning", who="colleagues", days=(1, 4), minutes=30),
            Doc(name="Offsite agenda", folder="Team/Offsite", text="Day plan at {venue}: strategy in the morning, workshops after lunch, dinner at 7."),
            Bill(sender="venue", items=(("Venue hire (day)", 1200.0), ("Lunch per person", 28.0), ("Projector", 60.0)), description="offsite venue"),
            Mail(subject="Offsite at {venue} - dietary needs?", body="Hi all, please tell me about dietary needs for the offsite by Wednesday.", sender="user",
                 to="colleagues", cc=("colleague",), replies=("Vegetarian for me, thanks!", "No restrictions here.")),
        ),
    ),
    ScenarioSpec(
        id="product_launch", title="Launching {product}",
        description="{product} launches soon: launch plan, press list, a printing bill and a go/no-go meeting.",
        choices={"product": ("Aurora", "Beacon", "Cobalt", "Drift", "Ember", "Fjord", "Garnet", "Halo", "Ion", "Juniper")},
        beats=(
            Meet(title="{product} go/no-go", who="colleagues", days=(3, 6), minutes=45),
            Meet(title="{product} launch day", who="colleagues", days=(7, 12), minutes=120, hours=(9,), location=("Main meeting room",)),
            Doc(name="{product} launch plan", folder="Projects/{product}", text="Launch checklist for {product}: landing page, press release, partner emails, support FAQ."),
            Doc(name="{product} press list", folder="Projects/{product}", columns=("Outlet", "Contact", "Status"),
                rows=(("Daily Ledger", "newsdesk", "pitched"), ("Tech Weekly", "editor", "to pitch"), ("Local Radio", "producer", "confirmed"))),
            Bill(sender="vendor", items=(("Launch banners", 240.0), ("Flyers (1000)", 130.0)), description="launch materials"),
            Mail(subject="{product} launch date", body="Hi {user_first}, can we confirm the launch date for {product}? Press wants it by Thursday.",
                 sender="colleague", cc=("colleague",), replies=("Let's confirm at the go/no-go.",)),
        ),
    ),
    ScenarioSpec(
        id="hiring", title="Hiring a {opening}",
        description="Interviews for a {opening}: candidates, a scorecard, and a recruiter's invoice.",
        choices={"opening": ("designer", "bookkeeper", "developer", "project manager", "sales lead", "office manager")},
        cast=(Cast(key="recruiter", kind="vendor", names=("{last} Recruitment", "{last} Talent"), roles=("recruiter",), category="recruiting"),
              Cast(key="candidate", kind="service", names=("Candidates",), roles=("candidate", "candidate", "candidate"))),
        beats=(
            Meet(title="Interview: {candidate_first} ({opening})", who="candidate", days=(1, 5), minutes=45, hours=(10, 14)),
            Meet(title="Hiring debrief", who="colleagues", days=(5, 8), minutes=30),
            Doc(name="{opening} scorecard", folder="Hiring", columns=("Candidate", "Skills", "Culture", "Notes"),
                rows=(("{candidate_first}", "4", "5", "strong portfolio"), ("Other applicant", "3", "4", "junior"))),
            Doc(name="{opening} job description", folder="Hiring", text="We are hiring a {opening} to join {company} in {city}."),
            Bill(sender="recruiter", items=(("Placement retainer", 1500.0), ("Job ad listing", 180.0)), description="recruiting services", paid=0.1),
            Mail(subject="Interview for the {opening} role", body="Dear {user_first}, thank you for the invitation; I confirm the interview time.",
                 sender="candidate", replies=("Great, see you then.",)),
        ),
    ),
    ScenarioSpec(
        id="quarterly_review", title="Quarterly business review", months=(1, 4, 7, 10), days=(3, 12),
        description="The quarter closed: numbers to gather, a deck to review and a board meeting.",
        beats=(
            Meet(title="Quarterly review with the board", who="colleagues", days=(4, 9), minutes=90, location=("Main meeting room",)),
            Doc(name="Q{quarter} revenue by client", folder="Finance/Reports", columns=("Client", "Revenue", "Change"),
                rows=(("{client}", "18400.00", "+12%"), ("Other clients", "9200.00", "-3%"))),
            Doc(name="Q{quarter} review notes", folder="Finance/Reports", text="Headline: revenue up, costs flat. Hiring paused until next quarter."),
            Mail(subject="Q{quarter} numbers", body="Hi {user_first}, the Q{quarter} revenue table is in the drive. Can you check the {client} line?",
                 sender="colleague", attach=("Q{quarter} revenue by client",), replies=("Checked - it matches the bank.",)),
        ),
        choices={"quarter": ("1", "2", "3", "4")},
    ),
    ScenarioSpec(
        id="conference_talk", title="Speaking at {conference}",
        description="A talk at {conference} in {dest}: slides, travel, a hotel and the registration fee.",
        choices={"conference": ("DesignConf", "OpsSummit", "DataDays", "CraftWeek", "BuildFest", "RetailLive")},
        cast=(Cast(key="rail", kind="vendor", names=("{last} Rail", "Railway Direct"), roles=("bookings",), category="travel"),
              Cast(key="hotel", kind="vendor", names=("Hotel {last}", "{last} Suites"), roles=("reservations",), category="travel")),
        beats=(
            Booking(what="Train {city} to {dest}", provider="rail", price=(45, 190), day=(6, 9), minutes=150),
            Booking(what="Hotel {hotel}, {dest}", provider="hotel", price=(110, 260), day=(6, 9), hour=(18,), minutes=60),
            Meet(title="Talk rehearsal", who="colleagues", days=(2, 5), minutes=45),
            Doc(name="{conference} talk outline", folder="Talks", text="Opening story, three lessons, a demo, questions. 25 minutes."),
            Spend(items=(("{conference} registration", 150, 450),), category="events", account="checking", count=(1, 1), days_ago=(10, 30)),
        ),
    ),
    ScenarioSpec(
        id="vendor_switch", title="Switching {category_name} supplier",
        description="The {category_name} supplier is changing: quotes to compare, a last bill, a new contract.",
        choices={"category_name": ("cleaning", "printing", "hosting", "catering", "courier")},
        cast=(Cast(key="newvendor", kind="vendor", names=("{last} Services", "{last} & Partners"), roles=("account manager",), category="services"),),
        beats=(
            Doc(name="Supplier quotes", folder="Finance/Suppliers", columns=("Supplier", "Monthly", "Notice"),
                rows=(("{newvendor}", "420.00", "30 days"), ("{vendor}", "465.00", "60 days"))),
            Meet(title="Call with {newvendor}", who="newvendor", organizer="them", days=(1, 5), minutes=30),
            Bill(sender="newvendor", items=(("Setup fee", 150.0), ("First month", 420.0)), description="new supplier setup", paid=0.0),
            Mail(subject="Your quote from {newvendor}", body="Hello {user_first}, attached is our quote as discussed.", sender="newvendor",
                 attach=("Supplier quotes",), replies=("Thanks, we will decide this week.",)),
        ),
    ),
    ScenarioSpec(
        id="audit_prep", title="Getting ready for the audit", months=(2, 3, 4, 9),
        description="The accountants arrive soon: statements, receipts and an engagement letter.",
        cast=(Cast(key="auditor", kind="vendor", names=("{last} Audit", "{last} & Co Accountants"), roles=("audit partner", "audit senior"), category="accounting"),),
        beats=(
            Meet(title="Audit fieldwork", who="auditor", organizer="them", days=(5, 10), minutes=180, hours=(9,), location=("Main meeting room",)),
            Doc(name="Audit request list", folder="Finance/Audit", columns=("Item", "Owner", "Status"),
                rows=(("Bank statements", "{user_first}", "open"), ("Payroll summary", "{colleague_first}", "done"), ("Fixed assets", "{user_first}", "open"))),
            Doc(name="Engagement letter", folder="Finance/Audit", text="{auditor} will audit the accounts of {company} for the year ended December {year}."),
            Bill(sender="auditor", items=(("Audit fee (first instalment)", 2400.0),), description="audit fee", paid=0.2),
            Mail(subject="Audit request list", body="Dear {user_first}, please find our request list attached; the bank statements are the priority.",
                 sender="auditor", attach=("Audit request list",), unread=True),
        ),
    ),
)
