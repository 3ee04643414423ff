"""The accessibility-tree text: the page walker on real pages in Chromium, and parse/find on its output."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest
from playwright.async_api import async_playwright

from runtime.axtree import AxNode, AxNotFound, find, parse_axtree
from mocked_apps.kit.browser import context_options, launch_chromium
from runtime.observe import snapshot

PAGE = """<!doctype html><title>Mail</title>
<header><a href="/"><span aria-hidden="true">✉</span> Mail</a></header>
<nav aria-label="Folders"><a href="/inbox" aria-current="page">Inbox <span>3</span></a><a href="/sent">Sent</a></nav>
<main>
  <h1>Invoice   INV-2041</h1>
  <p>Amount due: <b>$1,240.00</b></p>
  <form>
    <label for="subject">Subject</label><input id="subject" value="Re: Invoice">
    <label>Folder <select name="f"><option>Inbox</option><option selected>Archive</option></select></label>
    <input type="checkbox" id="star" checked><label for="star">Starred</label>
    <input type="password" aria-label="Password" value="abc">
    <span id="lbl">Notes field</span><textarea aria-labelledby="lbl"></textarea>
    <input placeholder="Search mail" type="search">
    <button type="submit" disabled>Send</button>
  </form>
  <details><summary>More</summary><p>Hidden until opened</p></details>
  <div style="display:none"><button>Invisible</button></div>
  <div aria-hidden="true"><button>Also hidden</button></div>
  <table><tr><td>Alice</td><td>$20</td></tr></table>
  <img src="data:," alt="Company logo">
</main>"""

EXPECTED = """[1] link "Mail"
navigation "Folders"
  [2] link "Inbox 3" current
  [3] link "Sent"
main
  heading "Invoice INV-2041" level=1
  text "Amount due: $1,240.00"
  [4] textbox "Subject" value="Re: Invoice"
  [5] combobox "Folder" value="Archive" options="Inbox | Archive"
  [6] checkbox "Starred" checked
  [7] textbox "Password" value="•••"
  text "Notes field"
  [8] textbox "Notes field"
  [9] searchbox "Search mail"
  [10] button "Send" disabled
  [11] button "More"
  text "Alice $20"
  img "Company logo\""""


async def _walk(html: str, max_lines: int = 400, then: str | None = None) -> list[str]:
    async with async_playwright() as pw:
        browser = await launch_chromium(pw)
        page = await (await browser.new_context(**context_options("desktop"))).new_page()
        await page.set_content(html)
        first = (await snapshot(page, max_lines=max_lines))["axtree"]
        out = [first]
        if then:
            await page.evaluate(then)
            out.append((await snapshot(page, max_lines=max_lines))["axtree"])
        await browser.close()
        return out


@pytest.fixture(scope="module")
def walked():
    return asyncio.run(_walk(PAGE, then="document.querySelector('h1').insertAdjacentHTML('beforebegin', '<button>New</button>')"))


def test_walker_output_follows_runtime_md(walked):
    assert walked[0] == EXPECTED.replace('\\"', '"')


def test_ids_are_stable_and_new_elements_get_the_next_number(walked):
    before, after = parse_axtree(walked[0]), parse_axtree(walked[1])
    # inserted above the form, it is numbered after every existing element (the two hidden buttons hold 12 and 13)
    assert find(after, "button", "New").id == 14
    assert [(n.id, n.name) for n in before if n.id] == [(n.id, n.name) for n in after if n.id and n.name != "New"]


def test_line_cap():
    [tree] = asyncio.run(_walk("<main>" + "".join(f"<p>line {i}</p>" for i in range(50)) + "</main>", max_lines=10))
    lines = tree.splitlines()
    assert len(lines) == 11 and lines[-1] == "… 41 more lines not shown"


def test_text_is_cut_at_2000_characters_and_the_tree_at_120000():
    words = " ".join(f"w{i}" for i in range(700))  # 3,989 characters
    [tree] = asyncio.run(_walk("<main>" + "".join(f"<p>{i} {words}</p>" for i in range(100)) + "</main>"))
    lines = tree.splitlines()
    assert lines[1] == "  text " + json.dumps(f"0 {words}"[:2000] + "…", ensure_ascii=False)
    assert len(tree) <= 120_000 and len(lines) < 100  # bounded by characters long before the 400-line cap
    assert lines[-1] == f"… {101 - (len(lines) - 1)} more lines not shown"  # main + 100 paragraphs, less those shown


def test_drive_file_page_shows_the_whole_invoice_with_its_total():
    """A text-only agent reads an invoice's total on the drive's file page (a 300-character cut hid it)."""
    from mocked_apps.drive.tests.drive_client import Drive
    from mocked_apps.kit import AppServer

    with AppServer("mocked_apps.drive") as server:
        drive = Drive(server)
        lines = Counter(line["invoice_id"] for line in drive.state()["invoice_line"])
        invoice, file = max(drive.invoices(), key=lambda pair: lines[pair[0]["id"]])
        [tree] = asyncio.run(_walk_url(f"{drive.base}/file/{file['id']}"))
    label = f"total due ({invoice['currency']})".lower()  # the page shows it in capitals (CSS), as innerText reads it
    [shown] = [line.strip().removeprefix("text ") for line in tree.splitlines() if label in line.lower()]
    assert len(json.loads(shown)) > 300  # the invoice is one text node, longer than the old cut
    assert json.loads(shown).lower().split(label)[1].strip().endswith(f"{invoice['amount']:,.2f}"), shown


async def _walk_url(url: str) -> list[str]:
    async with async_playwright() as pw:
        browser = await launch_chromium(pw)
        page = await (await browser.new_context(**context_options("desktop"))).new_page()
        await page.goto(url)
        tree = (await snapshot(page))["axtree"]
        await browser.close()
        return [tree]


def test_parse_round_trips_every_line(walked):
    nodes = parse_axtree(walked[0])
    assert [n.line() for n in nodes] == [line.strip() for line in walked[0].splitlines()]
    assert nodes[5] == AxNode(id=None, role="heading", name="Invoice INV-2041", attrs={"level": "1"}, depth=1)
    assert find(nodes, "checkbox", "Starred").attrs == {"checked": True}


def test_find_exact_then_substring_then_text():
    nodes = parse_axtree('[1] link "Inbox 3"\n[2] link "Inbox"\n[3] button "Send now"\ntext "Total: $20"')
    assert find(nodes, role="link", name="Inbox").id == 2  # exact beats the earlier substring match
    assert find(nodes, role="button", name="send").id == 3
    assert find(nodes, text="total").role == "text"
    with pytest.raises(AxNotFound) as err:
        find(nodes, role="button", name="Sned")
    assert '[3] button "Send now"' in str(err.value)
    with pytest.raises(AxNotFound, match="roles on this page"):
        find(nodes, role="checkbox", name="Starred")
