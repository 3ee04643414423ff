"""The drive's records: folders, files, invoices with their lines, and shares.

The signed-in user (owner of new files, whose drive 'My Drive' is) is the kit's identity, `gym.identity`.
"""

from datetime import date

from pydantic import NaiveDatetime
from sqlmodel import Field

from mocked_apps.kit.tables import namespace

KINDS = ("doc", "table", "invoice", "pdf")
ROLES = ("viewer", "editor")
INVOICE_STATUSES = ("unpaid", "paid", "overdue", "disputed")


AppModel = namespace()
"""This app's table namespace (table names unique within the app only)."""


class Folder(AppModel, table=True):
    """A folder; folders nest through `parent_id` (None = at the top of My Drive)."""

    id: int | None = Field(default=None, primary_key=True, description="Folder id (autoincrement).")
    name: str = Field(min_length=1, description="Folder name as shown, e.g. 'Invoices'.")
    parent_id: int | None = Field(
        default=None, foreign_key="folder.id", description="Id of the containing folder; null for a top-level folder."
    )
    trashed: bool = Field(default=False, description="True while the folder (and so everything in it) is in the trash.")
    created_at: NaiveDatetime = Field(description="When the folder was created (ISO-8601, no time zone).")
    modified_at: NaiveDatetime = Field(description="When it was last renamed or moved (ISO-8601, no time zone).")


class File(AppModel, table=True):
    """A file in the drive: a document, a table, an invoice or a PDF."""

    id: int | None = Field(default=None, primary_key=True, description="File id (autoincrement).")
    name: str = Field(
        min_length=1, description="File name as shown, e.g. 'Q1 Budget', 'Brand guidelines' or 'INV-2041.pdf'."
    )
    kind: str = Field(
        description="'doc' (text document), 'table' (spreadsheet), 'invoice' (structured invoice, see the "
        "invoice table) or 'pdf' (read-only document whose text is in content)."
    )
    folder_id: int | None = Field(
        default=None, foreign_key="folder.id", description="Id of the containing folder; null = top of My Drive."
    )
    owner_email: str = Field(description="Email address of the file's owner; files owned by others show under 'Shared with me'.")
    content: str = Field(
        default="",
        description="For 'doc' and 'pdf': the plain text (newlines kept). For 'table': JSON text "
        '{"columns": ["Category", "Amount"], "rows": [["Printing", "2500.00"], ["Hosting", "267.00"]]} — '
        "every cell a string, every row as long as columns. For 'invoice': an optional note (fields live in the invoice table).",
    )
    size_kb: int = Field(
        default=0, ge=0,
        description="Size in KB of an invoice's or PDF's file, as uploaded; documents and tables are measured from their content.",
    )
    starred: bool = Field(default=False, description="True when the user starred the file.")
    trashed: bool = Field(default=False, description="True while the file is in the trash.")
    created_at: NaiveDatetime = Field(description="When the file was created (ISO-8601, no time zone).")
    modified_at: NaiveDatetime = Field(description="When its name, content or location last changed (ISO-8601, no time zone).")


class Invoice(AppModel, table=True):
    """The structured fields of an invoice file (one per file of kind 'invoice')."""

    id: int | None = Field(default=None, primary_key=True, description="Invoice id (autoincrement).")
    file_id: int = Field(foreign_key="file.id", unique=True, description="The invoice's file, e.g. the file 'INV-2041.pdf'.")
    number: str = Field(min_length=1, description="Invoice number as printed, e.g. 'INV-2041'.")
    vendor: str = Field(min_length=1, description="Who issued it, e.g. 'Brightline Print Co'.")
    vendor_email: str = Field(default="", description="The vendor's billing email address.")
    bill_to: str = Field(default="", description="Who is billed, e.g. 'Northwind Studio'.")
    amount: float = Field(description="Total due, 2 decimals, e.g. 1240.0; equals the sum of its lines.")
    currency: str = Field(default="USD", description="ISO currency code.")
    issue_date: date = Field(description="Date of issue, YYYY-MM-DD.")
    due_date: date = Field(description="Payment due date, YYYY-MM-DD.")
    status: str = Field(default="unpaid", description="One of 'unpaid', 'paid', 'overdue', 'disputed'.")
    description: str = Field(default="", description="What it is for, e.g. 'Brochure printing'.")


class InvoiceLine(AppModel, table=True):
    """One line item of an invoice."""

    __tablename__ = "invoice_line"

    id: int | None = Field(default=None, primary_key=True, description="Line id (autoincrement).")
    invoice_id: int = Field(foreign_key="invoice.id", description="The invoice this line belongs to.")
    description: str = Field(min_length=1, description="What was supplied, e.g. 'Tri-fold brochures, 500 copies'.")
    quantity: float = Field(default=1.0, description="How many units.")
    unit_price: float = Field(description="Price of one unit, 2 decimals.")


class Share(AppModel, table=True):
    """A person a file is shared with, and what they may do."""

    id: int | None = Field(default=None, primary_key=True, description="Share id (autoincrement).")
    file_id: int = Field(foreign_key="file.id", description="The shared file.")
    email: str = Field(min_length=3, description="Email address of the person it is shared with.")
    role: str = Field(default="viewer", description="'viewer' (can read) or 'editor' (can change).")
