"""How alike synthesized tasks are: near-duplicate detection and the counts of a task set.

Two tasks are near-duplicates when they belong to the same family and either
- their goldens make the same change: the same family with the same answer context (the targets
  and values the golden and verifier are written against) — the state-change signature, or
- their instructions say nearly the same thing: Jaccard similarity of word 3-shingles of the
  normalised text (lower case, punctuation and the persona's greetings and thanks removed) of at
  least `threshold`.

`NearDuplicateIndex` finds them as tasks arrive (MinHash with LSH banding for candidates, then the
exact Jaccard on each candidate, so it never flags a distinct pair); synthesis drops a task that
has one among the tasks kept. `diversity_report` audits a finished set exactly (every pair within a
family) and counts it per app, family, scenario and difficulty, for the run report and dataset card.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from factory.worlds.pool import scenario_of

from contracts.task import Task

__all__ = ["DiversityReport", "Fingerprint", "NearDuplicateIndex", "diversity_report", "fingerprint", "jaccard", "shingles"]

DEFAULT_THRESHOLD = 0.8
_FILLERS = {"hey", "hi", "hello", "quick", "one", "thanks", "thank", "you", "a", "lot", "please", "kindly", "can", "could"}
_WORD = re.compile(r"[\w$€£.,:/@-]+", re.UNICODE)
_PERMS = 64
_BANDS, _ROWS = 16, 4
_PRIME = np.uint64((1 << 61) - 1)
_RNG = np.random.default_rng(19)
_A = _RNG.integers(1, 1 << 31, size=_PERMS, dtype=np.uint64)
_B = _RNG.integers(0, 1 << 31, size=_PERMS, dtype=np.uint64)


def shingles(text: str, k: int = 3) -> frozenset[str]:
    """Word k-shingles of `text` after normalisation (the whole text when it is shorter than k words)."""
    words = [w.strip(".,:") for w in _WORD.findall(text.lower())]
    words = [w for w in words if w and w not in _FILLERS]
    if len(words) < k:
        return frozenset({" ".join(words)})
    return frozenset(" ".join(words[i:i + k]) for i in range(len(words) - k + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a & b| / |a | b| (1.0 for two empty sets)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def signature(family: str, answer_context: Mapping[str, Any]) -> str:
    """The golden's expected state change in one string: family + its answer context."""
    return family + ":" + hashlib.sha256(json.dumps(answer_context, sort_keys=True, default=str).encode()).hexdigest()[:16]


class Fingerprint(BaseModel):
    """What near-duplicate detection compares of one task."""

    model_config = ConfigDict(frozen=True)

    family: str
    shingles: frozenset[str]
    signature: str


def fingerprint(family: str, instruction: str, answer_context: Mapping[str, Any]) -> Fingerprint:
    return Fingerprint(family=family, shingles=shingles(instruction), signature=signature(family, answer_context))


def _task_fingerprint(task: Task) -> Fingerprint:
    return fingerprint(task.meta.family, task.instruction, task.answer_context)


def _minhash(items: frozenset[str]) -> np.ndarray:
    hashes = np.array([int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "little") >> 3 for s in items], dtype=np.uint64)
    return ((_A[:, None] * hashes[None, :] + _B[:, None]) % _PRIME).min(axis=1)


def is_near_duplicate(a: Fingerprint, b: Fingerprint, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """The definition above, for one pair."""
    return a.family == b.family and (a.signature == b.signature or jaccard(a.shingles, b.shingles) >= threshold)


class NearDuplicateIndex:
    """Tasks kept so far; `match` names a kept task that a new one nearly duplicates."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD):
        if not 0 < threshold <= 1:
            raise ValueError(f"near-duplicate threshold must be in (0, 1], got {threshold}")
        self.threshold = threshold
        self._signatures: dict[str, str] = {}
        self._buckets: dict[tuple, list[str]] = defaultdict(list)
        self._prints: dict[str, Fingerprint] = {}

    def match(self, fp: Fingerprint) -> str | None:
        """The key of a kept near-duplicate of `fp`, or None."""
        if fp.signature in self._signatures:
            return self._signatures[fp.signature]
        for band in self._bands(fp):
            for key in self._buckets.get(band, ()):
                if is_near_duplicate(fp, self._prints[key], self.threshold):
                    return key
        return None

    def add(self, key: str, fp: Fingerprint) -> None:
        self._signatures.setdefault(fp.signature, key)
        self._prints[key] = fp
        for band in self._bands(fp):
            self._buckets[band].append(key)

    def __len__(self) -> int:
        return len(self._prints)

    @staticmethod
    def _bands(fp: Fingerprint) -> list[tuple]:
        sig = _minhash(fp.shingles)
        return [(fp.family, b, sig[b * _ROWS:(b + 1) * _ROWS].tobytes()) for b in range(_BANDS)]


class DiversityReport(BaseModel):
    """How varied a task set is; numbers for the run report and the dataset card."""

    tasks: int
    worlds: int = Field(description="Distinct worlds the tasks come from.")
    threshold: float
    near_duplicate_pairs: int = Field(description="Pairs that are near-duplicates (exact audit within each family).")
    near_duplicate_tasks: int = Field(description="Tasks with at least one near-duplicate in the set.")
    near_duplicate_rate: float = Field(description="near_duplicate_tasks / tasks.")
    dropped: int = Field(default=0, description="Near-duplicates synthesis dropped before validation (when known).")
    similarity: dict[str, int] = Field(description="Each task's highest instruction similarity to another task of its family, bucketed.")
    by_app: dict[str, int]
    by_family: dict[str, int]
    by_scenario: dict[str, int]
    by_difficulty: dict[str, int]


def diversity_report(tasks: Iterable[Task], threshold: float = DEFAULT_THRESHOLD, dropped: int = 0) -> DiversityReport:
    """The exact near-duplicate audit and the distribution of `tasks`."""
    tasks = list(tasks)
    prints = [_task_fingerprint(t) for t in tasks]
    families: dict[str, list[int]] = defaultdict(list)
    for i, fp in enumerate(prints):
        families[fp.family].append(i)
    best = [0.0] * len(tasks)
    flagged: set[int] = set()
    pairs = 0
    for members in families.values():
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                sim = jaccard(prints[i].shingles, prints[j].shingles)
                best[i], best[j] = max(best[i], sim), max(best[j], sim)
                if prints[i].signature == prints[j].signature or sim >= threshold:
                    pairs += 1
                    flagged.update((i, j))
    edges = (0.2, 0.4, 0.6, 0.8, 1.0)
    buckets = Counter(next(f"<{e:.1f}" for e in edges if b < e) if b < 1.0 else "=1.0" for b in best)
    order = [f"<{e:.1f}" for e in edges] + ["=1.0"]
    return DiversityReport(
        tasks=len(tasks), worlds=len({t.world for t in tasks}), threshold=threshold, near_duplicate_pairs=pairs,
        near_duplicate_tasks=len(flagged), near_duplicate_rate=round(len(flagged) / max(1, len(tasks)), 4), dropped=dropped,
        similarity={k: buckets.get(k, 0) for k in order},
        by_app=dict(sorted(Counter(a for t in tasks for a in t.apps).items())),
        by_family=dict(sorted(Counter(t.meta.family for t in tasks).items())),
        by_scenario=dict(sorted(Counter(scenario_of(t.world or "") for t in tasks).items())),  # a hand-written task has no world
        by_difficulty=dict(sorted(Counter(t.meta.difficulty for t in tasks).items())),
    )


def report_tables(report: DiversityReport) -> list:
    """The report as rich tables (summary, similarity distribution, counts), for the CLI."""
    from rich.table import Table

    summary = Table(title="diversity of the synthesized tasks")
    summary.add_column("measure")
    summary.add_column("value")
    summary.add_row("tasks / distinct worlds", f"{report.tasks} / {report.worlds}")
    summary.add_row("near-duplicates dropped before validation", str(report.dropped))
    summary.add_row(f"near-duplicate rate after dropping (exact audit, Jaccard >= {report.threshold:g} or same change)",
                    f"{100 * report.near_duplicate_rate:.2f}% ({report.near_duplicate_tasks} tasks, {report.near_duplicate_pairs} pairs)")
    summary.add_row("nearest-neighbour instruction similarity", ", ".join(f"{k}: {v}" for k, v in report.similarity.items()))
    tables = [summary]
    for title, counts in (("app", report.by_app), ("family", report.by_family), ("scenario", report.by_scenario),
                          ("difficulty", report.by_difficulty)):
        t = Table(title=f"tasks per {title}")
        t.add_column(title)
        t.add_column("tasks", justify="right")
        for name, n in counts.items():
            t.add_row(name, str(n))
        tables.append(t)
    return tables
