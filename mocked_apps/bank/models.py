"""The bank's tables: accounts, payees, posted transactions, and payments/transfers with their review status.

Money is a float in dollars rounded to 2 decimals everywhere (templates show it with the `money` filter).
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

PAYEE_CATEGORIES = (
    "Bank fees", "Client income", "Contractors", "Equipment", "Hosting & IT", "Insurance", "Interest",
    "Meals & entertainment", "Office maintenance", "Office supplies", "Payroll", "Postage & shipping",
    "Printing", "Professional services", "Reimbursements", "Rent", "Software", "Taxes", "Training", "Travel", "Utilities",
)
"""Categories offered for payees and transactions (seeds may use others; forms keep a row's own)."""


AppModel = namespace()
"""This app's table namespace (table names unique within the app only)."""


class Account(AppModel, table=True):
    """One of the customer's accounts; `balance` is what it holds now (negative on a card = owed)."""

    id: int | None = Field(default=None, primary_key=True, description="Account id (1, 2, 3 ...).")
    name: str = Field(min_length=1, description="Display name, e.g. 'Business Checking'.")
    kind: Literal["checking", "savings", "credit"] = Field(sa_type=String, description="'checking', 'savings' or 'credit' (a credit card).")
    number_masked: str = Field(description="Masked account number as shown, e.g. '•••• 4821'.")
    balance: float = Field(
        description="Current balance in dollars, 2 decimals. Credit cards: negative = amount owed."
    )
    credit_limit: float = Field(
        default=0.0, ge=0, description="Credit limit in dollars for kind 'credit' (0 otherwise); available = limit + balance."
    )


class Payee(AppModel, table=True):
    """A company or person the customer pays bills to."""

    id: int | None = Field(default=None, primary_key=True, description="Payee id.")
    name: str = Field(min_length=1, description="Payee name as paid, e.g. 'Brightline Print Co'.")
    account_ref: str = Field(
        default="", description="The customer's account number or reference with this payee, e.g. 'BPC-55120'."
    )
    category: str = Field(default="", description="Spending category given to payments to this payee, e.g. 'Printing'.")


class Transfer(AppModel, table=True):
    """A bill payment to a payee or a transfer between own accounts: created 'pending' by the form's review
    step, then 'confirmed' (money moved, transactions posted) or 'cancelled' (nothing moved)."""

    id: int | None = Field(default=None, primary_key=True, description="Payment/transfer id.")
    kind: Literal["payment", "transfer"] = Field(sa_type=String, description="'payment' (bill pay to a payee) or 'transfer' (own accounts).")
    from_account_id: int = Field(foreign_key="account.id", description="Account the money leaves.")
    to_account_id: int | None = Field(
        default=None, foreign_key="account.id", description="Receiving own account (kind 'transfer'); null for payments."
    )
    payee_id: int | None = Field(
        default=None, description="Payee paid (kind 'payment'); not a foreign key, since payments outlive a deleted payee."
    )
    payee_name: str = Field(default="", description="Payee name at the time of payment ('' for transfers).")
    amount: float = Field(gt=0, description="Amount in dollars, positive, 2 decimals.")
    memo: str = Field(default="", description="Memo / reference sent with it, e.g. an invoice number 'INV-2041'.")
    status: Literal["pending", "confirmed", "cancelled"] = Field(
        default="pending", sa_type=String, description="'pending', 'confirmed' or 'cancelled'."
    )
    created_at: NaiveDatetime = Field(description="When the form was submitted for review (virtual clock).")
    confirmed_at: NaiveDatetime | None = Field(default=None, description="When it was confirmed and posted; null otherwise.")


class Transaction(AppModel, table=True):
    """One posted line on an account: negative amount = debit (money out), positive = credit (money in)."""

    id: int | None = Field(default=None, primary_key=True, description="Transaction id.")
    account_id: int = Field(foreign_key="account.id", index=True, description="Account it posted to.")
    posted_at: NaiveDatetime = Field(description="When it posted (virtual clock).")
    description: str = Field(description="Statement text, e.g. 'BILL PAY CLOUDNEST HOSTING'.")
    amount: float = Field(description="Dollars, 2 decimals; negative = debit, positive = credit.")
    category: str = Field(default="", description="Spending/income category, e.g. 'Software', 'Client income'.")
    counterparty: str = Field(default="", description="Who was on the other side, e.g. 'CloudNest Hosting', 'Harbour Foods'.")
    reference: str = Field(default="", description="Memo/reference carried with it, e.g. 'INV-88213'.")
    method: Literal["card", "ach", "bill_pay", "transfer", "wire", "check", "deposit", "fee", "interest"] = Field(
        default="card", sa_type=String, description="How it moved: card purchase, ACH, online bill pay, own-account transfer, etc."
    )
    balance_after: float = Field(description="Account balance right after this transaction posted (running balance).")
    transfer_id: int | None = Field(
        default=None, foreign_key="transfer.id", description="Payment/transfer that created it; null for other activity."
    )
