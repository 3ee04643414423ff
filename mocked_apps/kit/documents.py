"""What every app shows of a world's documents that the world itself does not say.

A world names its documents (an invoice's PDF, a contract) but gives them no size and no printed text;
mail shows an attachment's size and preview, the drive a file's, and both must agree. `document_size_kb`
and `document_text` are that one made-up, deterministic size and that one text.
"""

from __future__ import annotations

import zlib

from contracts.world import World

__all__ = ["document_size_kb", "document_text", "invoice_text"]


def document_size_kb(filename: str) -> int:
    """The size in KB a world's document has in every app (40-439, from its name alone)."""
    return 40 + zlib.crc32(filename.encode()) % 400


def invoice_text(number: str, vendor: str, bill_to: str, issued: str, due: str,
                 lines: list[tuple[str, float, float]], total: float, currency: str = "USD") -> str:
    """An invoice as its PDF reads: header, dates, one line per item (description, quantity, unit price), total."""
    rows = [f"INVOICE {number}", f"From: {vendor}", f"Bill to: {bill_to}", f"Issued: {issued}", f"Due: {due}", ""]
    rows += [f"{desc} - {qty:g} x {price:,.2f} = {qty * price:,.2f}" for desc, qty, price in lines]
    return "\n".join(rows + ["", f"Total due ({currency}): {total:,.2f}"])


def document_text(world: World, filename: str) -> str:
    """The text of a world's document by file name: an invoice's printout, a doc's body, a table's rows; '' if unknown."""
    for inv in world.invoices:
        if inv.filename == filename:
            return invoice_text(inv.number, world.org(inv.vendor).name, world.persona.company, inv.issued.isoformat(),
                                inv.due.isoformat(), [(i.description, i.quantity, i.unit_price) for i in inv.items],
                                inv.amount, world.persona.currency)
    for doc in world.documents:
        if doc.name == filename:
            return doc.text if doc.kind == "doc" else "\n".join("\t".join(row) for row in doc.rows)
    return ""
