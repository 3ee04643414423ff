"""Screenshots of the shop's main flow into docs/screenshots/shop/: `python -m mocked_apps.shop.screenshots`.

Desktop (1280x800) is numbered; the phone (390x844) shows the home and product pages."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "shop"


def _flow(page, root: str, shot) -> None:
    page.goto(root + "/")
    shot("1-home")
    page.get_by_role("link", name="Merino crew T-shirt").click()
    page.get_by_role("link", name="Navy", exact=True).click()
    shot("2-product")
    page.get_by_label("M", exact=True).check()
    page.get_by_label("Quantity").fill("2")
    page.get_by_role("button", name="Add to cart").click()
    shot("3-cart")
    page.get_by_role("link", name="Proceed to checkout").click()
    page.get_by_label("Payment method").select_option(index=1)
    shot("4-checkout", full=True)
    page.get_by_role("button", name="Place your order").click()
    shot("5-order-placed")
    page.goto(root + "/orders")
    shot("6-orders")
    page.get_by_role("link", name="View order 112-260222-0005").click()
    page.get_by_role("link", name="Return items").click()
    page.get_by_label("Units to return").fill("2")
    page.get_by_label("Reason for return").select_option("Damaged or defective")
    shot("7-return")
    page.get_by_role("button", name="Request return").click()
    shot("8-returns")
    page.goto(root + "/addresses")
    shot("9-addresses")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with AppServer("shop") as server, sync_playwright() as pw:
        browser = launch_chromium(pw)
        for form_factor, size in (("desktop", "1280x800"), ("mobile", "390x844")):
            root = server.url + server.admin.create()["url"].rstrip("/")
            context = browser.new_context(**context_options(form_factor))
            page = context.new_page()
            if form_factor == "desktop":
                _flow(page, root, lambda name, full=False: page.screenshot(path=str(OUT / f"{name}-{size}.png"), full_page=full))
            else:
                page.goto(root + "/")
                page.screenshot(path=str(OUT / f"home-{size}.png"))
                page.goto(root + "/p/5?colour=Blue")
                page.screenshot(path=str(OUT / f"product-{size}.png"))
                page.goto(root + "/orders/5")
                page.screenshot(path=str(OUT / f"order-{size}.png"))
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
