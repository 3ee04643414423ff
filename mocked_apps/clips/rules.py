"""The app's rules, one place for routes and families: how typed hashtags become a video's tags, what the
visibility choices are called, and what a form's fields may hold."""

from __future__ import annotations

import re

__all__ = ["VISIBILITY", "parse_tags", "post_errors"]

VISIBILITY = {"public": "Everyone", "friends": "Friends", "private": "Only me"}
"""Who can watch a video: stored value -> the label the app shows."""

TITLE_MAX = 80


def parse_tags(text: str) -> str:
    """'#Travel, lisbon #food' -> 'travel,lisbon,food': words without '#', lower case, first occurrence kept."""
    words = [w.lstrip("#").lower() for w in re.split(r"[\s,]+", text) if w.strip("#")]
    return ",".join(dict.fromkeys(re.sub(r"[^\w-]", "", w) for w in words if re.sub(r"[^\w-]", "", w)))


def post_errors(title: str, visibility: str) -> dict[str, str]:
    """Field -> message for a video's metadata form; empty when it may be saved."""
    errors = {}
    if not title.strip():
        errors["title"] = "Give your video a title."
    elif len(title.strip()) > TITLE_MAX:
        errors["title"] = f"Keep the title under {TITLE_MAX} characters."
    if visibility not in VISIBILITY:
        errors["visibility"] = "Choose who can watch."
    return errors
