"""Task bundles: revisions per task, versions per bundle, same tasks -> same file, a tampered bundle refused."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest

from factory.bundles import BundleTampered, app_mismatches, bundle, load
from contracts.taskfiles import load_tasks, save_tasks
from factory.tasks.synthesize import SynthConfig, synthesize

@pytest.fixture(scope="module")
def tasks():
    return synthesize(SynthConfig(n=3, families=("mail.star_invoice_email", "drive.rename_document"), personas=("alex",),
                                  scenarios=("month_end",), worlds_per_pair=1, seed=2))


def _rewrite(path: Path, member: str, edit) -> Path:
    """A copy of the bundle with one member's bytes edited (the other left as it is)."""
    with tarfile.open(path, "r:gz") as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    files[member] = edit(files[member])
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    bad = path.with_name("tampered.tar.gz")
    bad.write_bytes(gzip.compress(buf.getvalue()))
    return bad


def test_revisions_versions_and_same_content_same_file(tasks, tmp_path):
    first = bundle(tasks, tmp_path, "demo")
    b1 = load(first)
    assert first.name == "demo-v1.tar.gz" and {e.revision for e in b1.manifest.tasks} == {1}
    assert [a.app for a in b1.manifest.apps] == ["drive", "mail"] and app_mismatches(b1.manifest) == []
    assert bundle(tasks, tmp_path, "demo") == first and len(list(tmp_path.glob("*.tar.gz"))) == 1
    changed = [tasks[0].model_copy(update={"instruction": tasks[0].instruction + " Please."}), *tasks[1:]]
    second = bundle(changed, tmp_path, "demo")
    revisions = {e.id: e.revision for e in load(second).manifest.tasks}
    assert second.name == "demo-v2.tar.gz" and revisions[tasks[0].id] == 2 and revisions[tasks[1].id] == 1
    assert load(second).tasks[[t.id for t in load(second).tasks].index(tasks[0].id)].instruction.endswith("Please.")


def test_tampered_bundles_are_refused(tasks, tmp_path):
    good = bundle(tasks, tmp_path, "demo")
    verifier_edit = _rewrite(good, "tasks.jsonl", lambda b: b.replace(b"def verify", b"def verify_", 1))
    with pytest.raises(BundleTampered, match="tasks.jsonl does not match its checksum"):
        load(verifier_edit)
    manifest_edit = _rewrite(good, "bundle.json", lambda b: b.replace(b'"version": 1', b'"version": 7', 1))
    with pytest.raises(BundleTampered, match="does not match its own digest"):
        load(manifest_edit)
    with pytest.raises(BundleTampered, match="not the expected"):
        load(good, expect="0" * 64)
    (tmp_path / "junk.tar.gz").write_bytes(b"not a bundle")
    with pytest.raises(BundleTampered, match="not a readable bundle"):
        load(tmp_path / "junk.tar.gz")


def test_cli_bundles_loads_and_refuses_a_tampered_bundle_in_one_line(tasks, tmp_path):
    from typer.testing import CliRunner

    from gymfactory.cli import build

    save_tasks(tasks, tmp_path / "tasks.jsonl")
    runner, root = CliRunner(), build()
    made = runner.invoke(root, ["tasks", "bundle", str(tmp_path / "tasks.jsonl"), "--name", "demo", "--out", str(tmp_path / "b")])
    assert made.exit_code == 0 and "version 1, 3 tasks" in made.stdout, made.output
    path = tmp_path / "b" / "demo-v1.tar.gz"
    loaded = runner.invoke(root, ["tasks", "load", str(path), "--out", str(tmp_path / "back.jsonl")])
    assert loaded.exit_code == 0, loaded.output
    assert [t.model_dump() for t in load_tasks(tmp_path / "back.jsonl")] == [t.model_dump() for t in sorted(tasks, key=lambda t: t.id)]
    bad = _rewrite(path, "tasks.jsonl", lambda b: b.replace(b"def verify", b"def verify_", 1))
    refused = runner.invoke(root, ["tasks", "load", str(bad)])
    assert refused.exit_code == 2 and refused.stderr.startswith("error: ") and "refused" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
