"""Pages and form posts of the online bank. Form errors redirect back to the form's GET page with the
typed values and `check=1`; the GET page re-runs the same validation, so no state lives in the browser."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import func, select

from mocked_apps.kit import Gym, GymDep

from .ledger import AmountError, TxFilter, available, funds_error, parse_amount, post_transfer, statement, statement_months
from .models import PAYEE_CATEGORIES, Account, Payee, Transaction, Transfer

router = APIRouter()
PAGE_SIZE = 50


def _accounts(gym: Gym) -> list[Account]:
    return list(gym.db.exec(select(Account).order_by(Account.id)).all())


def _payees(gym: Gym) -> list[Payee]:
    return list(gym.db.exec(select(Payee).order_by(func.lower(Payee.name), Payee.id)).all())


def _int(text: str) -> int | None:
    return int(text) if text and text.strip().isdigit() else None


# ---- overview, accounts, transactions ------------------------------------------------------------------
@router.get("/")
def overview(gym: GymDep):
    accounts = _accounts(gym)
    recent = gym.db.exec(select(Transaction).order_by(Transaction.posted_at.desc(), Transaction.id.desc()).limit(8)).all()
    pending = gym.db.exec(select(Transfer).where(Transfer.status == "pending").order_by(Transfer.id)).all()
    cash = round(sum(a.balance for a in accounts if a.kind != "credit"), 2)
    owed = round(-sum(a.balance for a in accounts if a.kind == "credit"), 2)
    return gym.render("overview.html", accounts=accounts, recent=recent, pending=pending, cash=cash, owed=owed,
                      names={a.id: a.name for a in accounts}, available=available)


def _transactions_page(gym: Gym, template: str, account: Account | None, page_text: str, **raw: str):
    tx_filter = TxFilter.parse(**raw)
    stmt = select(Transaction)
    if account is not None:
        stmt = stmt.where(Transaction.account_id == account.id)
    stmt = tx_filter.apply(stmt)
    total = gym.db.exec(select(func.count()).select_from(stmt.subquery())).one()
    page = max(1, _int(page_text) or 1)
    rows = gym.db.exec(stmt.order_by(Transaction.posted_at.desc(), Transaction.id.desc())
                       .offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE)).all()
    categories = sorted(set(gym.db.exec(select(Transaction.category).distinct()).all()) - {""})
    accounts = _accounts(gym)
    return gym.render(template, account=account, rows=rows, total=total, page=page, pages=max(1, -(-total // PAGE_SIZE)),
                      f=tx_filter, categories=categories, accounts=accounts, names={a.id: a.name for a in accounts},
                      available=available)


@router.get("/accounts/{account_id}")
def account_page(gym: GymDep, account_id: int, q: str = "", start: str = "", end: str = "", min_amount: str = "",
                 max_amount: str = "", category: str = "", type: str = "", page: str = "1"):
    account = gym.get(Account, account_id)
    return _transactions_page(gym, "account.html", account, page, q=q, start=start, end=end, min_amount=min_amount,
                              max_amount=max_amount, category=category, type=type)


@router.get("/transactions")
def all_transactions(gym: GymDep, q: str = "", start: str = "", end: str = "", min_amount: str = "", max_amount: str = "",
                     category: str = "", type: str = "", page: str = "1"):
    return _transactions_page(gym, "transactions.html", None, page, q=q, start=start, end=end, min_amount=min_amount,
                              max_amount=max_amount, category=category, type=type)


@router.get("/transactions/{tx_id}")
def transaction_page(gym: GymDep, tx_id: int):
    row = gym.get(Transaction, tx_id)
    transfer = gym.db.get(Transfer, row.transfer_id) if row.transfer_id else None
    categories = sorted(set(PAYEE_CATEGORIES) | {row.category} - {""})
    return gym.render("transaction.html", tx=row, account=gym.get(Account, row.account_id), transfer=transfer,
                      categories=categories)


@router.post("/transactions/{tx_id}/category")
def set_category(gym: GymDep, tx_id: int, category: str = Form("")):
    row = gym.get(Transaction, tx_id)
    row.category = category.strip()
    gym.db.add(row)
    return gym.done(f"/transactions/{tx_id}", notice="Category updated")


# ---- payees --------------------------------------------------------------------------------------------
@router.get("/payees")
def payees_page(gym: GymDep):
    return gym.render("payees.html", payees=_payees(gym))


def _payee_errors(gym: Gym, name: str, payee_id: int | None) -> dict[str, str]:
    name = name.strip()
    if not name:
        return {"name": "Enter the payee's name."}
    clash = gym.db.exec(select(Payee).where(func.lower(Payee.name) == name.lower())).first()
    if clash is not None and clash.id != payee_id:
        return {"name": f"You already have a payee named {clash.name}."}
    return {}


def _payee_form(gym: Gym, payee: Payee | None, check: str, name: str, account_ref: str, category: str):
    values = {"name": name, "account_ref": account_ref, "category": category} if check or payee is None else {
        "name": payee.name, "account_ref": payee.account_ref, "category": payee.category}
    errors = _payee_errors(gym, values["name"], payee.id if payee else None) if check else {}
    categories = sorted(set(PAYEE_CATEGORIES) | {values["category"]} - {""})
    return gym.render("payee_form.html", payee=payee, values=values, errors=errors, categories=categories)


@router.get("/payees/new")
def new_payee(gym: GymDep, check: str = "", name: str = "", account_ref: str = "", category: str = ""):
    return _payee_form(gym, None, check, name, account_ref, category)


@router.post("/payees/new")
def create_payee(gym: GymDep, name: str = Form(""), account_ref: str = Form(""), category: str = Form("")):
    if _payee_errors(gym, name, None):
        return gym.done("/payees/new", check=1, name=name, account_ref=account_ref, category=category)
    payee = Payee(name=name.strip(), account_ref=account_ref.strip(), category=category.strip())
    gym.db.add(payee)
    gym.db.flush()
    return gym.done(f"/payees/{payee.id}", notice=f"Payee {payee.name} added")


@router.get("/payees/{payee_id}")
def payee_page(gym: GymDep, payee_id: int):
    payee = gym.get(Payee, payee_id)
    history = gym.db.exec(select(Transfer).where(Transfer.payee_id == payee_id).order_by(Transfer.id.desc())).all()
    return gym.render("payee.html", payee=payee, history=history)


@router.get("/payees/{payee_id}/edit")
def edit_payee(gym: GymDep, payee_id: int, check: str = "", name: str = "", account_ref: str = "", category: str = ""):
    return _payee_form(gym, gym.get(Payee, payee_id), check, name, account_ref, category)


@router.post("/payees/{payee_id}/edit")
def update_payee(gym: GymDep, payee_id: int, name: str = Form(""), account_ref: str = Form(""), category: str = Form("")):
    payee = gym.get(Payee, payee_id)
    if _payee_errors(gym, name, payee_id):
        return gym.done(f"/payees/{payee_id}/edit", check=1, name=name, account_ref=account_ref, category=category)
    payee.name, payee.account_ref, payee.category = name.strip(), account_ref.strip(), category.strip()
    gym.db.add(payee)
    return gym.done(f"/payees/{payee_id}", notice="Payee updated")


@router.post("/payees/{payee_id}/delete")
def delete_payee(gym: GymDep, payee_id: int):
    payee = gym.get(Payee, payee_id)
    for pending in gym.db.exec(select(Transfer).where(Transfer.payee_id == payee_id, Transfer.status == "pending")).all():
        pending.status = "cancelled"
        gym.db.add(pending)
    gym.db.delete(payee)
    return gym.done("/payees", notice=f"Payee {payee.name} deleted")


# ---- bill pay and transfers: form -> pending review -> confirm or cancel ----------------------------------
def _money_errors(gym: Gym, from_account: str, amount: str) -> tuple[dict[str, str], Account | None, float | None]:
    errors: dict[str, str] = {}
    source = gym.db.get(Account, _int(from_account)) if _int(from_account) else None
    if source is None:
        errors["from_account"] = "Choose the account to pay from."
    try:
        value = parse_amount(amount)
    except AmountError as err:
        errors["amount"], value = str(err), None
    if source is not None and value is not None and funds_error(source, value):
        errors["amount"] = funds_error(source, value)
    return errors, source, value


def _payment_errors(gym: Gym, from_account: str, payee: str, amount: str) -> dict[str, str]:
    errors, _, _ = _money_errors(gym, from_account, amount)
    if not (_int(payee) and gym.db.get(Payee, _int(payee))):
        errors["payee"] = "Choose a payee."
    return errors


def _transfer_errors(gym: Gym, from_account: str, to_account: str, amount: str) -> dict[str, str]:
    errors, source, _ = _money_errors(gym, from_account, amount)
    target = gym.db.get(Account, _int(to_account)) if _int(to_account) else None
    if target is None:
        errors["to_account"] = "Choose the account to transfer to."
    elif source is not None and source.id == target.id:
        errors["to_account"] = "Choose a different account from the one you transfer from."
    return errors


@router.get("/pay")
def pay_form(gym: GymDep, check: str = "", from_account: str = "", payee: str = "", amount: str = "", memo: str = ""):
    values = {"from_account": from_account or ("" if check else "1"), "payee": payee, "amount": amount, "memo": memo}
    errors = _payment_errors(gym, from_account, payee, amount) if check else {}
    return gym.render("pay.html", values=values, errors=errors, accounts=_accounts(gym), payees=_payees(gym),
                      available=available)


@router.post("/pay")
def pay_submit(gym: GymDep, from_account: str = Form(""), payee: str = Form(""), amount: str = Form(""), memo: str = Form("")):
    if _payment_errors(gym, from_account, payee, amount):
        return gym.done("/pay", check=1, from_account=from_account, payee=payee, amount=amount, memo=memo)
    target = gym.get(Payee, int(payee))
    transfer = Transfer(kind="payment", from_account_id=int(from_account), payee_id=target.id, payee_name=target.name,
                        amount=parse_amount(amount), memo=memo.strip(), status="pending", created_at=gym.now)
    return _pending(gym, transfer)


@router.get("/transfer")
def transfer_form(gym: GymDep, check: str = "", from_account: str = "", to_account: str = "", amount: str = "", memo: str = ""):
    values = {"from_account": from_account or ("" if check else "1"), "to_account": to_account or ("" if check else "2"), "amount": amount, "memo": memo}
    errors = _transfer_errors(gym, from_account, to_account, amount) if check else {}
    return gym.render("transfer_form.html", values=values, errors=errors, accounts=_accounts(gym), available=available)


@router.post("/transfer")
def transfer_submit(gym: GymDep, from_account: str = Form(""), to_account: str = Form(""), amount: str = Form(""),
                    memo: str = Form("")):
    if _transfer_errors(gym, from_account, to_account, amount):
        return gym.done("/transfer", check=1, from_account=from_account, to_account=to_account, amount=amount, memo=memo)
    transfer = Transfer(kind="transfer", from_account_id=int(from_account), to_account_id=int(to_account),
                        amount=parse_amount(amount), memo=memo.strip(), status="pending", created_at=gym.now)
    return _pending(gym, transfer)


def _pending(gym: Gym, transfer: Transfer):
    gym.db.add(transfer)
    gym.db.flush()
    gym.advance()
    return gym.done(f"/transfers/{transfer.id}")


@router.get("/transfers")
def activity_page(gym: GymDep):
    rows = gym.db.exec(select(Transfer).order_by(Transfer.created_at.desc(), Transfer.id.desc())).all()
    return gym.render("activity.html", rows=rows, names={a.id: a.name for a in _accounts(gym)})


@router.get("/transfers/{transfer_id}")
def transfer_page(gym: GymDep, transfer_id: int, error: str = ""):
    transfer = gym.get(Transfer, transfer_id)
    source = gym.get(Account, transfer.from_account_id)
    target = gym.db.get(Account, transfer.to_account_id) if transfer.to_account_id else None
    payee = gym.db.get(Payee, transfer.payee_id) if transfer.payee_id else None
    problem = funds_error(source, transfer.amount) if transfer.status == "pending" else None
    lines = gym.db.exec(select(Transaction).where(Transaction.transfer_id == transfer_id).order_by(Transaction.id)).all()
    return gym.render("review.html", t=transfer, source=source, target=target, payee=payee, problem=problem, lines=lines, error=error,
                      available=available)


def _settled(gym: Gym, transfer: Transfer):
    """Answer to a second Confirm/Cancel: nothing changes, the page says why."""
    return gym.done(f"/transfers/{transfer.id}", notice=f"This {transfer.kind} is already {transfer.status}.")


@router.post("/transfers/{transfer_id}/confirm")
def confirm(gym: GymDep, transfer_id: int):
    transfer = gym.get(Transfer, transfer_id)
    if transfer.status != "pending":
        return _settled(gym, transfer)
    if funds_error(gym.get(Account, transfer.from_account_id), transfer.amount):
        return gym.done(f"/transfers/{transfer_id}", error="insufficient")
    post_transfer(gym.db, transfer, gym.now)
    gym.advance()
    return gym.done(f"/transfers/{transfer_id}", notice="Payment sent" if transfer.kind == "payment" else "Transfer complete")


@router.post("/transfers/{transfer_id}/cancel")
def cancel(gym: GymDep, transfer_id: int):
    transfer = gym.get(Transfer, transfer_id)
    if transfer.status != "pending":
        return _settled(gym, transfer)
    transfer.status = "cancelled"
    gym.db.add(transfer)
    what = "Payment" if transfer.kind == "payment" else "Transfer"
    return gym.done("/transfers", notice=f"{what} cancelled; no money was moved")


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
    return gym.render("statement.html", s=statement(gym.db, account, start))
