"""What every app shows of a world's documents that the world itself does not say.

A world names its documents (an invoice's PDF, a contract) but gives them no size; mail shows the size
of an attachment and the drive the size of a file, and both must agree on it. `document_size_kb` is
that one made-up, deterministic size.
"""

from __future__ import annotations

import zlib

__all__ = ["document_size_kb"]


def document_size_kb(filename: str) -> int:
    """The size in KB a world's document has in every app (40-439, from its name alone)."""
    return 40 + zlib.crc32(filename.encode()) % 400
