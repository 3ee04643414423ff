"""The one error every package raises for input a user can fix: a bad name, option, file or store on disk.

The CLI prints its message as one line and exits with code 2; the message names the input and
what to do about it. Infrastructure faults are never `InputError`.
"""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(Exception):
    """Input the user can fix; `str(err)` names the input and the way out."""
