"""The restaurants a world's food app lists: a fixed catalogue of cuisines and menus (option groups and
add-ons included), placed around the persona's office at distances that vary by world."""

from __future__ import annotations

import zlib

__all__ = ["MENUS", "rows"]

_SPICE = ("Spice level", (("Mild", 0.0), ("Medium", 0.0), ("Hot", 0.0)))
_SIZE = ("Size", (("Regular", 0.0), ("Large", 2.5)))
# name, cuisine, rating, minutes, min order, fee, free over; items: (section, name, price, veg, groups, add-ons)
MENUS = (
    ("Golden Wok", "Chinese", 4.6, 30, 15.0, 2.5, 40.0, (
        ("Mains", "Kung pao chicken", 12.5, False, (_SPICE,), (("Extra peanuts", 1.0), ("Extra rice", 1.5))),
        ("Mains", "Mapo tofu", 11.0, True, (_SPICE,), (("Extra rice", 1.5),)),
        ("Noodles", "Beef chow fun", 13.0, False, (_SIZE,), (("Fried egg", 1.2),)),
        ("Dim sum", "Pork dumplings (8)", 8.5, False, (), (("Chili oil", 0.5),)),
        ("Drinks", "Jasmine tea", 2.5, True, (), ()))),
    ("Bella Napoli", "Pizza", 4.4, 35, 20.0, 3.0, 50.0, (
        ("Pizza", "Margherita", 11.0, True, ((("Size"), (("12 inch", 0.0), ("16 inch", 5.0))),), (("Extra cheese", 2.0), ("Olives", 1.0), ("Basil", 0.5))),
        ("Pizza", "Diavola", 13.5, False, ((("Size"), (("12 inch", 0.0), ("16 inch", 5.0))),), (("Extra cheese", 2.0), ("Chili flakes", 0.5))),
        ("Pasta", "Penne arrabbiata", 10.5, True, (), (("Parmesan", 1.0),)),
        ("Desserts", "Tiramisu", 6.0, True, (), ()),
        ("Drinks", "Sparkling water", 2.0, True, (), ()))),
    ("Green Bowl", "Vegetarian", 4.8, 25, 12.0, 1.5, 30.0, (
        ("Bowls", "Falafel bowl", 11.5, True, (_SIZE,), (("Avocado", 2.0), ("Halloumi", 2.5), ("Hummus", 1.0))),
        ("Bowls", "Tofu poke bowl", 12.0, True, (_SIZE,), (("Avocado", 2.0), ("Edamame", 1.0))),
        ("Soups", "Lentil soup", 6.5, True, (), (("Bread", 1.0),)),
        ("Drinks", "Green smoothie", 5.0, True, (), ()))),
    ("Sakura Sushi", "Japanese", 4.7, 40, 25.0, 3.5, 60.0, (
        ("Rolls", "Salmon avocado roll", 9.5, False, (), (("Extra wasabi", 0.0), ("Spicy mayo", 0.5))),
        ("Rolls", "Cucumber roll", 6.0, True, (), (("Sesame", 0.0),)),
        ("Sets", "Lunch set (12 pieces)", 18.0, False, (), (("Miso soup", 2.0), ("Edamame", 2.5))),
        ("Hot", "Chicken teriyaki", 14.0, False, (_SIZE,), ()),
        ("Drinks", "Green tea", 2.0, True, (), ()))),
    ("Burger Barn", "Burgers", 4.2, 25, 10.0, 2.0, 35.0, (
        ("Burgers", "Classic burger", 10.0, False, ((("Cooked"), (("Medium", 0.0), ("Well done", 0.0))),), (("Cheese", 1.0), ("Bacon", 2.0), ("Fries", 3.0))),
        ("Burgers", "Veggie burger", 9.5, True, (), (("Cheese", 1.0), ("Fries", 3.0))),
        ("Sides", "Sweet potato fries", 4.5, True, (_SIZE,), ()),
        ("Drinks", "Lemonade", 3.0, True, (_SIZE,), ()))),
    ("Taco Fiesta", "Mexican", 4.3, 30, 15.0, 2.0, 40.0, (
        ("Tacos", "Chicken tacos (3)", 10.5, False, (_SPICE,), (("Guacamole", 1.5), ("Sour cream", 0.8))),
        ("Tacos", "Bean tacos (3)", 9.0, True, (_SPICE,), (("Guacamole", 1.5), ("Cheese", 1.0))),
        ("Bowls", "Burrito bowl", 12.0, False, (_SPICE,), (("Guacamole", 1.5), ("Extra chicken", 3.0))),
        ("Drinks", "Horchata", 3.5, True, (), ()))),
    ("Spice Route", "Indian", 4.5, 45, 20.0, 2.5, 45.0, (
        ("Curries", "Chicken tikka masala", 14.0, False, (_SPICE,), (("Garlic naan", 2.5), ("Pilau rice", 2.0))),
        ("Curries", "Chana masala", 11.5, True, (_SPICE,), (("Garlic naan", 2.5), ("Pilau rice", 2.0))),
        ("Sides", "Samosas (2)", 5.0, True, (), (("Mint chutney", 0.5),)),
        ("Drinks", "Mango lassi", 4.0, True, (), ()))),
    ("Café Lumière", "Bakery & coffee", 4.1, 20, 8.0, 1.5, 25.0, (
        ("Coffee", "Flat white", 3.8, True, (_SIZE,), (("Oat milk", 0.6), ("Extra shot", 0.8))),
        ("Coffee", "Iced latte", 4.2, True, (_SIZE,), (("Oat milk", 0.6), ("Vanilla syrup", 0.5))),
        ("Bakery", "Croissant", 3.0, True, (), (("Butter & jam", 0.8),)),
        ("Lunch", "Chicken club sandwich", 9.0, False, (), (("Side salad", 2.5),)))),
)


def rows(world_key: str) -> dict[str, list[dict]]:
    """Restaurant, menu item and option rows; distances vary with `world_key` (the same key, the same rows)."""
    out: dict[str, list[dict]] = {"restaurant": [], "menuitem": [], "choice": []}
    for r, (name, cuisine, rating, minutes, min_order, fee, free, items) in enumerate(MENUS, start=1):
        km = round(0.4 + zlib.crc32(f"{world_key}/{name}".encode()) % 60 / 10, 1)
        out["restaurant"].append({"id": r, "name": name, "cuisine": cuisine, "rating": rating, "distance_km": km,
                                  "delivery_min": minutes + int(km * 3), "min_order": min_order, "delivery_fee": fee, "free_delivery_over": free})
        for section, item, price, veg, groups, addons in items:
            iid = len(out["menuitem"]) + 1
            out["menuitem"].append({"id": iid, "restaurant_id": r, "section": section, "name": item, "price": price, "description": "",
                                    "vegetarian": veg})
            for group, options in groups:
                for option, delta in options:
                    out["choice"].append({"id": len(out["choice"]) + 1, "item_id": iid, "group": group, "name": option, "price": delta, "multi": False})
            for option, delta in addons:
                out["choice"].append({"id": len(out["choice"]) + 1, "item_id": iid, "group": "Add-ons", "name": option, "price": delta, "multi": True})
    return out
