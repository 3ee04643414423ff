"""scripts/spec_lint.py as a spec writer runs it: a catalogue spec passes; lorem in the spec's own labels, a spec that
does not compile and a copy of another app each fail with the reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "mocked_apps" / "catalogue" / "specs" / "watchpile.yaml"


def _lint(path: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "spec_lint.py"), str(path)], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def _variant(tmp_path: Path, name: str, change) -> Path:
    spec = yaml.safe_load(SPEC.read_text())
    spec["name"] = name
    change(spec)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False))
    return path


def test_a_catalogue_spec_lints_ok():
    code, out = _lint(SPEC)
    assert code == 0 and out.startswith("ok ") and "1/1 ok" in out, out


def test_lorem_in_a_label_fails(tmp_path):
    def lorem(spec):
        spec["entities"]["watch_item"]["fields"]["kind"]["label"] = "Lorem ipsum dolor"
        spec["entities"]["watch_item"]["transitions"]["drop"]["label"] = "Consectetur adipiscing elit"

    code, out = _lint(_variant(tmp_path, "loremwatch", lorem))
    assert code == 1 and "labels the content law flags" in out and "lorem" in out.lower(), out


def test_a_spec_that_does_not_compile_fails_with_the_reason(tmp_path):
    def broken(spec):
        spec["entities"]["watch_item"]["title"] = "no_such_field"

    code, out = _lint(_variant(tmp_path, "brokenwatch", broken))
    assert code == 1 and "does not compile" in out and "no_such_field" in out, out


def test_a_renamed_copy_of_an_app_is_too_close(tmp_path):
    code, out = _lint(_variant(tmp_path, "copywatch", lambda spec: spec.update(title="Copywatch")))
    assert code == 1 and "too close to watchpile" in out, out
