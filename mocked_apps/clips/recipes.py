"""Clips' recipes: how the app shows a world's records, golden steps and verifier predicates other families call.

Other families use these instead of re-typing the app's labels (the search box, the share sheet, the post
form), its row ids or its tables.
"""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST
from .projection import project
from .rules import VISIBILITY

__all__ = ["comment", "contact_ids", "edit_visibility", "follow_creator", "like", "new_shares_source", "open_app", "open_my_video",
           "open_through_creator", "open_video", "post_video", "share_to", "visibility_label"]


def contact_ids(world: World) -> dict[str, int]:
    """A world person's email (lower case) -> their creator id in the app."""
    return {c["email"].lower(): c["id"] for c in project(world)["creator"] if c["is_contact"]}


def visibility_label(value: str) -> str:
    """How the post form names 'public', 'friends' or 'private'."""
    return VISIBILITY[value]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_video(title: str) -> str:
    """Find a video by its title with the search box and open it."""
    return "\n".join([f'env.fill(env.word("Search") + " videos", {title!r})', 'env.press("Enter")', f"env.click({title!r}, role='link')"])


def open_through_creator(creator: str, title: str) -> str:
    """Find a creator with the search box and open one of their videos from their profile."""
    return "\n".join([f'env.fill(env.word("Search") + " videos", {creator!r})', 'env.press("Enter")', f'env.click({creator!r}, role="link")',
                      f'env.click({title!r}, role="link")'])


def open_my_video(title: str) -> str:
    """Open one of the user's own videos from their profile."""
    return "\n".join(['env.click("Me", role="link")', f"env.click({title!r}, role='link')"])


def like() -> str:
    """On a video's page: like it."""
    return 'env.click("Like", role="button")'


def comment(text: str) -> str:
    """On a video's page: write the comment `text`."""
    return "\n".join([f'env.fill("Add a comment", {text!r})', 'env.click("Post comment", role="button")'])


def follow_creator(name: str) -> str:
    """On a video's page: open its creator's profile and follow them."""
    profile = f"{name}'s profile"
    return "\n".join([f"env.click({profile!r}, role='link')", 'env.click("Follow", role="button")'])


def share_to(names: list[str], message: str) -> str:
    """On a video's page: send it to the contacts `names` with `message`."""
    return "\n".join(['env.click("Share", role="link")', *[f"env.check({n!r}, True)" for n in names],
                      f'env.fill("Message", {message!r})', 'env.click(env.word("Send"), role="button")'])


def post_video(clip: str, title: str, caption: str, tags: str, visibility: str, comments: bool) -> str:
    """Post a video: the camera-roll clip (e.g. 'Clip 2'), its metadata, who can watch (the label), comments on or off."""
    return "\n".join(['env.click("Post a video", role="link")', f"env.check({clip!r}, True)", f'env.fill("Title", {title!r})',
                      f'env.fill("Caption", {caption!r})', f'env.fill("Hashtags", {tags!r})', f'env.select("Who can watch", {visibility!r})',
                      f'env.check("Allow comments", {comments!r})', 'env.click("Post video", role="button")'])


def edit_visibility(visibility: str, comments: bool | None = None) -> str:
    """On one of the user's own videos: change who can watch (the label) and, when given, whether comments are allowed."""
    steps = ['env.click("Edit video", role="link")', f'env.select("Who can watch", {visibility!r})']
    if comments is not None:
        steps.append(f'env.check("Allow comments", {comments!r})')
    return "\n".join([*steps, 'env.click("Save changes", role="button")'])


def new_shares_source(fn: str) -> str:
    """`fn(final)`: the shares sent during the attempt, each as (video_id, contact_id, message as sent)."""
    return f'''
def {fn}(final):
    old = {{s["id"] for s in final.initial_state["clips"]["share"]}}
    return [(s["video_id"], s["contact_id"], s["message"]) for s in final.state["clips"]["share"] if s["id"] not in old]
'''
