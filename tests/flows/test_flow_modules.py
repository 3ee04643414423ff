"""Flow files load however Prefect imports them: a served deployment loads `flows/<stage>.py` by path, with
`flows/` first on sys.path, so a module there named like a top-level package would shadow that package."""

from __future__ import annotations

import importlib.metadata
import inspect
import subprocess
import sys
from pathlib import Path

from flows import deployable

ROOT = Path(__file__).resolve().parents[2]
FLOWS = ROOT / "flows"


def _top_level_names() -> set[str]:
    """Packages of this repository, the standard library, and every installed distribution's top-level modules."""
    repo = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    installed = set(importlib.metadata.packages_distributions())
    return repo | installed | set(sys.stdlib_module_names)


def test_no_flow_module_shares_a_name_with_a_top_level_package():
    modules = {p.stem for p in FLOWS.glob("*.py")} - {"__init__"}
    assert modules and "environment" in modules
    assert not modules & _top_level_names()


def test_every_deployable_flow_loads_from_its_file_by_path():
    entrypoints = [f"{Path(inspect.getsourcefile(f.fn)).relative_to(ROOT)}:{f.fn.__name__}" for f in deployable()]
    script = ("import sys\nfrom prefect.flows import load_flow_from_entrypoint\n"
              "for e in sys.argv[1:]:\n    print(e, load_flow_from_entrypoint(e).name)\n")
    done = subprocess.run([sys.executable, "-c", script, *entrypoints], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(done.stdout.splitlines()) == len(entrypoints) == 12
