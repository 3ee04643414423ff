"""Contract 2: a world — persona + scenario expanded into people, organisations, events,
documents and facts, consistent across apps. Saved as JSON; `check` runs on every build."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Persona(_Frozen):
    """The user the agent acts for."""

    id: str
    name: str
    email: str
    role: str = Field(description="Job title, e.g. 'operations manager'.")
    company: str
    domain: str = Field(description="Email domain of the company, e.g. 'northwind.example'.")
    style: str = Field(default="friendly", description="How they write: 'friendly', 'terse', 'formal'.")
    sector: str = Field(default="studio", description="What the company does; decides colleagues' roles and vendors.")
    locale: str = Field(default="en_US", description="Faker locale of the persona's names and addresses, e.g. 'de_DE'.")
    currency: str = Field(default="USD", description="ISO code of the persona's home currency.")
    date_format: str = Field(default="%B %d, %Y", description="strftime format the persona's world writes dates in.")
    city: str = ""
    address: str = Field(default="", description="Postal address of the company, one line.")
    habits: tuple[str, ...] = Field(default=(), description="Routines, e.g. 'pays bills on Fridays'.")
    preferences: tuple[str, ...] = Field(default=(), description="Likes and constraints, e.g. 'vegetarian'.")


class Scenario(_Frozen):
    """What is going on in the persona's life this fortnight."""

    id: str
    title: str
    description: str
    clock: datetime = Field(description="'Now' of every app in the world.")
    kind: Literal["work", "life"] = Field(default="work", description="A work situation or one from private life.")


class Organisation(_Frozen):
    id: str
    name: str
    kind: Literal["self", "vendor", "client", "household", "service"] = Field(
        description="'household': the persona's family; 'service': a clinic, school, insurer, landlord and the like.")
    domain: str
    category: str = Field(default="", description="What the vendor sells or the client does.")


class Person(_Frozen):
    id: str
    name: str
    email: str
    org: str = Field(description="Organisation id.")
    role: str


class LineItem(_Frozen):
    description: str
    quantity: int = Field(gt=0)
    unit_price: float = Field(ge=0)

    @property
    def total(self) -> float:
        return round(self.quantity * self.unit_price, 2)


class Invoice(_Frozen):
    id: str
    number: str
    vendor: str = Field(description="Organisation id of the vendor.")
    contact: str = Field(description="Person id who sent it.")
    issued: date
    due: date
    description: str
    items: tuple[LineItem, ...]
    amount: float = Field(description="Total; equals the sum of the line items.")
    paid: bool = False

    @property
    def filename(self) -> str:
        return f"{self.number}.pdf"


class Meeting(_Frozen):
    id: str
    title: str
    start: datetime
    end: datetime
    location: str
    organizer: str = Field(description="Person id.")
    attendees: tuple[str, ...] = Field(description="Person ids, organizer excluded.")
    description: str = ""


class Document(_Frozen):
    id: str
    name: str
    kind: Literal["doc", "table"]
    folder: str = Field(description="Folder path, e.g. 'Projects/Harbour Foods'.")
    owner: str = Field(description="Person id.")
    text: str = Field(default="", description="Body of a doc.")
    rows: tuple[tuple[str, ...], ...] = Field(default=(), description="A table's rows; the first is the header.")
    modified: datetime


class Message(_Frozen):
    id: str
    thread: str = Field(description="Thread key: messages with the same key form one thread.")
    sender: str = Field(description="Person id.")
    to: tuple[str, ...]
    cc: tuple[str, ...] = ()
    subject: str
    body: str
    sent: datetime
    attachments: tuple[str, ...] = Field(default=(), description="Filenames of invoices or documents.")
    folder: Literal["inbox", "sent", "archive"] = "inbox"
    read: bool = True
    starred: bool = False


class Account(_Frozen):
    id: str
    name: str
    kind: Literal["checking", "savings", "credit"]
    number: str = Field(description="Last four digits.")
    opening_balance: float = Field(description="Balance before the first transaction of the world.")


class Transaction(_Frozen):
    id: str
    account: str = Field(description="Account id.")
    posted: datetime
    description: str
    amount: float = Field(description="Negative for money out.")
    category: str
    counterparty: str = Field(description="Organisation id, or a free-text name for others.")
    reference: str = ""


class Payee(_Frozen):
    id: str
    org: str = Field(description="Organisation id.")
    account_ref: str = Field(description="The payee's account/reference at the bank.")
    category: str


class Fact(_Frozen):
    """A statement task families can ask about, with the ids it rests on."""

    key: str
    value: str
    refs: tuple[str, ...] = ()


class World(_Frozen):
    """Everything the apps of one task environment know, in one consistent document."""

    id: str
    seed: int
    persona: Persona
    scenario: Scenario
    user: str = Field(description="Person id of the persona.")
    organisations: tuple[Organisation, ...]
    people: tuple[Person, ...]
    invoices: tuple[Invoice, ...] = ()
    meetings: tuple[Meeting, ...] = ()
    documents: tuple[Document, ...] = ()
    messages: tuple[Message, ...] = ()
    accounts: tuple[Account, ...] = ()
    payees: tuple[Payee, ...] = ()
    transactions: tuple[Transaction, ...] = ()
    facts: tuple[Fact, ...] = ()
    provenance: str = Field(default="procedural", description="'procedural' or 'llm:<model>'.")

    def person(self, pid: str) -> Person:
        return next(p for p in self.people if p.id == pid)

    def org(self, oid: str) -> Organisation:
        return next(o for o in self.organisations if o.id == oid)

    def balance(self, account_id: str) -> float:
        """Balance of an account at the world's clock."""
        acc = next(a for a in self.accounts if a.id == account_id)
        return round(acc.opening_balance + sum(t.amount for t in self.transactions if t.account == account_id), 2)
