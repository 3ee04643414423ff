"""The accessibility text a text agent reads on one page of an app in two appearance variants, side by side, through
the real browser and the agent's own page walker (runtime/observe.py). docs/variants.md shows its output:

    .venv/bin/python scripts/variant_axtree.py bank /transactions 0 17

(app, path inside the instance, then two variant seeds; 0 is the app as drawn). `--width 60` sets each column's width.
"""

from __future__ import annotations

import argparse
import asyncio

from playwright.async_api import async_playwright

from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium
from mocked_apps.kit.variant import variant_of, variant_seed
from mocked_apps.registry import resolve
from runtime.observe import snapshot


async def page_texts(app: str, path: str, seeds: tuple[int, ...]) -> list[str]:
    """The walker's text of `path` in a fresh instance of `app` in each variant seed, at the desktop viewport."""
    with AppServer(resolve(app)) as server:
        urls = [server.url + (server.admin.create(variant_seed(s)) if s else server.admin.create())["url"].rstrip("/") + path for s in seeds]
        async with async_playwright() as pw:
            browser = await launch_chromium(pw)
            texts = []
            for url in urls:
                context = await browser.new_context(**context_options("desktop"))
                page = await context.new_page()
                await page.goto(url)
                texts.append((await snapshot(page))["axtree"])
                await context.close()
            await browser.close()
    return texts


def side_by_side(left: str, right: str, width: int) -> str:
    a, b = left.splitlines(), right.splitlines()
    cut = lambda s: s if len(s) <= width else s[: width - 1] + "…"
    return "\n".join(f"{cut(x):<{width}} | {cut(y)}" for x, y in zip(a + [""] * (len(b) - len(a)), b + [""] * (len(a) - len(b))))


def describe(seed: int) -> str:
    v = variant_of(seed)
    return "variant 0 (as drawn)" if v is None else f"variant {seed} (nav {v.nav}, lists {v.lists}, Search -> {v.word('Search')})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("app")
    parser.add_argument("path")
    parser.add_argument("seeds", type=int, nargs=2)
    parser.add_argument("--width", type=int, default=60)
    args = parser.parse_args()
    left, right = asyncio.run(page_texts(args.app, args.path, tuple(args.seeds)))
    print(side_by_side(describe(args.seeds[0]), describe(args.seeds[1]), args.width))
    print(side_by_side("-" * args.width, "-" * args.width, args.width))
    print(side_by_side(left, right, args.width))


if __name__ == "__main__":
    main()
