"""Food Delivery: a deterministic food-delivery app in the manner of Meituan (restaurants, menus with options, cart rules, coupons, tracking, reorder)."""
