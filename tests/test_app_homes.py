"""One home per app: no app-specific table name, UI label or title outside its own package, except
through its recipes (issue #13). Cross-app families get these from `mocked_apps/<app>/recipes.py`.

What counts as app-specific: a table of the app's models accessed as `["table"]` (how verifier code
reads a state dump), a label of two or more words that the app's recipes click or fill ("Search
mail", "Pay a bill"), and the app's title when it has two or more words ("Meridian Business Online").
Single words ("To", "Amount", "Mail") are common to many apps and to prose.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mocked_apps.kit import load_manifest
from mocked_apps.registry import SHIPPED

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = [p for top in ("contracts", "runtime", "factory", "rl", "flows", "bench", "gymfactory") for p in (ROOT / top).rglob("*.py")]
OUTSIDE += [p for p in (ROOT / "mocked_apps").glob("*.py")] + [p for d in ("kit", "checker") for p in (ROOT / "mocked_apps" / d).rglob("*.py")]
# the kit's own words and their synonyms in appearance variants ("Add to cart", "Place order", "Save changes"): the
# kit's vocabulary, which some apps' buttons happen to share; nothing there reads or drives those apps
OUTSIDE = [p for p in OUTSIDE if p != ROOT / "mocked_apps" / "kit" / "variant.py"]


def tables(app: str) -> set[str]:
    """Table names of the app's models (class name lower-cased, or its `__tablename__`)."""
    out = set()
    for node in ast.parse((ROOT / "mocked_apps" / app / "models.py").read_text()).body:
        if isinstance(node, ast.ClassDef) and any(k.arg == "table" for k in node.keywords):
            named = [s.value.value for s in node.body if isinstance(s, ast.Assign)
                     and any(getattr(t, "id", "") == "__tablename__" for t in s.targets)]
            out.add(named[0] if named else node.name.lower())
    return out


def labels(app: str) -> set[str]:
    """The multi-word labels the app's recipes find elements by, as drawn: `"Search mail"`, or a kit word said through the
    variant's vocabulary and the rest of the label, `env.word("Search") + " mail"`."""
    source = (ROOT / "mocked_apps" / app / "recipes.py").read_text()
    found = re.findall(r'env\.(?:click|fill|select)\((?:"([^"{]+)"|env\.word\("([^"]+)"\) \+ "([^"{]+)")', source)
    return {label for plain, word, rest in found if len((label := plain or word + rest).split()) >= 2}


def violations(app: str, paths: list[Path]) -> list[str]:
    title = load_manifest(SHIPPED[app]).title
    # a table read as `state["table"]`; `Literal["booking"]` is a type, not a read
    patterns = [(f"table {t}", re.compile(r"""(?<!Literal)\[\s*["']%s["']\s*\]""" % re.escape(t))) for t in tables(app)]
    patterns += [(f"label {label!r}", re.compile(r"""["']%s["']""" % re.escape(label))) for label in labels(app)]
    if len(title.split()) >= 2:
        patterns += [(f"title {title!r}", re.compile(r"""["']%s["']""" % re.escape(title)))]
    out = []
    for path in paths:
        text = path.read_text()
        for what, pattern in patterns:
            for m in pattern.finditer(text):
                out.append(f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {what}")
    return out


@pytest.mark.parametrize("app", sorted(SHIPPED))
def test_nothing_outside_the_app_retypes_its_tables_labels_or_title(app):
    assert tables(app) and labels(app), "the scan found nothing to look for: it is broken"
    assert violations(app, OUTSIDE) == []


def test_the_scan_catches_a_retyped_label_and_table(tmp_path):
    planted = tmp_path / "family.py"
    planted.write_text("GOLDEN = 'env.fill(\"Search mail\", x)'\nVERIFY = 'final.state[\"mail\"][\"thread\"]'\n")
    found = violations("mail", [planted])
    assert any("label 'Search mail'" in v for v in found) and any("table thread" in v for v in found)


def test_cross_app_families_get_the_labels_through_the_recipes():
    from factory.tasks.families import FAMILIES

    sources = (ROOT / "factory" / "tasks" / "families" / "cross.py").read_text()
    assert "recipes as bank" in sources and "Pay a bill" not in sources
