"""Mail tables: contacts, labels, threads, their messages and attachments.

The mailbox owner is the kit's signed-in identity (`gym.identity`), not a table of this app.
"""

from pydantic import NaiveDatetime
from sqlmodel import Field

from mocked_apps.kit.tables import namespace


AppModel = namespace()
"""This app's table namespace (table names unique within the app only)."""


class Contact(AppModel, table=True):
    """A person in the address book; compose suggests these addresses."""

    id: int | None = Field(default=None, primary_key=True, description="Autoincrement id.")
    name: str = Field(min_length=1, description="Display name, e.g. 'Jordan Blake'.")
    email: str = Field(min_length=3, unique=True, description="Email address, unique in the address book.")
    organization: str = Field(default="", description="Company or team, e.g. 'Brightline Print Co'.")


class Label(AppModel, table=True):
    """A user label such as 'Finance' or 'Clients'; threads carry any number of them."""

    id: int | None = Field(default=None, primary_key=True, description="Autoincrement id.")
    name: str = Field(min_length=1, unique=True, description="Label name shown in the side navigation.")
    color: str = Field(default="#667085", description="CSS colour of the label chip, e.g. '#2f6fed'.")


class Thread(AppModel, table=True):
    """A conversation. Its folder says where it lives; Sent, Drafts and Starred are views over messages."""

    id: int | None = Field(default=None, primary_key=True, description="Autoincrement id.")
    subject: str = Field(default="", description="Subject of the first message, without 'Re:'/'Fwd:' added later.")
    folder: str = Field(
        default="inbox",
        description="One of inbox, sent (outgoing only, never in the inbox), drafts (only a draft so far), archive, trash.",
    )
    starred: bool = Field(default=False, description="Starred threads show in the Starred view.")


class ThreadLabel(AppModel, table=True):
    """A label applied to a thread (thread_id, label name)."""

    __tablename__ = "thread_label"

    thread_id: int = Field(foreign_key="thread.id", primary_key=True, description="The labelled thread.")
    label: str = Field(foreign_key="label.name", primary_key=True, description="The label's name, e.g. 'Finance'.")


class Message(AppModel, table=True):
    """One email in a thread. A thread is unread while any of its messages has read=false."""

    id: int | None = Field(default=None, primary_key=True, description="Autoincrement id.")
    thread_id: int = Field(foreign_key="thread.id", index=True, description="The thread it belongs to.")
    sender_email: str = Field(min_length=3, description="From address; the account's email for mail the user sent.")
    sender_name: str = Field(default="", description="From display name.")
    to: str = Field(default="", description="Recipient addresses, comma-separated, e.g. 'a@x.example, b@y.example'.")
    cc: str = Field(default="", description="Cc addresses, comma-separated; empty if none.")
    subject: str = Field(default="", description="Subject line as sent, e.g. 'Re: Invoice INV-2041'.")
    body: str = Field(default="", description="Plain-text body; forwards include the forwarded message below a header.")
    sent_at: NaiveDatetime = Field(description="When it was sent (or last saved, for a draft); the app's virtual clock.")
    read: bool = Field(default=False, description="False shows the message (and its thread) as unread, in bold.")
    is_draft: bool = Field(default=False, description="True for an unsent draft; sending clears it.")


class Attachment(AppModel, table=True):
    """A document attached to a message, referred to by filename (e.g. 'INV-2041.pdf')."""

    id: int | None = Field(default=None, primary_key=True, description="Autoincrement id.")
    message_id: int = Field(foreign_key="message.id", index=True, description="The message that carries it.")
    filename: str = Field(min_length=1, description="File name with extension, e.g. 'INV-2041.pdf'.")
    size_kb: int = Field(default=0, ge=0, description="Size in kilobytes, shown next to the name.")
    content: str = Field(
        default="",
        description="The document's text as its preview shows it (an invoice's lines and total); empty when not known.",
    )
