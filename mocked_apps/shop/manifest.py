"""What the shop declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="shop",
    title="Shop",
    category="shopping",
    description=(
        "An online store for desktop and phone: departments, search and sort; products sold in colour and size "
        "variants, each with its own stock (sold-out sizes cannot be bought); a cart; checkout with an address book, "
        "standard (free over $50) or express shipping and a payment method; orders that can be cancelled until they "
        "ship; returns of delivered items within 30 days with a reason, and their refund states."
    ),
    icon="◈",
    imitates="an online store (e.g. Amazon, Taobao, Zalando)",
    pages=(
        PageSpec(path="/", title="Shop", description="Products by department; search; sort by price or rating."),
        PageSpec(path="/p/1", title="Product", description="Colour swatches, sizes with their stock, quantity, add to cart."),
        PageSpec(path="/cart", title="Cart", description="Lines, quantities, subtotal; proceed to checkout."),
        PageSpec(path="/checkout", title="Checkout", description="Address, shipping speed, payment method; place the order."),
        PageSpec(path="/orders", title="Your orders", description="Open, delivered and cancelled orders."),
        PageSpec(path="/orders/1", title="Order", description="Lines, status, cancel, buy again, return items."),
        PageSpec(path="/orders/1/return", title="Return items", description="Item, units, reason and return method."),
        PageSpec(path="/returns", title="Returns", description="Return requests and their refund state."),
        PageSpec(path="/addresses", title="Addresses", description="The address book; default address."),
        PageSpec(path="/addresses/new", title="Add address", description="A new address, validated."),
    ),
    inert_rows={"returnrequest": {"status": "withdrawn"}, "shoporder": {"status": "cancelled"}},
    consequences={
        "shoporder.number": "the order's id and the clock when it is placed",
        "shoporder.placed_at": "the clock when it is placed",
        "shoporder.arrives": "the clock and the shipping speed",
        "shoporder.ship_to": "the address chosen",
        "shoporder.subtotal": "the lines of the order",
        "shoporder.shipping_fee": "the speed and the subtotal",
        "shoporder.total": "subtotal and shipping",
        "orderline": "the cart's lines when the order is placed",
        "cartline": "items added to the cart and the cart emptied by placing the order",
        "variant.stock": "units ordered (and put back by a cancellation)",
        "returnrequest.refund": "the units returned and the price paid",
        "returnrequest.created_at": "the clock when the return is requested",
        "address.is_default": "a new default address",
    },
)
