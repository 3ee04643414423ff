"""What the food app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="food",
    title="Food Delivery",
    category="food",
    description=(
        "A food-delivery app, mobile-first: restaurants by cuisine, rating, distance and delivery time; menus with "
        "option groups (size, spice) and add-ons; a cart with a minimum order and a delivery fee that is waived over a "
        "threshold; coupons; checkout with address and payment; order tracking; order history and reorder."
    ),
    icon="▦",
    imitates="a food-delivery app (e.g. Meituan, DoorDash, Deliveroo)",
    pages=(
        PageSpec(path="/", title="Restaurants", description="Restaurants by cuisine; sort by rating, distance or delivery time; search."),
        PageSpec(path="/r/1", title="Menu", description="A restaurant's menu by section."),
        PageSpec(path="/r/1/item/1", title="Item", description="Choose options and add-ons, quantity, add to cart."),
        PageSpec(path="/cart", title="Cart", description="Lines, minimum order, delivery fee, coupon, address, payment; place the order."),
        PageSpec(path="/orders", title="Orders", description="Past and current orders; reorder."),
        PageSpec(path="/coupons", title="Coupons", description="The coupon wallet."),
    ),
    consequences={
        "foodorder.number": "the order's id and the clock when it is placed",
        "foodorder.placed_at": "the clock when it is placed",
        "foodorder.eta": "the clock and the restaurant's delivery time",
        "foodorder.subtotal": "the lines of the order",
        "foodorder.delivery_fee": "the restaurant's fee and the subtotal",
        "foodorder.discount": "the coupon",
        "foodorder.total": "subtotal, fee and discount",
        "orderline": "the cart's lines when the order is placed",
        "cartline": "items added to the cart and the cart emptied by placing the order",
        "coupon.used": "the coupon spent on an order",
    },
)
