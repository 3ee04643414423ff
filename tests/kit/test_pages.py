"""kit.pages over a hand-written app: a tiny ledger app, written in a temporary folder the way docs/apps.md
tells an author, with a table page (search, filters, pagination), a detail page, a form (create and edit)
and delete / set-field actions; real server, real HTTP, real SQLite."""

from __future__ import annotations

import re
import textwrap

import pytest

from mocked_apps.kit import AppServer
from mocked_apps.kit.pages import MoneyError, parse_money
from mocked_apps.kit.testing import Client

ROUTES = '''
from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit.pages import (Choice, Column, DateRange, Input, MoneyError, Range, Search, Sign, Table, delete_action,
                                   detail_page, form_page, parse_money, set_field_action, signed, table_page, transition_action)

from .models import Entry

router = APIRouter()


def errors(gym, v, row):
    out = {} if v["what"] else {"what": "Enter what it was."}
    try:
        parse_money(v["amount"])
    except MoneyError as err:
        out["amount"] = str(err)
    return out


def save(gym, v, row):
    row = row or Entry(when=gym.now)
    row.what, row.amount, row.kind = v["what"], parse_money(v["amount"]) * (-1 if v["kind"] == "out" else 1), v["kind"] or "out"
    gym.db.add(row)
    gym.db.flush()
    return gym.done(f"/entries/{row.id}", notice="Saved")


INPUTS = (Input("what", "What", required=True), Input("amount", "Amount", "money"),
          Input("kind", "Kind", "select", options=lambda gym, v: [("in", "Money in"), ("out", "Money out")], blank=None))
form_page(router, "/entries/new", title="New entry", inputs=INPUTS, validate=errors, save=save, defaults={"kind": "out"})
form_page(router, "/entries/{row_id}/edit", model=Entry, title=lambda e: f"Edit {e.what}", inputs=INPUTS, validate=errors,
          save=save, initial=lambda e: {"what": e.what, "amount": f"{abs(e.amount):.2f}", "kind": e.kind})
table_page(router, "/", model=Entry, title="Entries", order=(Entry.id,), page_size=3, noun=("entry", "entries"),
           filters=(Search([Entry.what]), DateRange(Entry.when), Range(Entry.amount), Choice("kind", "Kind", Entry.kind), Sign(Entry.amount)),
           table=Table([Column("What", "what", link=lambda e, c: f"/entries/{e.id}"), Column("Amount", lambda e, c: signed(e.amount))]))
detail_page(router, "/entries/{row_id}", model=Entry, title=lambda e: e.what, facts_of=lambda e, c: [("Amount", signed(e.amount)), ("Note", e.note)])
set_field_action(router, "/entries/{row_id}/note", model=Entry, name="note", done=lambda e: f"/entries/{e.id}", notice="Noted")
delete_action(router, "/entries/{row_id}/delete", model=Entry, done="/", notice=lambda e: f"Deleted {e.what}")


def settle(gym, e):
    e.kind = "settled"
    gym.db.add(e)
    return gym.done(f"/entries/{e.id}", notice="Settled")


transition_action(router, "/entries/{row_id}/settle", model=Entry, act=settle, field="kind", source=("out",),
                  settled=lambda e: f"/entries/{e.id}")
'''
MODELS = '''
from pydantic import NaiveDatetime
from sqlmodel import Field, SQLModel


class Entry(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    what: str
    amount: float
    kind: str = "out"
    note: str = ""
    when: NaiveDatetime
'''
ROWS = [("Rent", -900.0, "out", "2026-02-01"), ("Salary", 3000.0, "in", "2026-02-05"), ("Coffee", -4.5, "out", "2026-02-10"),
        ("Refund rent", 900.0, "in", "2026-02-20"), ("Taxi", -30.0, "out", "2026-02-28")]
FILES = {
    "__init__.py": "",
    "manifest.py": 'from mocked_apps.kit import AppManifest\nMANIFEST = AppManifest(name="ledgerette", title="Ledgerette", category="finance", description="Entries.")\n',
    "models.py": MODELS, "routes.py": ROUTES,
    "seed.json": '{"clock": "2026-03-02T09:00:00", "seed": {"entry": [%s]}}' % ", ".join(
        f'{{"id": {i + 1}, "what": "{w}", "amount": {a}, "kind": "{k}", "when": "{d}T09:00:00"}}' for i, (w, a, k, d) in enumerate(ROWS)),
    "templates/layout.html": '{% extends "kit/base.html" %}',
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("apps") / "ledgerette"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    with AppServer(str(root)) as server, Client(server) as client:
        yield client


def _whats(html: str) -> list[str]:
    return re.findall(r'<a href="[^"]*/entries/\d+">([^<]+)</a>', html)


def test_table_filters_search_and_pages(app):
    assert _whats(app.get("/").text) == ["Rent", "Salary", "Coffee"] and "Next page" in app.get("/").text
    assert _whats(app.get("/", page="2").text) == ["Refund rent", "Taxi"]
    assert _whats(app.get("/", q="RENT").text) == ["Rent", "Refund rent"]
    assert _whats(app.get("/", type="credit", min_amount="1000").text) == ["Salary"]
    assert _whats(app.get("/", kind="out", start="2026-02-05", end="2026-02-28").text) == ["Coffee", "Taxi"]
    page = app.get("/", max_amount="$30.00", type="debit").text
    assert _whats(page) == ["Coffee", "Taxi"] and "2 entries match your filters" in page and "Clear filters" in page
    assert app.get("/", start="soon", min_amount="lots", type="both", page="x").status_code == 200  # bad values are ignored
    assert "Nothing here yet." in app.get("/", q="nothing like it").text


def test_form_errors_come_back_on_a_get_that_writes_nothing_then_create_edit_note_delete(app):
    before = app.state()
    location = app.post("/entries/new", what="", amount="12.345", kind="out")
    page = app.get(location).text
    assert location.startswith("/entries/new?check=1") and app.state() == before
    assert "Enter what it was." in page and "Use at most 2 decimals (cents)." in page and 'aria-invalid="true"' in page
    assert 'value="12.345"' in page and 'id="kind" name="kind"' in app.get("/entries/new").text
    created = app.post("/entries/new", what="Lunch", amount="$18.00", kind="out")
    entry = app.state()["entry"][-1]
    assert created.startswith(f"/entries/{entry['id']}?notice=Saved") and (entry["what"], entry["amount"]) == ("Lunch", -18.0)
    assert 'value="18.00"' in app.get(f"/entries/{entry['id']}/edit").text
    app.post(f"/entries/{entry['id']}/edit", what="Team lunch", amount="20", kind="out")
    app.post(f"/entries/{entry['id']}/note", note="  with Ana ")
    detail = app.get(f"/entries/{entry['id']}").text
    assert "<h1>Team lunch</h1>" in detail and "-$20.00" in detail and "with Ana" in detail
    assert app.post(f"/entries/{entry['id']}/settle").endswith("notice=Settled") and app.state()["entry"][-1]["kind"] == "settled"
    settled = app.state()
    assert app.post(f"/entries/{entry['id']}/settle").endswith("notice=This+entry+is+already+settled.") and app.state() == settled
    assert app.post(f"/entries/{entry['id']}/delete") == "/?notice=Deleted+Team+lunch"
    assert app.state() == before
    assert app.http.get(f"/entries/{entry['id']}").status_code == 404
    assert app.http.get("/entries/999/edit").status_code == 404 and app.http.post("/entries/999/delete").status_code == 404


@pytest.mark.parametrize("text, message", [("", "Enter an amount."), ("ten", "Enter an amount in dollars"), ("-5", "more than $0.00"),
                                           ("0.001", "at most 2 decimals"), ("2000000", "above the $1,000,000.00 online limit")])
def test_parse_money_refuses_what_a_person_must_fix(text, message):
    with pytest.raises(MoneyError, match=re.escape(message)):
        parse_money(text)
    assert parse_money(" $1,240.5 ") == 1240.5
