"""Shipped personas and scenarios, and the pools the procedural builder draws from."""

from __future__ import annotations

from datetime import datetime

from .model import Persona, Scenario

PERSONAS: dict[str, Persona] = {
    p.id: p
    for p in (
        Persona(id="alex", name="Alex Morgan", email="alex.morgan@northwind.example", role="operations manager",
                company="Northwind Studio", domain="northwind.example", style="friendly"),
        Persona(id="rosa", name="Rosa Delgado", email="rosa@delgadobakery.example", role="owner",
                company="Delgado Bakery", domain="delgadobakery.example", style="terse"),
        Persona(id="kenji", name="Kenji Watanabe", email="kenji@kwconsult.example", role="principal consultant",
                company="Watanabe Consulting", domain="kwconsult.example", style="formal"),
    )
}

SCENARIOS: dict[str, Scenario] = {
    s.id: s
    for s in (
        Scenario(id="month_end", title="Month-end close", clock=datetime(2026, 3, 2, 9, 0),
                 description="Invoices are due, the budget needs updating and expenses must be filed."),
        Scenario(id="client_kickoff", title="A new client kicks off", clock=datetime(2026, 4, 6, 8, 30),
                 description="A new client signs on: meetings to schedule, briefs to share, suppliers to pay."),
        Scenario(id="offsite", title="Planning the team offsite", clock=datetime(2026, 5, 11, 9, 15),
                 description="The team offsite is coming: venue, catering and travel bills, and the agenda."),
    )
}

ROLES = {
    "alex": ["designer", "finance lead", "account lead", "developer", "intern", "copywriter"],
    "rosa": ["head baker", "shift lead", "bookkeeper", "barista", "delivery driver"],
    "kenji": ["associate consultant", "bookkeeper", "project coordinator", "data engineer"],
}

VENDOR_CATEGORIES = {
    "alex": ["printing", "hosting", "catering", "software", "office supplies", "courier"],
    "rosa": ["flour", "dairy", "coffee", "packaging", "cleaning", "equipment repair"],
    "kenji": ["hosting", "software", "coworking", "accounting", "travel", "office supplies"],
}

VENDORS = {
    "printing": (["Brightline Print Co", "Inkwell Press", "Paperjam Printers"], [("Brochure print run", 620.0), ("Business cards (500)", 85.0), ("Poster A2", 42.5), ("Proof copies", 35.0)]),
    "hosting": (["CloudNest Hosting", "Skyrack Servers", "Bytebarn Cloud"], [("Monthly hosting plan", 89.0), ("Backup storage 500 GB", 25.0), ("SSL certificate", 59.0)]),
    "catering": (["Green Leaf Catering", "Harvest Table", "Saffron Kitchen"], [("Lunch buffet per person", 24.5), ("Coffee service", 60.0), ("Dessert platter", 48.0)]),
    "software": (["Pixelforge Software", "Tasklane", "Ledgerly"], [("Team licence (monthly)", 149.0), ("Extra seat", 19.0), ("Onboarding session", 250.0)]),
    "office supplies": (["Deskmate Supplies", "Staple Street", "Officeworks Depot"], [("Printer paper (box)", 38.0), ("Toner cartridge", 112.0), ("Notebooks (pack of 10)", 27.5)]),
    "courier": (["Swift Parcel", "Metro Couriers"], [("Same-day delivery", 32.0), ("Document pouch", 12.0)]),
    "flour": (["Millstone Flour Co", "Golden Sheaf Mills"], [("Bread flour 25 kg", 31.0), ("Rye flour 10 kg", 18.5), ("Semolina 10 kg", 16.0)]),
    "dairy": (["Clover Hill Dairy", "Meadowbrook Farms"], [("Butter 10 kg", 94.0), ("Whole milk 20 L", 26.0), ("Cream 5 L", 21.5)]),
    "coffee": (["Roastery Nine", "Blue Harbour Coffee"], [("Espresso beans 5 kg", 112.0), ("Decaf beans 1 kg", 24.0)]),
    "packaging": (["Boxwise Packaging", "Kraft & Co"], [("Cake boxes (100)", 46.0), ("Paper bags (500)", 38.5), ("Cups (1000)", 72.0)]),
    "cleaning": (["Sparkle Commercial Cleaning"], [("Weekly deep clean", 180.0), ("Oven degreasing", 95.0)]),
    "equipment repair": (["Ovenfix Services"], [("Oven service call", 140.0), ("Thermostat part", 65.0)]),
    "coworking": (["Hive Coworking", "Commonroom Spaces"], [("Hot desk (monthly)", 210.0), ("Meeting room (hour)", 35.0)]),
    "accounting": (["Ledger & Lane Accountants"], [("Quarterly bookkeeping", 450.0), ("Tax filing", 300.0)]),
    "travel": (["Railway Direct", "Skyline Travel"], [("Return train ticket", 86.0), ("Hotel night", 129.0)]),
}

CLIENTS = ["Harbour Foods", "Atlas Outdoor", "Lumen Health", "Riverbend Books", "Copperleaf Hotels", "Summit Fitness"]

FIRST = ["Priya", "Marcus", "Elena", "Tom", "Sara", "Jordan", "Mia", "Sam", "Dana", "Leo", "Nina", "Omar", "Grace",
         "Hugo", "Ines", "Jonas", "Kira", "Luca", "Maya", "Noah", "Olivia", "Pablo", "Quinn", "Ruth", "Soren",
         "Tara", "Umar", "Vera", "Wes", "Yara", "Zoe", "Aiden", "Bea", "Carl", "Dev", "Esme"]
LAST = ["Shah", "Chen", "Rossi", "Becker", "Lind", "Blake", "Torres", "Okafor", "Whitfield", "Novak", "Haddad",
        "Kim", "Moreau", "Silva", "Larsen", "Ito", "Mensah", "Costa", "Walsh", "Petrov", "Ahmed", "Brennan",
        "Duarte", "Fischer", "Gallo", "Hughes", "Jensen", "Kowalski", "Murphy", "Nakamura"]
ROOMS = ["Room 2A", "Main meeting room", "Video call", "Client office", "Studio kitchen", "Phone booth 1"]
