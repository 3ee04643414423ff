"""The businesses every world's reviews app lists, and the reviews written about them (stars, words, photos)."""

from __future__ import annotations

__all__ = ["BUSINESSES", "REVIEWERS", "WORDS"]

# name, category, cuisine, area, street, price level, avg price, opens, closes, closed weekday, reservable, max party, stars of its reviews
BUSINESSES = (
    ("Red Lantern", "Restaurants", "Sichuan", "Chinatown", "88 Lantern Alley", 2, 28.0, "11:00", "22:00", 0, True, 12, (5, 4, 5, 4)),
    ("Trattoria Sole", "Restaurants", "Italian", "Pearl District", "412 Olive Street", 3, 45.0, "12:00", "23:00", 1, True, 10, (5, 5, 4)),
    ("Harbor Oyster Bar", "Restaurants", "Seafood", "Waterfront", "9 Pier Road", 4, 72.0, "17:00", "23:00", -1, True, 8, (4, 5, 4, 3)),
    ("Green Fork", "Restaurants", "Vegetarian", "Downtown", "230 Market Street", 2, 24.0, "10:00", "21:00", 6, True, 8, (5, 4, 4)),
    ("Seoul Grill", "Restaurants", "Korean", "Eastside", "1501 Burnside Avenue", 2, 32.0, "11:30", "22:30", -1, True, 14, (4, 4, 5, 3, 4)),
    ("Taqueria Luna", "Restaurants", "Mexican", "Mission Hill", "77 Luna Street", 1, 14.0, "10:00", "22:00", -1, False, 6, (4, 5, 4)),
    ("Sakura House", "Restaurants", "Japanese", "Downtown", "610 Cherry Lane", 3, 52.0, "11:30", "22:00", 0, True, 6, (5, 4, 5)),
    ("Bistro Margaux", "Restaurants", "French", "Pearl District", "15 Vine Street", 4, 85.0, "18:00", "23:00", 0, True, 6, (5, 5, 4, 5)),
    ("Morning Ritual", "Cafés", "Coffee", "Downtown", "12 Alder Street", 1, 9.0, "07:00", "18:00", -1, False, 4, (5, 4, 4, 5)),
    ("Leaf & Bean", "Cafés", "Tea house", "Chinatown", "45 Jade Road", 2, 15.0, "09:00", "20:00", 2, True, 6, (4, 4, 3)),
    ("The Copper Still", "Bars", "Cocktails", "Pearl District", "300 Copper Street", 3, 38.0, "17:00", "23:30", 0, True, 10, (4, 5, 4)),
    ("Hoppy Days Taproom", "Bars", "Brewery", "Eastside", "820 Hop Street", 2, 22.0, "14:00", "23:00", -1, True, 16, (4, 3, 4, 4)),
    ("Lotus Day Spa", "Beauty & spa", "Massage", "Waterfront", "5 Lotus Court", 3, 90.0, "10:00", "20:00", 1, False, 2, (5, 4, 5)),
    ("Peak Climbing Gym", "Fitness", "Climbing", "Eastside", "2200 Summit Way", 2, 20.0, "06:00", "22:00", -1, False, 4, (5, 5, 4)),
)

REVIEWERS = ("Lily Chen", "Marco Rossi", "Aiko Tanaka", "Sam Patel", "Nora Fischer", "Diego Alvarez", "Hannah Lee", "Omar Farouk")

WORDS = {
    5: ("Outstanding. Everything we ordered was spot on and the staff were lovely.", "Best in the neighbourhood, we keep coming back.",
        "Worth every cent; book ahead on weekends."),
    4: ("Very good, a little noisy at peak hours.", "Solid choice, generous portions and quick service.",
        "Lovely place; the wait was a bit long but fine."),
    3: ("Decent, nothing special. Prices a bit high for what you get.", "Okay overall, service was slow that night."),
}
