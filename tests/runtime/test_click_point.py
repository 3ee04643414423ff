"""Clicking an element by id aims at a point that is the element: a link wrapped onto two lines has a box whose
centre is the gap between its lines (the table cell behind it), so a click there followed nothing (the derived
`move` families of notedeck, pulse and taskflow failed their golden runs on such titles)."""

from __future__ import annotations

import asyncio

from playwright.async_api import async_playwright

from mocked_apps.kit.browser import launch_chromium
from runtime.actions import Click
from runtime.execute import _click

PAGE = """<table><tr><td style="width: 90px; font: 16px sans-serif; line-height: 2.4">
<a data-gym-id="1" href="#opened" onclick="document.title = 'followed'">Receive establish</a></td></tr></table>"""


async def _follow_wrapped_link() -> tuple[int, str, str | None]:
    async with async_playwright() as pw:
        browser = await launch_chromium(pw)
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            await page.set_content(PAGE)
            lines = await page.evaluate("document.querySelector('a').getClientRects().length")
            error = await _click(page, Click(element=1), touch=False)
            return lines, await page.title(), error
        finally:
            await browser.close()


def test_a_link_wrapped_onto_two_lines_is_followed():
    lines, title, error = asyncio.run(_follow_wrapped_link())
    assert lines == 2  # the page really wraps it, so the box centre is between the lines
    assert error is None and title == "followed"
