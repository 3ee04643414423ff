"""Lines an app's author writes: the files of an app folder and their lines (`wc -l`), generated files apart.

`gymfactory bench apps --lines bank` counts the working tree; `--at COMMIT` counts the folder as it was then
(the #13 baseline: `--lines bank --at 8b43953`, the bank when the issue was filed). A seed.json is generated
(`gymfactory apps seed`) when the app has a projection.py beside it, so it is counted apart, not as written. That
rule holds from commit afbc245 on (when default seeds became projections): at older commits a seed.json beside a
projection.py was still hand-written, so add its lines back (e.g. at 5f546b4: 1,616 + 128 = 1,744).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[1]
__all__ = ["AppLines", "app_lines"]


class AppLines(BaseModel):
    app: str
    at: str = "working tree"
    files: dict[str, int]
    generated: dict[str, int]

    @property
    def authored(self) -> tuple[int, int]:
        """(files, lines) the author wrote."""
        return len(self.files), sum(self.files.values())


def _listing(folder: str, at: str | None) -> dict[str, int]:
    """Tracked files under `folder` -> lines, in the working tree or at commit `at`."""
    git = ["git", "-C", str(ROOT)]
    names = subprocess.run(git + (["ls-tree", "-r", "--name-only", at, folder] if at else ["ls-files", folder]),
                           check=True, capture_output=True, text=True).stdout.split()
    out = {}
    for name in names:
        data = subprocess.run(git + ["show", f"{at}:{name}"], check=True, capture_output=True).stdout if at else (ROOT / name).read_bytes()
        out[name] = data.count(b"\n")
    return out


def app_lines(app: str, at: str | None = None) -> AppLines:
    """The authored and generated files of `mocked_apps/APP/` (now, or at commit `at`)."""
    folder = f"mocked_apps/{app}"
    listing = _listing(folder, at)
    if not listing:
        raise ValueError(f"no tracked files under {folder}" + (f" at {at}" if at else ""))
    projected = f"{folder}/projection.py" in listing
    generated = {n: k for n, k in listing.items() if projected and n == f"{folder}/seed.json"}
    return AppLines(app=app, at=at or "working tree", files={n: k for n, k in listing.items() if n not in generated},
                    generated=generated)
