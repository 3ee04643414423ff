"""Pages and form posts of the online bank. Lists, details and forms are the kit's generic pages (`kit.pages`)
over the bank's models; what is the bank's own is the money flow (a form -> a pending review -> confirm or
cancel), the overview and the statements. A form error goes back to the form's GET page with `check=1`,
which re-runs the same validation, so no state lives in the browser."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException
from markupsafe import Markup
from sqlmodel import func, select

from mocked_apps.kit import Gym, GymDep
from mocked_apps.kit.filters import dt, money
from mocked_apps.kit.pages import (Choice, Column, DateRange, Input, MoneyError, Range, Search, Sign, Table, as_int, badge, delete_action,
                                   detail_page, form_page, parse_money, set_field_action, short_day, signed, table_page,
                                   transition_action)

from .ledger import available, funds_error, post_transfer, statement, statement_months
from .models import PAYEE_CATEGORIES, Account, Payee, Transaction as Tx, Transfer

router = APIRouter()
METHODS = {"card": "Card purchase", "ach": "ACH", "bill_pay": "Online bill payment", "transfer": "Online transfer",
           "wire": "Wire transfer", "check": "Check", "deposit": "Deposit", "fee": "Bank fee", "interest": "Interest"}


def _accounts(gym: Gym) -> list[Account]:
    return list(gym.db.exec(select(Account).order_by(Account.id)).all())


def _payees(gym: Gym) -> list[Payee]:
    return list(gym.db.exec(select(Payee).order_by(func.lower(Payee.name), Payee.id)).all())


def tx_table(names: bool = False, balance: bool = False) -> Table:
    """Transaction lines: date, description (counterparty and reference under it), account, category, amount."""
    return Table([
        Column("Date", lambda t, c: short_day(t.posted_at), cls="nowrap"),
        Column("Description", "description", link=lambda t, c: f"/transactions/{t.id}",
               sub=lambda t, c: " · ".join(x for x in (t.counterparty, t.reference) if x)),
        *([Column("Account", lambda t, c: c["names"][t.account_id], cls="hide-sm")] if names else []),
        Column("Category", "category", cls="hide-sm"), Column("Amount", lambda t, c: signed(t.amount), cls="right nowrap"),
        *([Column("Balance", lambda t, c: money(t.balance_after), cls="right hide-sm nowrap")] if balance else []),
    ], empty="No transactions match.")


def _names(gym: Gym, ctx: dict | None = None) -> dict:
    return {"names": {a.id: a.name for a in _accounts(gym)}, "url": gym.url}


# ---- overview, accounts, transactions ------------------------------------------------------------------
@router.get("/")
def overview(gym: GymDep):
    accounts = _accounts(gym)
    recent = gym.db.exec(select(Tx).order_by(Tx.posted_at.desc(), Tx.id.desc()).limit(8)).all()
    pending = gym.db.exec(select(Transfer).where(Transfer.status == "pending").order_by(Transfer.id)).all()
    cash = round(sum(a.balance for a in accounts if a.kind != "credit"), 2)
    owed = round(-sum(a.balance for a in accounts if a.kind == "credit"), 2)
    return gym.render("overview.html", accounts=accounts, pending=pending, cash=cash, owed=owed, available=available,
                      recent=tx_table(names=True).html(recent, _names(gym)), names=_names(gym)["names"])


TX_FILTERS = (Search([Tx.description, Tx.counterparty, Tx.reference, Tx.category], placeholder="Description, payee, reference"),
              DateRange(Tx.posted_at), Range(Tx.amount), Choice("category", "Category", Tx.category, "All categories"), Sign(Tx.amount))
TX_LIST = dict(model=Tx, order=(Tx.posted_at.desc(), Tx.id.desc()), filters=TX_FILTERS, noun=("transaction", "transactions"),
               pager=("Newer transactions", "Older transactions"))
table_page(router, "/transactions", title=lambda c: f"Transactions matching “{c['filters']['q']}”" if "q" in c["filters"]
           else "All transactions", table=tx_table(names=True), context=_names, **TX_LIST)
table_page(router, "/accounts/{account_id}", title=lambda c: c["account"].name, table=tx_table(balance=True),
           where=lambda c: [Tx.account_id == c["account"].id], template="account.html", **TX_LIST,
           context=lambda gym, c: {"account": gym.get(Account, as_int(c["account_id"], 0)), "accounts": _accounts(gym),
                                   "available": available})


def _tx_facts(t: Tx, c: dict) -> list:
    a, transfer = c["account"], c["transfer"]
    made = [("Made online", Markup('<a href="{}">{} #{} details</a>').format(
        c["url"](f"/transfers/{transfer.id}"), transfer.kind.capitalize(), transfer.id))] if transfer else []
    return [("Type", "Credit (money in)" if t.amount > 0 else "Debit (money out)"), ("Posted", dt(t.posted_at, "%A, %B %d, %Y %H:%M")),
            ("Account", Markup('<a href="{}">{}</a> {}').format(c["url"](f"/accounts/{a.id}"), a.name, a.number_masked)),
            ("Counterparty", t.counterparty), ("Reference", t.reference), ("Method", METHODS.get(t.method, t.method)),
            ("Balance after", money(t.balance_after)), ("Category", t.category or "Uncategorized"), *made]


detail_page(router, "/transactions/{row_id}", model=Tx, title=lambda t: t.description, facts_of=_tx_facts, template="transaction.html",
            context=lambda gym, t, c: {"account": gym.get(Account, t.account_id), "amount": signed,
                                       "transfer": gym.db.get(Transfer, t.transfer_id) if t.transfer_id else None,
                                       "categories": sorted(set(PAYEE_CATEGORIES) | {t.category} - {""})})
set_field_action(router, "/transactions/{row_id}/category", model=Tx, name="category", done=lambda t: f"/transactions/{t.id}",
                 notice="Category updated")


# ---- payees --------------------------------------------------------------------------------------------
def _payee_errors(gym: Gym, values: dict, payee: Payee | None) -> dict[str, str]:
    if not values["name"]:
        return {"name": "Enter the payee's name."}
    clash = gym.db.exec(select(Payee).where(func.lower(Payee.name) == values["name"].lower())).first()
    if clash is not None and clash.id != (payee.id if payee else None):
        return {"name": f"You already have a payee named {clash.name}."}
    return {}


def _cancel_pending(gym: Gym, payee: Payee) -> None:
    for pending in gym.db.exec(select(Transfer).where(Transfer.payee_id == payee.id, Transfer.status == "pending")).all():
        pending.status = "cancelled"
        gym.db.add(pending)


PAYEE_INPUTS = (Input("name", "Payee name", required=True),
                Input("account_ref", "Account number / reference", placeholder="Your account number with this payee"),
                Input("category", "Category", "select", blank="No category",
                      options=lambda gym, v: [(c, c) for c in sorted(set(PAYEE_CATEGORIES) | {v["category"]} - {""})]))
PAYEE_FORM = dict(model=Payee, inputs=PAYEE_INPUTS, validate=_payee_errors, crumbs=[("Payees", "/payees")], done=lambda p: f"/payees/{p.id}",
                  saved=lambda p, created: f"Payee {p.name} added" if created else "Payee updated")
form_page(router, "/payees/new", title="Add payee", submit="Add payee", cancel="/payees", **PAYEE_FORM)
form_page(router, "/payees/{row_id}/edit", title=lambda p: f"Edit {p.name}", submit="Save payee", cancel=lambda p: f"/payees/{p.id}",
          **PAYEE_FORM)
table_page(router, "/payees", model=Payee, title="Payees", order=(func.lower(Payee.name), Payee.id), actions=[("Add payee", "/payees/new")],
           table=Table([Column("Name", "name", link=lambda p, c: f"/payees/{p.id}"),
                        Column("Account / reference", "account_ref", cls="hide-sm"), Column("Category", "category", cls="hide-sm"),
                        Column("Action", lambda p, c: Markup('<a class="button small" href="{}" aria-label="Pay {}">Pay</a>').format(
                            c["url"]("/pay", payee=p.id), p.name), cls="right")], empty="No payees yet."))
HISTORY = Table([Column("Date", lambda t, c: short_day(t.confirmed_at or t.created_at), link=lambda t, c: f"/transfers/{t.id}", cls="nowrap"),
                 Column("Memo", "memo"), Column("Status", lambda t, c: badge(t.status), cls="hide-sm"),
                 Column("Amount", lambda t, c: money(t.amount), cls="right")])
detail_page(router, "/payees/{row_id}", model=Payee, title=lambda p: p.name, template="payee.html", crumbs=[("Payees", "/payees")],
            facts_of=lambda p, c: [("Account / reference", p.account_ref), ("Category", p.category)],
            context=lambda gym, p, c: {"history": HISTORY.html(gym.db.exec(select(Transfer).where(Transfer.payee_id == p.id)
                                       .order_by(Transfer.id.desc())).all(), c, empty=f"No payments to {p.name} yet.")})
delete_action(router, "/payees/{row_id}/delete", model=Payee, done="/payees", notice=lambda p: f"Payee {p.name} deleted",
              before=_cancel_pending)


# ---- bill pay and transfers: form -> pending review -> confirm or cancel ----------------------------------
def _money_errors(gym: Gym, values: dict) -> tuple[dict[str, str], Account | None]:
    errors: dict[str, str] = {}
    source = gym.db.get(Account, as_int(values["from_account"], 0))
    if source is None:
        errors["from_account"] = "Choose the account to pay from."
    try:
        value = parse_money(values["amount"])
    except MoneyError as err:
        errors["amount"], value = str(err), None
    if source is not None and value is not None and funds_error(source, value):
        errors["amount"] = funds_error(source, value)
    return errors, source


def _payment_errors(gym: Gym, values: dict, _row=None) -> dict[str, str]:
    errors, _ = _money_errors(gym, values)
    if gym.db.get(Payee, as_int(values["payee"], 0)) is None:
        errors["payee"] = "Choose a payee."
    return errors


def _transfer_errors(gym: Gym, values: dict, _row=None) -> dict[str, str]:
    errors, source = _money_errors(gym, values)
    target = gym.db.get(Account, as_int(values["to_account"], 0))
    if target is None:
        errors["to_account"] = "Choose the account to transfer to."
    elif source is not None and source.id == target.id:
        errors["to_account"] = "Choose a different account from the one you transfer from."
    return errors


def _pending(gym: Gym, values: dict, **fields):
    transfer = Transfer(from_account_id=int(values["from_account"]), amount=parse_money(values["amount"]), memo=values["memo"],
                        status="pending", created_at=gym.now, **fields)
    gym.db.add(transfer)
    gym.db.flush()
    gym.advance()
    return gym.done(f"/transfers/{transfer.id}")


def _pay(gym: Gym, values: dict, _row=None):
    payee = gym.get(Payee, int(values["payee"]))
    return _pending(gym, values, kind="payment", payee_id=payee.id, payee_name=payee.name)


def _account_options(gym: Gym, _values=None) -> list[tuple[int, str]]:
    return [(a.id, f"{a.name} {a.number_masked}") for a in _accounts(gym)]


def _account(name: str, label: str, hint=None) -> Input:
    return Input(name, label, "select", options=_account_options, blank="Choose an account", required=True, hint=hint)


AMOUNT = Input("amount", "Amount", "money", placeholder="0.00", required=True)
form_page(router, "/pay", title="Pay a bill", validate=_payment_errors, save=_pay, defaults={"from_account": "1"}, summary=True,
          submit="Review payment", note="Nothing is sent until you confirm on the next page.", inputs=(
              _account("from_account", "From account", lambda gym: "Available now: " + " · ".join(
                  f"{a.name} {money(available(a))}" for a in _accounts(gym))),
              Input("payee", "Payee", "select", blank="Choose a payee", required=True, link=("Not listed?", "Add a payee", "/payees/new"),
                    options=lambda gym, v: [(p.id, f"{p.name} ({p.account_ref})" if p.account_ref else p.name) for p in _payees(gym)]),
              AMOUNT, Input("memo", "Memo / reference", placeholder="e.g. invoice number", maxlength=80)))
form_page(router, "/transfer", title="Transfer money", validate=_transfer_errors, defaults={"from_account": "1", "to_account": "2"},
          save=lambda gym, v, _row: _pending(gym, v, kind="transfer", to_account_id=int(v["to_account"])), summary=True,
          submit="Review transfer", note="Nothing moves until you confirm on the next page.", inputs=(
              _account("from_account", "From"), _account("to_account", "To", lambda gym: "Balances now: " + " · ".join(
                  f"{a.name} {money(-a.balance) + ' owed' if a.kind == 'credit' else money(a.balance)}" for a in _accounts(gym))),
              AMOUNT, Input("memo", "Memo", placeholder="Optional", maxlength=80)))


def _what(t: Transfer, c: dict) -> str:
    return f"Payment to {t.payee_name}" if t.kind == "payment" else f"Transfer to {c['names'][t.to_account_id]}"


table_page(router, "/transfers", model=Transfer, title="Payments & transfers", order=(Transfer.created_at.desc(), Transfer.id.desc()),
           context=_names, actions=[("Pay a bill", "/pay"), ("Transfer money", "/transfer")], table=Table([
               Column("Date", lambda t, c: short_day(t.confirmed_at or t.created_at), cls="nowrap"),
               Column("Details", _what, link=lambda t, c: f"/transfers/{t.id}", sub=lambda t, c: Markup(
                   '{}<span class="show-sm"> · {}</span>').format(t.memo, t.status.capitalize())),
               Column("From", lambda t, c: c["names"][t.from_account_id], cls="hide-sm"),
               Column("Status", lambda t, c: badge(t.status), cls="hide-sm"), Column("Amount", lambda t, c: money(t.amount), cls="right nowrap"),
           ], empty="No payments or transfers yet."))


def _heading(t: Transfer) -> str:
    done = "Payment sent" if t.kind == "payment" else "Transfer complete"
    return {"pending": f"Review {t.kind}", "confirmed": done, "cancelled": f"{t.kind.capitalize()} cancelled"}[t.status]


def _review_facts(t: Transfer, c: dict) -> list:
    """What moves where: the review step's facts (and, while pending, the balances after it)."""
    source, target, payee, pending = c["source"], c["target"], c["payee"], t.status == "pending"
    link = lambda path, text: Markup('<a href="{}">{}</a>').format(c["url"](path), text)  # noqa: E731
    ref = Markup('<div class="muted small">Account {}</div>').format(payee.account_ref) if payee and payee.account_ref else ""
    to = ("To", link(f"/accounts/{target.id}", target.name) + f" {target.number_masked}") if target else (
        "To payee", (link(f"/payees/{payee.id}", t.payee_name) if payee else t.payee_name) + ref)
    now = Markup('<div class="muted small">{} available now</div>').format(money(available(source))) if pending else ""
    after = [(f"{source.name} after", money(source.balance - t.amount))] + (
        [(f"{target.name} after", money(target.balance + t.amount))] if target else []) if pending else []
    return [("From", link(f"/accounts/{source.id}", source.name) + f" {source.number_masked}" + now), to,
            ("Amount", Markup('<span class="big">{}</span>').format(money(t.amount))), ("Memo", t.memo), ("Status", badge(t.status)),
            *after, ("Created", dt(t.created_at))]


def _review_context(gym: Gym, t: Transfer, c: dict) -> dict:
    source = gym.get(Account, t.from_account_id)
    lines = gym.db.exec(select(Tx).where(Tx.transfer_id == t.id).order_by(Tx.id)).all()
    return {"source": source, "target": gym.db.get(Account, t.to_account_id) if t.to_account_id else None,
            "payee": gym.db.get(Payee, t.payee_id) if t.payee_id else None, "error": gym.request.query_params.get("error", ""),
            "problem": funds_error(source, t.amount) if t.status == "pending" else None,
            "lines": lines and tx_table(balance=True).html(lines, _names(gym))}


detail_page(router, "/transfers/{row_id}", model=Transfer, title=_heading, facts_of=_review_facts, context=_review_context,
            crumbs=[("Payments & transfers", "/transfers")], template="review.html")


def _confirm(gym: Gym, transfer: Transfer):
    if funds_error(gym.get(Account, transfer.from_account_id), transfer.amount):
        return gym.done(f"/transfers/{transfer.id}", error="insufficient")
    post_transfer(gym.db, transfer, gym.now)
    gym.advance()
    return gym.done(f"/transfers/{transfer.id}", notice="Payment sent" if transfer.kind == "payment" else "Transfer complete")


def _cancel(gym: Gym, transfer: Transfer):
    transfer.status = "cancelled"
    gym.db.add(transfer)
    return gym.done("/transfers", notice=f"{transfer.kind.capitalize()} cancelled; no money was moved")


REVIEWED = dict(model=Transfer, settled=lambda t: f"/transfers/{t.id}", noun=lambda t: t.kind)
transition_action(router, "/transfers/{row_id}/confirm", act=_confirm, **REVIEWED)
transition_action(router, "/transfers/{row_id}/cancel", act=_cancel, **REVIEWED)


# ---- statements ----------------------------------------------------------------------------------------
@router.get("/statements")
def statements_page(gym: GymDep):
    groups = [(a, [statement(gym.db, a, m) for m in statement_months(gym.db, a, gym.now)]) for a in _accounts(gym)]
    return gym.render("statements.html", groups=groups)


@router.get("/statements/{account_id}/{month}")
def statement_page(gym: GymDep, account_id: int, month: str):
    account = gym.get(Account, account_id)
    try:
        start = date.fromisoformat(f"{month}-01")
    except ValueError:
        raise HTTPException(404, f"No statement for {month}") from None
    if start not in statement_months(gym.db, account, gym.now):
        raise HTTPException(404, f"No {account.name} statement for {month}")
    s = statement(gym.db, account, start)
    return gym.render("statement.html", s=s, lines=tx_table(balance=True).html(s.lines, _names(gym)))
