"""The bank app over real HTTP and a real browser: bill pay with review, transfers, payees, filters, statements."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served

UNPAID = {"POS-93200", "GH-45927", "LS-85810"}  # the default world's unpaid invoices


class Bank(Client):
    """A fresh bank instance: a pay or transfer form that passes validation lands on its pending transfer."""

    def review(self, path: str, **data) -> int:
        """Submit a pay/transfer form that must pass validation; returns the pending transfer id."""
        location = self.post(path, **data)
        match = re.fullmatch(r"/transfers/(\d+)", location)
        assert match, location
        return int(match.group(1))


server = served("mocked_apps.bank")


@pytest.fixture
def bank(server):
    with Bank(server) as instance:
        yield instance


def _balances(state) -> dict[int, float]:
    return {a["id"]: a["balance"] for a in state["account"]}


def _tx_ids(html: str) -> set[int]:
    return {int(i) for i in re.findall(r'/transactions/(\d+)"', html)}


# ---- seed ----------------------------------------------------------------------------------------------
def test_default_seed_is_a_coherent_ledger(bank):
    """The seed is the default world's projection (tests/test_default_seeds.py); here: the ledger it makes adds up."""
    state = bank.state()
    assert [a["kind"] for a in state["account"]] == ["checking", "savings", "credit"]
    for account in state["account"]:
        lines = sorted((t for t in state["transaction"] if t["account_id"] == account["id"]), key=lambda t: (t["posted_at"], t["id"]))
        running = round(lines[0]["balance_after"] - lines[0]["amount"], 2) if lines else account["balance"]
        for line in lines:
            running = round(running + line["amount"], 2)
            assert line["balance_after"] == running, line
        assert account["balance"] == running
    paid = {t["id"]: t for t in state["transfer"]}
    assert paid and all(t["status"] == "confirmed" for t in paid.values())
    for line in (t for t in state["transaction"] if t["transfer_id"]):
        assert paid[line["transfer_id"]]["amount"] == -line["amount"] and paid[line["transfer_id"]]["memo"] == line["reference"]
    assert not {t["reference"] for t in state["transaction"]} & UNPAID


# ---- bill pay ------------------------------------------------------------------------------------------
def test_bill_pay_review_then_confirm_moves_money_exactly(bank):
    before = bank.state()
    checking = _balances(before)[1]
    tid = bank.review("/pay", from_account="1", payee="1", amount="$754.50", memo="POS-93200")

    pending = bank.state()
    assert pending["account"] == before["account"] and pending["transaction"] == before["transaction"]
    row = pending["transfer"][-1]
    assert (row["id"], row["kind"], row["status"], row["payee_name"], row["amount"], row["memo"]) == (
        tid, "payment", "pending", "Peterson Office Supplies", 754.5, "POS-93200")
    page = bank.get(f"/transfers/{tid}").text
    assert "Review payment" in page and "$754.50" in page and "POS-93200" in page and "Confirm payment" in page

    assert bank.post(f"/transfers/{tid}/confirm").startswith(f"/transfers/{tid}?notice=Payment")
    after = bank.state()
    assert _balances(after) == {**_balances(before), 1: round(checking - 754.50, 2)}
    (line,) = [t for t in after["transaction"] if t["transfer_id"] == tid]
    assert line["amount"] == -754.5 and line["account_id"] == 1 and line["reference"] == "POS-93200"
    assert line["counterparty"] == "Peterson Office Supplies" and line["category"] == "Office Supplies"
    assert line["balance_after"] == round(checking - 754.50, 2)
    assert line["posted_at"] == "2026-03-02 09:01:00.000000"  # created 09:00, the review step took a minute
    assert after["transfer"][-1]["status"] == "confirmed"
    assert "Payment sent" in bank.get(f"/transfers/{tid}").text

    # a second Confirm (double click, back button) moves nothing
    bank.post(f"/transfers/{tid}/confirm")
    assert bank.state() == after


def test_cancel_changes_nothing_that_matters(bank):
    before = bank.state()
    tid = bank.review("/pay", from_account="1", payee="3", amount="392.00", memo="GH-45927")
    assert bank.post(f"/transfers/{tid}/cancel").startswith("/transfers?notice=")
    after = bank.state()
    assert after["account"] == before["account"] and after["transaction"] == before["transaction"]
    assert after["payee"] == before["payee"] and after["transfer"][-1]["status"] == "cancelled"
    bank.post(f"/transfers/{tid}/confirm")
    assert bank.state() == after
    assert "Payment cancelled" in bank.get(f"/transfers/{tid}").text


def test_insufficient_funds_is_a_form_error(bank):
    before = bank.state()
    location = bank.post("/pay", from_account="1", payee="1", amount="50000", memo="POS-93200")
    assert location.startswith("/pay?") and "check=1" in location
    page = bank.get(location).text
    assert "Insufficient funds: Business Checking has $40,691.00 available." in page
    assert 'role="alert"' in page and 'value="50000"' in page and 'value="POS-93200"' in page
    assert bank.state() == before

    for bad in [dict(amount="lots"), dict(payee="999")]:  # every amount the kit's parse_money refuses: tests/kit
        location = bank.post("/pay", **{"from_account": "1", "payee": "1", "amount": "10", **bad})
        assert location.startswith("/pay?") and 'role="alert"' in bank.get(location).text
    assert bank.state() == before

    # funds that vanish between review and confirm: the second confirm is refused, nothing moves
    first = bank.review("/pay", from_account="1", payee="1", amount="30000")
    second = bank.review("/pay", from_account="1", payee="3", amount="30000")
    bank.post(f"/transfers/{first}/confirm")
    middle = bank.state()
    assert bank.post(f"/transfers/{second}/confirm") == f"/transfers/{second}?error=insufficient"
    assert bank.state() == middle
    assert "Insufficient funds" in bank.get(f"/transfers/{second}", error="insufficient").text


# ---- transfers -----------------------------------------------------------------------------------------
def test_transfer_between_own_accounts_keeps_the_total(bank):
    before = _balances(bank.state())
    tid = bank.review("/transfer", from_account="2", to_account="1", amount="2500", memo="Cover payroll")
    assert _balances(bank.state()) == before
    bank.post(f"/transfers/{tid}/confirm")
    owed = f"{-before[3]:.2f}"
    card = bank.review("/transfer", from_account="1", to_account="3", amount=owed, memo="Card payment")
    bank.post(f"/transfers/{card}/confirm")
    state = bank.state()
    after = _balances(state)
    assert after == {1: round(before[1] + 2500 + before[3], 2), 2: round(before[2] - 2500, 2), 3: 0.0}
    assert round(sum(after.values()), 2) == round(sum(before.values()), 2)
    lines = sorted((t["account_id"], t["amount"], t["category"]) for t in state["transaction"] if t["transfer_id"] == tid)
    assert lines == [(1, 2500.0, "Transfer"), (2, -2500.0, "Transfer")]

    location = bank.post("/transfer", from_account="1", to_account="1", amount="5")
    assert "Choose a different account" in bank.get(location).text
    location = bank.post("/transfer", from_account="2", to_account="1", amount="999999")
    assert "Insufficient funds: Business Savings" in bank.get(location).text
    assert bank.state() == state


# ---- payees --------------------------------------------------------------------------------------------
def test_payee_add_edit_delete(bank):
    before = bank.state()
    location = bank.post("/payees/new", name="Northshore Video LLC", account_ref="NV-118", category="Contractors")
    new = bank.state()["payee"][-1]
    assert location.startswith(f"/payees/{new['id']}")
    assert (new["name"], new["account_ref"], new["category"]) == ("Northshore Video LLC", "NV-118", "Contractors")
    assert "Northshore Video LLC" in bank.get("/payees").text

    location = bank.post("/payees/new", name="hughes express")
    assert location.startswith("/payees/new?") and "already have a payee named Hughes Express" in bank.get(location).text
    location = bank.post(f"/payees/{new['id']}/edit", name="  ")
    assert "Enter the payee" in bank.get(location).text

    bank.post(f"/payees/{new['id']}/edit", name="Northshore Video", account_ref="NV-200", category="Professional services")
    edited = bank.state()["payee"][-1]
    assert (edited["name"], edited["account_ref"], edited["category"]) == ("Northshore Video", "NV-200", "Professional services")

    paid = bank.review("/pay", from_account="1", payee=str(new["id"]), amount="100")
    assert bank.post(f"/payees/{new['id']}/delete").startswith("/payees?notice=")
    state = bank.state()
    assert state["payee"] == before["payee"]
    assert state["transfer"][-1]["id"] == paid and state["transfer"][-1]["status"] == "cancelled"
    assert bank.http.get(f"/payees/{new['id']}").status_code == 404


# ---- search, filters, details, statements ---------------------------------------------------------------
def test_transaction_search_and_filters(bank):
    txs = bank.state()["transaction"]

    def expect(pred):
        return {t["id"] for t in txs if pred(t)}

    assert _tx_ids(bank.get("/transactions", q="copperleaf").text) == expect(lambda t: "copperleaf" in t["description"].lower())
    assert _tx_ids(bank.get("/transactions", q="PO-646").text) == expect(lambda t: t["reference"] == "PO-646") != set()
    card = bank.get("/accounts/3", start="2026-02-01", end="2026-02-14", type="debit").text
    assert _tx_ids(card) == expect(
        lambda t: t["account_id"] == 3 and "2026-02-01" <= t["posted_at"][:10] <= "2026-02-14" and t["amount"] < 0) != set()
    ranged = bank.get("/transactions", min_amount="40", max_amount="80", category="Card").text
    assert _tx_ids(ranged) == expect(lambda t: 40 <= abs(t["amount"]) <= 80 and t["category"] == "Card") != set()
    # the filters' own rules (bad values ignored, paging, the empty line) are the kit's: tests/kit/test_pages.py

    bank.post("/transactions/1/category", category="Travel")
    assert bank.state()["transaction"][0]["category"] == "Travel"


def test_statements_chain_opening_and_closing_balances(bank):
    state = bank.state()
    page = bank.get("/statements").text
    active = [a for a in state["account"] if any(t["account_id"] == a["id"] for t in state["transaction"])]
    assert len(active) >= 2 and "No statements yet." in page  # savings has no activity in the default world
    for account in active:
        for month in ("2026-01", "2026-02"):
            assert f"/statements/{account['id']}/{month}" in page
    for account in active:
        amounts = {}
        for month in ("2026-01", "2026-02"):
            html = bank.get(f"/statements/{account['id']}/{month}").text
            values = re.findall(r'<div class="big">(-?\$[\d,]+\.\d\d)</div>', html)
            opening, credits, debits, closing = (float(v.replace("$", "").replace(",", "")) for v in values)
            assert round(opening + credits + debits, 2) == closing
            lines = [t for t in state["transaction"] if t["account_id"] == account["id"] and t["posted_at"].startswith(month)]
            assert _tx_ids(html) == {t["id"] for t in lines}
            amounts[month] = (opening, closing)
        assert amounts["2026-02"][0] == amounts["2026-01"][1]
        assert amounts["2026-02"][1] == account["balance"]
    assert bank.http.get("/statements/1/2026-03").status_code == 404


# ---- the real browser ----------------------------------------------------------------------------------
def test_browser_pays_bills_at_desktop_and_phone_size(bank, tmp_path):
    from playwright.sync_api import expect

    shots = Path(os.environ.get("BANK_SCREENSHOTS", tmp_path))
    bills = {"desktop": ("Green Hosting (45-408571)", "392.00", "GH-45927"), "mobile": ("Leach Software (66-802908)", "149.00", "LS-85810")}
    with browser_pages() as pages:
        for form_factor, page in pages:
            payee, amount, memo = bills[form_factor]
            page.goto(bank.url("/"))
            expect(page.get_by_role("heading", name="Accounts", exact=True)).to_be_visible()
            expect(page.get_by_role("link", name="Business Checking", exact=True)).to_be_visible()
            page.screenshot(path=str(shots / f"bank-{form_factor}.png"), full_page=True)

            page.get_by_role("navigation").get_by_role("link", name="Pay a bill").click()
            page.get_by_label("From account").select_option(label="Business Checking •••• 4821")
            page.get_by_label("Payee").select_option(label=payee)
            page.get_by_label("Amount").fill(amount)
            page.get_by_label("Memo / reference").fill(memo)
            page.get_by_role("button", name="Review payment").click()
            expect(page.get_by_role("heading", name="Review payment")).to_be_visible()
            page.screenshot(path=str(shots / f"bank-{form_factor}-review.png"), full_page=True)
            page.get_by_role("button", name="Confirm payment").click()
            expect(page.get_by_role("heading", name="Payment sent")).to_be_visible()
    errors = pages.errors
    assert errors == []
    state = bank.state()
    posted = {t["reference"]: t["amount"] for t in state["transaction"] if t["reference"] in UNPAID}
    assert posted == {"GH-45927": -392.0, "LS-85810": -149.0}
    assert _balances(state)[1] == round(40691.0 - 392.0 - 149.0, 2)
    for name in ("bank-desktop.png", "bank-mobile.png"):
        assert (shots / name).stat().st_size > 10_000
