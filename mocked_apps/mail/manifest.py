"""What the mail app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="mail",
    title="Mail",
    category="communication",
    description=(
        "A Gmail-like webmail: inbox, starred, sent, drafts, archive and trash, user labels, "
        "threads read in order, compose with attachments by filename, reply, reply all, forward, "
        "search, read/unread, star, move, archive and delete."
    ),
    icon="✉",
    imitates="Gmail",
    pages=(
        PageSpec(path="/", title="Inbox", description="Conversations in the inbox, newest first; unread in bold."),
        PageSpec(path="/folder/starred", title="Starred", description="Starred conversations outside Trash."),
        PageSpec(path="/folder/sent", title="Sent", description="Conversations with a message the user sent."),
        PageSpec(path="/folder/drafts", title="Drafts", description="Conversations with an unsent draft."),
        PageSpec(path="/folder/archive", title="Archive", description="Archived conversations."),
        PageSpec(path="/folder/trash", title="Trash", description="Deleted conversations: restore or delete forever."),
        PageSpec(path="/thread/1", title="Conversation", description="Messages of one thread in order, with actions."),
        PageSpec(path="/compose", title="Compose", description="Write a new message: To, Cc, Subject, Body, attachment."),
        PageSpec(path="/search?q=invoice", title="Search results", description="Search by sender, recipient, subject or body."),
        PageSpec(path="/contacts", title="Contacts", description="The address book; add a contact or write to one."),
    ),
    view_state=("message.read",),
    consequences={
        "thread": "sending or forwarding a message that starts a new conversation",
        "message.sent_at": "the app's clock when a message is sent or a draft saved",
    },
)
