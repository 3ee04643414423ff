"""Mail's recipes: the golden steps and verifier predicates other families call instead of re-typing mail's UI and tables.

Golden steps return unindented lines of the golden action API (join them with
`contracts.family.solve_source`); predicates return verifier source defining one function.
"""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["forward", "open_app", "open_thread", "replies_source", "reply", "thread_of_source"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_thread(subject: str) -> str:
    """Find a thread by its subject with the search box and open it."""
    return f'env.fill(env.word("Search") + " mail", {subject!r})\nenv.press("Enter")\nenv.click({subject!r}, role="link")'


def reply(body: str) -> str:
    """Reply to the open thread with `body`."""
    return f'env.click("Reply", role="link")\nenv.fill("Body", {body!r})\nenv.click(env.word("Send"), role="button")'


def forward(to: str) -> str:
    """Forward the open thread's message, attachments kept, to `to`."""
    return f'env.click("Forward", role="link")\nenv.fill("To", {to!r})\nenv.click(env.word("Send"), role="button")'


def thread_of_source(fn: str = "_thread_of") -> str:
    """`fn(state, filename)`: id of the thread whose message carries `filename` in a mail state dump, or None."""
    return f'''
def {fn}(state, filename):
    msgs = {{m["id"]: m for m in state["message"]}}
    for a in state["attachment"]:
        if a["filename"] == filename and a["message_id"] in msgs:
            return msgs[a["message_id"]]["thread_id"]
    return None
'''


def replies_source(fn: str, me: str, filename: str) -> str:
    """`fn(final)`: bodies of the messages `me` sent after the start in the thread that carried `filename`."""
    return f'''
def {fn}(final):
    mail, before = final.state["mail"], final.initial_state["mail"]
    msgs = {{m["id"]: m for m in before["message"]}}
    threads = {{msgs[a["message_id"]]["thread_id"] for a in before["attachment"]
               if a["filename"] == {filename!r} and a["message_id"] in msgs}}
    return [m["body"] for m in mail["message"] if m["id"] not in msgs and not m["is_draft"]
            and m["sender_email"].lower() == {me!r} and m["thread_id"] in threads]
'''
