"""The three hand-written personas (fixtures), the sectors generated personas work in, the vendor
kinds they buy from, and the scenario catalogue (`SCENARIOS`, from `factory.worlds.scenarios`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from contracts.world import Persona
from .scenarios import CATALOGUE, ScenarioSpec

__all__ = ["CLIENTS", "HABITS", "PERSONAS", "PREFERENCES", "ROOMS", "SCENARIOS", "SECTORS", "Sector", "VENDORS", "VendorKind"]

PERSONAS: dict[str, Persona] = {
    p.id: p
    for p in (
        Persona(id="alex", name="Alex Morgan", email="alex.morgan@northwind.example", role="operations manager",
                company="Northwind Studio", domain="northwind.example", style="friendly", sector="studio",
                city="Portland", address="118 Alder Street, Portland, OR 97205",
                habits=("pays bills on Fridays", "files receipts weekly"), preferences=("morning meetings", "vegetarian")),
        Persona(id="rosa", name="Rosa Delgado", email="rosa@delgadobakery.example", role="owner",
                company="Delgado Bakery", domain="delgadobakery.example", style="terse", sector="bakery",
                city="San Antonio", address="42 Mission Road, San Antonio, TX 78210",
                habits=("starts at 5 am", "orders flour on Mondays"), preferences=("phone over email",)),
        Persona(id="kenji", name="Kenji Watanabe", email="kenji@kwconsult.example", role="principal consultant",
                company="Watanabe Consulting", domain="kwconsult.example", style="formal", sector="consulting",
                city="Seattle", address="900 Pine Street, Seattle, WA 98101",
                habits=("travels by train", "blocks Friday afternoons"), preferences=("window seat", "quiet hotels")),
    )
}

SCENARIOS: dict[str, ScenarioSpec] = CATALOGUE


class Sector(BaseModel):
    """What a company does: who works there and what it buys."""

    model_config = ConfigDict(frozen=True)

    owner_roles: tuple[str, ...]
    roles: tuple[str, ...]
    vendors: tuple[str, ...]
    company_words: tuple[str, ...]


SECTORS: dict[str, Sector] = {
    "studio": Sector(owner_roles=("operations manager", "studio director"), roles=("designer", "finance lead", "account lead", "developer", "intern", "copywriter"),
                     vendors=("printing", "hosting", "catering", "software", "office supplies", "courier"), company_words=("Studio", "Design", "Creative")),
    "bakery": Sector(owner_roles=("owner", "head of operations"), roles=("head baker", "shift lead", "bookkeeper", "barista", "delivery driver"),
                     vendors=("flour", "dairy", "coffee", "packaging", "cleaning", "equipment repair"), company_words=("Bakery", "Bakehouse", "Patisserie")),
    "consulting": Sector(owner_roles=("principal consultant", "managing partner"), roles=("associate consultant", "bookkeeper", "project coordinator", "data engineer"),
                         vendors=("hosting", "software", "coworking", "accounting", "travel", "office supplies"), company_words=("Consulting", "Advisory", "Partners")),
    "software": Sector(owner_roles=("engineering manager", "CTO", "product lead"), roles=("backend engineer", "designer", "QA engineer", "product manager", "support lead", "data analyst"),
                       vendors=("hosting", "software", "coworking", "office supplies", "catering"), company_words=("Labs", "Software", "Systems")),
    "clinic": Sector(owner_roles=("practice manager", "clinic director"), roles=("nurse", "receptionist", "physiotherapist", "billing clerk"),
                     vendors=("medical supplies", "cleaning", "software", "laundry", "office supplies"), company_words=("Clinic", "Health", "Care")),
    "retail": Sector(owner_roles=("store manager", "owner"), roles=("sales associate", "stock lead", "bookkeeper", "visual merchandiser"),
                     vendors=("packaging", "courier", "cleaning", "printing", "equipment repair"), company_words=("Store", "Goods", "Trading")),
    "architecture": Sector(owner_roles=("project architect", "office manager"), roles=("architect", "draughtsperson", "project manager", "intern"),
                           vendors=("printing", "software", "courier", "office supplies", "coworking"), company_words=("Architects", "Atelier", "Build")),
    "nonprofit": Sector(owner_roles=("programme director", "operations lead"), roles=("fundraiser", "volunteer coordinator", "finance officer", "communications officer"),
                        vendors=("printing", "catering", "software", "travel", "office supplies"), company_words=("Foundation", "Trust", "Network")),
    "logistics": Sector(owner_roles=("fleet manager", "operations manager"), roles=("dispatcher", "driver", "warehouse lead", "account manager"),
                        vendors=("fuel", "equipment repair", "software", "cleaning", "packaging"), company_words=("Logistics", "Freight", "Transport")),
    "school": Sector(owner_roles=("head of year", "school administrator"), roles=("teacher", "teaching assistant", "bursar", "librarian"),
                     vendors=("printing", "catering", "software", "office supplies", "travel"), company_words=("Academy", "School", "College")),
}


class VendorKind(BaseModel):
    """A kind of supplier: brand names, name suffixes for generated names, and what it bills for."""

    model_config = ConfigDict(frozen=True)

    names: tuple[str, ...]
    suffixes: tuple[str, ...]
    items: tuple[tuple[str, float], ...]


VENDORS: dict[str, VendorKind] = {
    "printing": VendorKind(names=("Brightline Print Co", "Inkwell Press", "Paperjam Printers"), suffixes=("Print Co", "Printers", "Press"),
                           items=(("Brochure print run", 620.0), ("Business cards (500)", 85.0), ("Poster A2", 42.5), ("Proof copies", 35.0))),
    "hosting": VendorKind(names=("CloudNest Hosting", "Skyrack Servers", "Bytebarn Cloud"), suffixes=("Hosting", "Cloud", "Servers"),
                          items=(("Monthly hosting plan", 89.0), ("Backup storage 500 GB", 25.0), ("SSL certificate", 59.0))),
    "catering": VendorKind(names=("Green Leaf Catering", "Harvest Table", "Saffron Kitchen"), suffixes=("Catering", "Kitchen", "Table"),
                           items=(("Lunch buffet per person", 24.5), ("Coffee service", 60.0), ("Dessert platter", 48.0))),
    "software": VendorKind(names=("Pixelforge Software", "Tasklane", "Ledgerly"), suffixes=("Software", "Apps", "Digital"),
                           items=(("Team licence (monthly)", 149.0), ("Extra seat", 19.0), ("Onboarding session", 250.0))),
    "office supplies": VendorKind(names=("Deskmate Supplies", "Staple Street", "Officeworks Depot"), suffixes=("Office Supplies", "Stationers", "Supply"),
                                  items=(("Printer paper (box)", 38.0), ("Toner cartridge", 112.0), ("Notebooks (pack of 10)", 27.5))),
    "courier": VendorKind(names=("Swift Parcel", "Metro Couriers"), suffixes=("Couriers", "Express", "Parcel"),
                          items=(("Same-day delivery", 32.0), ("Document pouch", 12.0), ("Pallet delivery", 145.0))),
    "flour": VendorKind(names=("Millstone Flour Co", "Golden Sheaf Mills"), suffixes=("Mills", "Flour Co"),
                        items=(("Bread flour 25 kg", 31.0), ("Rye flour 10 kg", 18.5), ("Semolina 10 kg", 16.0))),
    "dairy": VendorKind(names=("Clover Hill Dairy", "Meadowbrook Farms"), suffixes=("Dairy", "Farms"),
                        items=(("Butter 10 kg", 94.0), ("Whole milk 20 L", 26.0), ("Cream 5 L", 21.5))),
    "coffee": VendorKind(names=("Roastery Nine", "Blue Harbour Coffee"), suffixes=("Coffee", "Roasters"),
                         items=(("Espresso beans 5 kg", 112.0), ("Decaf beans 1 kg", 24.0))),
    "packaging": VendorKind(names=("Boxwise Packaging", "Kraft & Co"), suffixes=("Packaging", "Boxes"),
                            items=(("Cake boxes (100)", 46.0), ("Paper bags (500)", 38.5), ("Cups (1000)", 72.0))),
    "cleaning": VendorKind(names=("Sparkle Commercial Cleaning",), suffixes=("Cleaning", "Facility Services"),
                           items=(("Weekly deep clean", 180.0), ("Oven degreasing", 95.0), ("Window cleaning", 70.0))),
    "equipment repair": VendorKind(names=("Ovenfix Services",), suffixes=("Repairs", "Technical Services"),
                                   items=(("Service call", 140.0), ("Thermostat part", 65.0), ("Labour (hour)", 78.0))),
    "coworking": VendorKind(names=("Hive Coworking", "Commonroom Spaces"), suffixes=("Coworking", "Workspace"),
                            items=(("Hot desk (monthly)", 210.0), ("Meeting room (hour)", 35.0))),
    "accounting": VendorKind(names=("Ledger & Lane Accountants",), suffixes=("Accountants", "Bookkeeping"),
                             items=(("Quarterly bookkeeping", 450.0), ("Tax filing", 300.0))),
    "travel": VendorKind(names=("Railway Direct", "Skyline Travel"), suffixes=("Travel", "Tours"),
                         items=(("Return train ticket", 86.0), ("Hotel night", 129.0))),
    "medical supplies": VendorKind(names=("Medline Direct",), suffixes=("Medical Supplies", "Healthcare Supply"),
                                   items=(("Gloves (box of 100)", 12.5), ("Bandages (pack)", 8.0), ("Disinfectant 5 L", 34.0))),
    "laundry": VendorKind(names=("Freshfold Laundry",), suffixes=("Laundry", "Linen Services"),
                          items=(("Linen service (week)", 95.0), ("Towels (50)", 40.0))),
    "fuel": VendorKind(names=("Roadstar Fuel Cards",), suffixes=("Fuels", "Energy"),
                       items=(("Diesel (fleet, week)", 840.0), ("AdBlue 200 L", 120.0))),
}

CLIENTS = ["Harbour Foods", "Atlas Outdoor", "Lumen Health", "Riverbend Books", "Copperleaf Hotels", "Summit Fitness",
           "Northstar Energy", "Bluefin Travel", "Oakridge Schools", "Pioneer Bikes", "Maple & Co", "Quarry Lane Homes"]
CLIENT_SUFFIXES = ["Group", "Holdings", "& Sons", "Partners", "Foods", "Homes", "Retail", "Media"]
ROOMS = ["Room 2A", "Main meeting room", "Video call", "Client office", "Studio kitchen", "Phone booth 1"]
HABITS = ["pays bills on Fridays", "files receipts weekly", "checks the bank every morning", "travels by train",
          "blocks Friday afternoons", "answers email after lunch", "runs before work", "plans the week on Sunday",
          "keeps a paper notebook", "batches meetings on Tuesdays"]
PREFERENCES = ["morning meetings", "vegetarian", "window seat", "quiet hotels", "phone over email", "short meetings",
               "no meetings on Mondays", "gluten-free", "aisle seat", "video calls over travel"]
