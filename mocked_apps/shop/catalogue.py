"""The shop's catalogue: a fixed set of products in six departments, each in colours and sizes; the stock
of each variant varies by world (the same world key, the same stock), and some variants are sold out."""

from __future__ import annotations

import zlib

__all__ = ["CATEGORIES", "COLOURS", "PRODUCTS", "rows"]

CATEGORIES = ("Clothing", "Shoes", "Bags", "Office", "Home", "Electronics")
COLOURS = {"Black": "#222831", "White": "#f1f3f5", "Navy": "#1c3d6e", "Grey": "#8d99ae", "Red": "#c92a2a", "Green": "#2b8a3e",
           "Blue": "#1971c2", "Sand": "#d9c6a5", "Olive": "#6b7a3a", "Pink": "#e64980", "Yellow": "#f59f00", "Silver": "#ced4da"}
"""Colour name -> the swatch and product picture colour."""

_TOPS = ("XS", "S", "M", "L", "XL")
_FEET = ("38", "39", "40", "41", "42", "43", "44")
# category, name, brand, price, rating, reviews, colours, sizes, description
PRODUCTS = (
    ("Clothing", "Merino crew T-shirt", "Northpeak", 34.0, 4.6, 1280, ("Black", "Navy", "Grey", "White"), _TOPS, "Fine merino wool, breathable, machine washable."),
    ("Clothing", "Zip hoodie", "Loomcraft", 49.5, 4.4, 860, ("Grey", "Navy", "Green"), _TOPS, "Heavy cotton fleece with a two-way zip."),
    ("Clothing", "Packable rain jacket", "Northpeak", 89.0, 4.7, 412, ("Yellow", "Navy", "Black"), _TOPS, "Waterproof, folds into its own pocket."),
    ("Clothing", "Chino trousers", "Loomcraft", 45.0, 4.2, 530, ("Sand", "Navy", "Olive"), ("28", "30", "32", "34", "36"), "Stretch cotton, slim fit."),
    ("Shoes", "Everyday running shoes", "Stride", 79.0, 4.5, 2210, ("Black", "Blue", "White"), _FEET, "Cushioned road shoes for daily miles."),
    ("Shoes", "Canvas sneakers", "Harbor & Co", 42.0, 4.3, 980, ("White", "Navy", "Red"), _FEET, "Classic low-top canvas."),
    ("Shoes", "Wool house slippers", "Loomcraft", 29.0, 4.8, 310, ("Grey", "Pink"), ("S", "M", "L"), "Felted wool, rubber sole."),
    ("Bags", "Commuter backpack 20 L", "Carryall", 68.0, 4.6, 1540, ("Black", "Grey", "Olive"), ("One size",), "Padded 15\" laptop sleeve, water-resistant."),
    ("Bags", "Canvas tote bag", "Harbor & Co", 19.0, 4.4, 720, ("Sand", "Black"), ("One size",), "Heavy canvas with an inside pocket."),
    ("Office", "A5 dotted notebook", "Papier", 12.5, 4.7, 3120, ("Black", "Red", "Green", "Blue"), ("One size",), "160 pages, 100 g paper, lies flat."),
    ("Office", "Gel pens (pack of 12)", "Papier", 9.9, 4.5, 1890, ("Black", "Blue"), ("One size",), "0.5 mm quick-dry ink."),
    ("Office", "LED desk lamp", "Lumen", 39.0, 4.3, 640, ("White", "Black"), ("One size",), "Dimmable, three colour temperatures, USB-C."),
    ("Office", "Ergonomic wireless mouse", "Clik", 29.99, 4.4, 2050, ("Black", "Grey"), ("One size",), "Vertical grip, silent buttons."),
    ("Home", "Ceramic coffee mug", "Kiln", 14.0, 4.6, 880, ("White", "Blue", "Green", "Pink"), ("One size",), "350 ml stoneware, dishwasher safe."),
    ("Home", "Knitted throw blanket", "Loomcraft", 55.0, 4.7, 460, ("Grey", "Sand", "Green"), ("One size",), "130 × 170 cm, cotton knit."),
    ("Electronics", "USB-C fast charger 65 W", "Voltix", 35.0, 4.5, 1710, ("White", "Black"), ("One size",), "Two ports, foldable plug."),
    ("Electronics", "Noise-cancelling headphones", "Sonora", 149.0, 4.6, 3370, ("Black", "Silver", "Navy"), ("One size",), "30-hour battery, over-ear."),
    ("Electronics", "Portable speaker", "Sonora", 59.0, 4.3, 920, ("Black", "Red", "Blue"), ("One size",), "Splash-proof, 12 hours."),
)


def stock(world_key: str, sku: str) -> int:
    """Units of a variant in stock in a world: 0 for about one in six variants, else 1 to 40."""
    h = zlib.crc32(f"{world_key}/{sku}".encode())
    return 0 if h % 6 == 0 else 1 + h // 6 % 40


def rows(world_key: str) -> dict[str, list[dict]]:
    """Category, product and variant rows; stock varies with `world_key`."""
    out: dict[str, list[dict]] = {"category": [{"id": i, "name": c} for i, c in enumerate(CATEGORIES, start=1)], "product": [], "variant": []}
    for pid, (cat, name, brand, price, rating, reviews, colours, sizes, text) in enumerate(PRODUCTS, start=1):
        out["product"].append({"id": pid, "category_id": CATEGORIES.index(cat) + 1, "name": name, "brand": brand, "price": price,
                               "rating": rating, "reviews": reviews, "description": text})
        for colour in colours:
            for size in sizes:
                sku = f"{brand[:3].upper()}-{pid:02d}-{colour[:3].upper()}-{size.replace(' ', '').upper()[:4]}"
                out["variant"].append({"id": len(out["variant"]) + 1, "product_id": pid, "colour": colour, "size": size, "sku": sku,
                                       "stock": stock(world_key, sku)})
    return out
