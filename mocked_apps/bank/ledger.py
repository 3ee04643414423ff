"""The bank's rules apart from HTTP: available funds, posting a confirmed transfer and monthly
statements (derived from posted transactions, never stored). Transaction search and filters are the kit's
(`kit.pages` filters in routes.py), and so is parsing a typed amount (`kit.pages.parse_money`)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from pydantic import BaseModel, ConfigDict
from sqlmodel import Session, func, select

from .models import Account, Payee, Transaction, Transfer


def available(account: Account) -> float:
    """What can leave the account now: the balance, or on a card the unused credit."""
    if account.kind == "credit":
        return round(account.credit_limit + account.balance, 2)
    return round(account.balance, 2)


def funds_error(account: Account, amount: float) -> str | None:
    """The form error for an amount the account cannot cover, else None."""
    if amount > available(account) + 1e-9:
        what = "available credit" if account.kind == "credit" else "available"
        return f"Insufficient funds: {account.name} has ${available(account):,.2f} {what}."
    return None


def post_transfer(db: Session, transfer: Transfer, when: datetime) -> list[Transaction]:
    """Move the money of a pending payment/transfer: debit (and credit) transactions, balances, status."""
    source = db.get(Account, transfer.from_account_id)
    lines: list[tuple[Account, float, str, str]] = []
    if transfer.kind == "payment":
        payee = db.get(Payee, transfer.payee_id) if transfer.payee_id is not None else None
        category = payee.category if payee else ""
        lines.append((source, -transfer.amount, f"BILL PAY {transfer.payee_name.upper()}", transfer.payee_name))
    else:
        target = db.get(Account, transfer.to_account_id)
        category = "Card payment" if target.kind == "credit" else "Transfer"
        lines.append((source, -transfer.amount, f"TRANSFER TO {label(target).upper()}", label(target)))
        lines.append((target, transfer.amount, f"TRANSFER FROM {label(source).upper()}", label(source)))
    posted = []
    for account, amount, description, counterparty in lines:
        account.balance = round(account.balance + amount, 2)
        row = Transaction(
            account_id=account.id, posted_at=when, description=description, amount=amount, category=category,
            counterparty=counterparty, reference=transfer.memo, method="bill_pay" if transfer.kind == "payment" else "transfer",
            balance_after=account.balance, transfer_id=transfer.id,
        )
        db.add(account)
        db.add(row)
        posted.append(row)
    transfer.status = "confirmed"
    transfer.confirmed_at = when
    db.add(transfer)
    return posted


def label(account: Account) -> str:
    """'Business Checking ••4821': how an account names itself in other accounts' lines."""
    return f"{account.name} ••{account.number_masked[-4:]}"


class Statement(BaseModel):
    """One month of one account: balances at both ends and the lines in between (oldest first)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    account: Account
    month: date
    opening: float
    closing: float
    credits: float
    debits: float
    lines: tuple[Transaction, ...]

    @property
    def key(self) -> str:
        return self.month.strftime("%Y-%m")

    @property
    def title(self) -> str:
        return self.month.strftime("%B %Y")

    @property
    def period_end(self) -> date:
        return _next_month(self.month) - timedelta(days=1)


def statement_months(db: Session, account: Account, now: datetime) -> list[date]:
    """Closed months with activity on the account, newest first: first activity month .. last month before now."""
    first = db.exec(select(func.min(Transaction.posted_at)).where(Transaction.account_id == account.id)).one()
    if first is None:
        return []
    first = datetime.fromisoformat(first) if isinstance(first, str) else first
    month, current, months = first.date().replace(day=1), now.date().replace(day=1), []
    while month < current:
        months.append(month)
        month = _next_month(month)
    return months[::-1]


def statement(db: Session, account: Account, month: date) -> Statement:
    """The statement of `account` for the month starting at `month` (balances derived from today's balance)."""
    start = datetime.combine(month, datetime.min.time())
    stop = datetime.combine(_next_month(month), datetime.min.time())
    after_start = db.exec(select(func.coalesce(func.sum(Transaction.amount), 0.0)).where(
        Transaction.account_id == account.id, Transaction.posted_at >= start)).one()
    after_stop = db.exec(select(func.coalesce(func.sum(Transaction.amount), 0.0)).where(
        Transaction.account_id == account.id, Transaction.posted_at >= stop)).one()
    lines = db.exec(select(Transaction).where(
        Transaction.account_id == account.id, Transaction.posted_at >= start, Transaction.posted_at < stop,
    ).order_by(Transaction.posted_at, Transaction.id)).all()
    return Statement(
        account=account, month=month, opening=round(account.balance - after_start, 2), closing=round(account.balance - after_stop, 2),
        credits=round(sum(t.amount for t in lines if t.amount > 0), 2), debits=round(sum(t.amount for t in lines if t.amount < 0), 2),
        lines=tuple(lines),
    )


def _next_month(month: date) -> date:
    return date(month.year + (month.month == 12), month.month % 12 + 1, 1)
