"""Dependencies point one way: flows -> rl / factory -> runtime -> mocked_apps -> contracts (DESIGN.md).

The graph is built from the AST of every module of every top-level package, with every import
statement counted wherever it sits (an import inside a function to dodge a cycle is a cycle).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Floor of each top-level package: a package may import only packages on a lower floor.
FLOORS = {"contracts": 0, "mocked_apps": 1, "runtime": 2, "factory": 3, "rl": 3, "flows": 4, "bench": 5, "gymfactory": 6,
          "gymfactory_verifiers": 3}


def _imports(path: Path) -> set[str]:
    """Top-level packages of ours that the module imports, relative imports resolved to its own."""
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            tops |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.split(".")[0])
    return tops & set(FLOORS)


def package_graph() -> dict[str, dict[str, list[str]]]:
    """Package -> imported package -> the modules that import it."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for package in FLOORS:
        for path in sorted((ROOT / package).rglob("*.py")):
            for target in _imports(path) - {package}:
                graph[package][target].append(str(path.relative_to(ROOT)))
    return graph


def _cycle(graph: dict[str, dict[str, list[str]]]) -> list[str] | None:
    """One cycle of the graph as a path of packages, or None."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [node, nxt] if nxt in path else [node, nxt]
            if nxt not in state and (found := visit(nxt, path + [node])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [])):
            return found
    return None


def test_the_package_graph_has_no_cycle():
    graph = package_graph()
    assert graph["runtime"], "the scan found no imports: the graph builder is broken"
    assert _cycle(graph) is None, f"import cycle between packages: {' -> '.join(_cycle(graph))}"


def test_every_import_points_down():
    upward = [f"{pkg} -> {target} ({', '.join(mods[:3])})"
              for pkg, targets in package_graph().items() for target, mods in targets.items()
              if FLOORS[target] >= FLOORS[pkg]]
    assert not upward, "imports that do not point down:\n" + "\n".join(upward)


def test_the_cycle_finder_finds_a_planted_cycle():
    planted = {"contracts": {"runtime": ["contracts/x.py"]}, "runtime": {"contracts": ["runtime/y.py"]}}
    assert _cycle(planted) in (["contracts", "runtime", "contracts"], ["runtime", "contracts", "runtime"])


def test_contracts_import_nothing_of_ours_above():
    assert set(package_graph().get("contracts", {})) == set()
