"""Round-robin picking: one item of every group before a second of any, so the first N items span the most groups."""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, TypeVar

T = TypeVar("T")


def round_robin(items: Iterable[T], *keys: Callable[[T], Hashable]) -> list[T]:
    """`items` reordered round-robin over the groups of `keys[0]` (in the order groups first appear), each group
    itself round-robin over `keys[1:]`, and so on; items keep their order inside the last groups. No key: as given.

    Tasks taken round-robin over apps, then families: `round_robin(tasks, app_of, family_of)[:n]`.
    """
    items = list(items)
    if not keys:
        return items
    groups: dict[Hashable, list[T]] = {}
    for item in items:
        groups.setdefault(keys[0](item), []).append(item)
    queues = [round_robin(group, *keys[1:]) for group in groups.values()]
    return [q[depth] for depth in range(max(map(len, queues), default=0)) for q in queues if depth < len(q)]


__all__ = ["round_robin"]
