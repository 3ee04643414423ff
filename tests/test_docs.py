"""The README and docs/: every relative link resolves inside the repository, and the README opens with its two commands."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _relative_links(doc: Path) -> list[str]:
    targets = [a or b for a, b in LINK.findall(doc.read_text())]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_every_relative_link_in_the_readme_and_docs_resolves():
    assert (ROOT / "docs" / "architecture.md") in DOCS
    assert "docs/architecture.md" in _relative_links(ROOT / "README.md")
    broken = []
    for doc in DOCS:
        for target in _relative_links(doc):
            path = (doc.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() or ROOT not in (path, *path.parents):
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_readme_opens_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[2] == "```bash"
    assert lines[3].startswith("scripts/install.sh && .venv/bin/gymfactory run --out runs/first")
    assert lines[4].startswith("scripts/test.sh ")
    assert lines[5] == "```"
