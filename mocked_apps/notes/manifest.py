"""What the notes app declares about itself."""

from mocked_apps.kit import AppManifest, PageSpec

MANIFEST = AppManifest(
    name="notes",
    title="RedNotes",
    category="social",
    description=(
        "A social-notes app, mobile-first: an Explore feed of notes in two columns by channel, notes with images, "
        "hashtags and a recommended place, likes, comments, following authors, collecting notes into named "
        "collections, search by title, hashtag, place or author, and posting a note."
    ),
    icon="✿",
    imitates="a social-notes app (e.g. Xiaohongshu / RedNote, Pinterest)",
    pages=(
        PageSpec(path="/", title="Explore", description="Notes in two columns; channels by topic."),
        PageSpec(path="/n/1", title="Note", description="A note: images, text, hashtags, place; like, collect, comment."),
        PageSpec(path="/n/1/collect", title="Collect", description="Collect a note into one of your collections or a new one."),
        PageSpec(path="/u/2", title="Profile", description="An author's profile: follow, their notes."),
        PageSpec(path="/me", title="Me", description="Your notes, collections and liked notes."),
        PageSpec(path="/post", title="Post", description="Post a note: images, title, text, hashtags, place."),
        PageSpec(path="/search", title="Search", description="Notes and authors."),
    ),
    consequences={
        "notepost.posted_at": "the clock when a note is posted",
        "notepost.cover_hue": "the title of a posted note",
        "notecomment.posted_at": "the clock when a comment is written",
        "collect.saved_at": "the clock when a note is collected",
        "board.created_at": "the clock when a collection is made",
        "board": "a new collection made while collecting a note",
    },
)
