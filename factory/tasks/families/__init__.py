"""The shipped task families: single-app ones and cross-app ones, by name."""

from __future__ import annotations

from contracts.family import Family
from .bank import TransferToSavings
from .calendar import BookMeeting, RsvpYes
from .cross import LogPaymentInDrive, MeetEveryoneOnThread, PayAndConfirm, PayInvoiceFromDrive, ReplyWithInvoiceTotal
from .drive import InvoiceDueDate, RenameDocument
from .mail import ForwardInvoice, StarInvoiceEmail

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        StarInvoiceEmail(), ForwardInvoice(), RsvpYes(), BookMeeting(), RenameDocument(), InvoiceDueDate(),
        TransferToSavings(), ReplyWithInvoiceTotal(), PayInvoiceFromDrive(), PayAndConfirm(),
        MeetEveryoneOnThread(), LogPaymentInDrive(),
    )
}

__all__ = ["FAMILIES"]
