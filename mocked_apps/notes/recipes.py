"""RedNotes' recipes: golden steps and verifier predicates other families call instead of re-typing the app's
labels (the search box, the collect sheet, the post form), its row ids or its tables."""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["collect_new", "collect_to", "comment", "follow_author", "like", "new_collects_source", "open_app", "open_note", "open_through_author",
           "post_note"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_note(title: str) -> str:
    """Find a note by its title with the search box and open it."""
    return "\n".join([f'env.fill(env.word("Search") + " notes", {title!r})', 'env.press("Enter")', f"env.click({title!r}, role='link')"])


def open_through_author(author: str, title: str) -> str:
    """Find an author with the search box and open one of their notes from their profile."""
    return "\n".join([f'env.fill(env.word("Search") + " notes", {author!r})', 'env.press("Enter")', f'env.click({author!r}, role="link")',
                      f'env.click({title!r}, role="link")'])


def like() -> str:
    """On a note: like it."""
    return 'env.click("Like", role="button")'


def comment(text: str) -> str:
    """On a note: write the comment `text`."""
    return "\n".join([f'env.fill("Add a comment", {text!r})', 'env.click("Send comment", role="button")'])


def follow_author() -> str:
    """On a note: follow its author."""
    return 'env.click("Follow", role="button")'


def collect_to(board: str) -> str:
    """On a note: collect it into the existing collection `board`."""
    return "\n".join(['env.click("Collect", role="link")', f"env.check({board!r}, True)", 'env.click("Save to collection", role="button")'])


def collect_new(name: str) -> str:
    """On a note: collect it into a new collection called `name`."""
    return "\n".join(['env.click("Collect", role="link")', 'env.check("New collection", True)', f'env.fill("Collection name", {name!r})',
                      'env.click("Save to collection", role="button")'])


def post_note(images: int, title: str, body: str, tags: str, place: str = "", address: str = "") -> str:
    """Post a note with `images` album pictures, its text, hashtags and, when given, a place and its address."""
    steps = ['env.click("Post a note", role="link")', f'env.select("Images", "{images} from the album")', f'env.fill("Title", {title!r})',
             f'env.fill("Text", {body!r})', f'env.fill("Hashtags", {tags!r})']
    if place:
        steps += [f'env.fill("Place", {place!r})', f'env.fill("Address", {address!r})']
    return "\n".join([*steps, 'env.click("Publish note", role="button")'])


def new_collects_source(fn: str) -> str:
    """`fn(final)`: the notes collected during the attempt, as (note_id, name of the collection, lower case)."""
    return f'''
def {fn}(final):
    state, old = final.state["notes"], {{c["id"] for c in final.initial_state["notes"]["collect"]}}
    names = {{b["id"]: " ".join(b["name"].split()).lower() for b in state["board"]}}
    return [(c["note_id"], names.get(c["board_id"], "")) for c in state["collect"] if c["id"] not in old]
'''
