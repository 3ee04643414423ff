"""Lint app spec files without a browser: parse, compile, derived families, sample text, and nearness to other apps.

    .venv/bin/python scripts/spec_lint.py path/to/app.yaml [more.yaml ...] [--against DIR ...]

Per spec: it parses (`read_spec`), compiles (`compile_spec`), derives at least `--min-families` task families,
its default seed's text and its own labels (titles, field, button and page labels, choices) pass the checker's content
law (no lorem, catch phrases or word salad), and its structural similarity to every other spec (the catalogue's, and the other files given) stays under
`--max-similarity`. Similarity is the Jaccard index of the two specs' vocabularies of structure: entity names,
field names with their types, states, transition names and page archetypes per entity. Two variations of one
spec (`factory.apps.specgen.vary_spec`) score about 1.0; unrelated apps near 0. It takes well under a second a
spec; the checker (`gymfactory apps check`) is what proves an app in the browser.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mocked_apps.catalogue import compiled  # noqa: E402
from mocked_apps.checker.content import failing, problems  # noqa: E402
from mocked_apps.kit.compiler import compile_spec  # noqa: E402
from mocked_apps.kit.spec import AppSpec, SpecError, read_spec, sample_seed  # noqa: E402
from mocked_apps.kit.spec.derive import derive_families  # noqa: E402

CLOCK = datetime(2026, 3, 2, 9)


def shape(spec: AppSpec) -> set[str]:
    """The spec's vocabulary of structure: what two apps share when one is a copy of the other."""
    out: set[str] = set()
    for e in spec.entities:
        out.add(f"entity:{e.name}")
        out |= {f"field:{f.name}:{f.type}" for f in e.fields}
        out |= {f"state:{s}" for s in e.states}
        out |= {f"transition:{t.name}" for t in e.transitions}
    out |= {f"page:{p.archetype}:{p.entity}" for p in spec.pages}
    return out


def labels(spec) -> list[str]:
    """The words the spec itself puts on its pages: titles, descriptions, entity, field and button labels, choices,
    page titles and settings (the content law reads them on every page, as it reads the sample rows)."""
    out = [spec.title, spec.description, spec.tagline]
    for e in spec.entities:
        out += [e.display, e.display_plural, *e.computed, *e.tabs]
        out += [t for f in e.fields for t in (f.display, *f.choices)]
        out += [e.transition_label(t) for t in e.transitions]
    out += [p.title for p in spec.pages]
    for key, default in spec.settings.items():
        out += [key.replace("_", " "), *(str(v) for v in default if isinstance(v, str))] if isinstance(default, list) else [key.replace("_", " ")]
    return [t for t in out if t]


def similarity(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def lint(path: Path, others: dict[str, set[str]], min_families: int, max_similarity: float) -> tuple[list[str], str]:
    """(what is wrong with the spec at `path`, empty when nothing; its nearest other app and their similarity)."""
    try:
        spec = read_spec(path)
        compile_spec(spec)
    except (SpecError, ValueError) as err:
        return [f"does not compile: {err}"], ""
    wrong = []
    families = derive_families(spec)
    if len(families) < min_families:
        wrong.append(f"{len(families)} derived families (at least {min_families}): give an entity states with transitions and a create form")
    seed = sample_seed(spec, spec.sample_seed, CLOCK)
    found = problems(str(v) for rows in seed.values() for r in rows for v in r.values() if isinstance(v, str))
    if failing(found):
        wrong.append(f"sample text the content law flags: {found}")
    found = problems(labels(spec))
    if failing(found):
        wrong.append(f"labels the content law flags: {found}")
    mine = shape(spec)
    near = sorted(((similarity(mine, s), name) for name, s in others.items() if name != spec.name), reverse=True)[:1]
    if near and near[0][0] > max_similarity:
        wrong.append(f"too close to {near[0][1]} (similarity {near[0][0]:.2f} > {max_similarity})")
    return wrong, f"{len(families)} families, nearest {near[0][1]} {near[0][0]:.2f}" if near else f"{len(families)} families"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", type=Path)
    parser.add_argument("--against", nargs="*", type=Path, default=[], help="More folders of specs to compare with (their subfolders too).")
    parser.add_argument("--min-families", type=int, default=3)
    parser.add_argument("--max-similarity", type=float, default=0.5)
    args = parser.parse_args(argv)
    paths = {name: Path(p) for name, p in compiled().items()}
    for folder in args.against:
        paths |= {p.stem: p for p in sorted(folder.rglob("*.yaml"))}  # its subfolders too
    paths |= {p.stem: p for p in args.specs}
    others = {}
    for name, p in paths.items():
        try:
            others[read_spec(p).name] = shape(read_spec(p))
        except (SpecError, ValueError):
            pass
    bad, nearest = 0, []
    for p in args.specs:
        wrong, about = lint(p, others, args.min_families, args.max_similarity)
        bad += bool(wrong)
        nearest += [float(about.rsplit(" ", 1)[1])] if "nearest" in about else []
        print(f"{'FAIL' if wrong else 'ok  '} {p} ({about})" + "".join(f"\n     - {w}" for w in wrong))
    if nearest:
        nearest.sort()
        print(f"{len(args.specs) - bad}/{len(args.specs)} ok; similarity to the nearest other app: median {nearest[len(nearest) // 2]:.2f}, "
              f"max {nearest[-1]:.2f} (over {len(others)} apps)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
