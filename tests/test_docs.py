"""The README and docs/: every relative link resolves inside the repository, the README opens with its two commands, its
tour, Prefect and dataset blocks run as printed, and docs/interop.md's examples run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


# docs/interop.md: each trainer's example, run as a user would paste it, at toy scale (a one-row dataset of a
# shipped fixture task, a tiny policy, a scripted OpenAI-compatible server; `runs/first` is a temporary folder).
INTEROP = ROOT / "docs" / "interop.md"
FIXTURE = ROOT / "mocked_apps" / "mail" / "tasks" / "answer-he-48622.json"


def _example(name: str) -> str:
    found = re.search(rf"<!-- example: {re.escape(name)} -->\n```\w+\n(.*?)```", INTEROP.read_text(), re.S)
    assert found, f"docs/interop.md has no example {name!r}"
    return found.group(1)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """`runs/first` as the examples expect it: a dataset folder of the fixture task, with its golden run's demonstration
    (validated in Chromium, as `gymfactory run` does)."""
    from contracts.taskfiles import load_tasks
    from factory.verifiers.validate import ValidationConfig, validate_task
    from flows.dataset import export
    from flows.run_evidence import gather
    from runtime.manager import EnvironmentManager

    run = tmp_path_factory.mktemp("runs") / "first"
    tasks = load_tasks(FIXTURE)
    with EnvironmentManager() as manager:
        results = [validate_task(t, manager, ValidationConfig(runs=1)) for t in tasks]
    assert all(r.accepted for r in results), [r.detail for r in results]
    (run / "tasks").mkdir(parents=True)
    (run / "tasks" / "validation.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    export(tasks, run / "dataset", evidence=gather(run), run=run)
    return run


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _run_python(code: str, run: Path, env: dict | None = None):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", code.replace("runs/first", str(run))], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "OPENAI_API_KEY": "test", "TRL_EXPERIMENTAL_SILENCE": "1", **(env or {})})


def _python(code: str, run: Path, env: dict | None = None) -> str:
    done = _run_python(code, run, env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


class _Served:
    """A bash example's `gymfactory serve ...` line, started as the user would, stopped with Ctrl-C."""

    def __init__(self, line: str, run: Path):
        import shlex
        import subprocess
        import sys

        args = shlex.split(line.strip().replace("runs/first", str(run)))
        assert args[0] == "gymfactory", line
        self.proc = subprocess.Popen([sys.executable, "-m", "gymfactory.cli", *args[1:]], cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        import signal

        self.proc.send_signal(signal.SIGINT)
        assert self.proc.wait(timeout=60) == 0


def test_interop_gymnasium_example(first_run):
    out = _python(_example("gymnasium"), first_run)
    assert out.startswith("How much is due on invoice HE-48622?") and "reward 1.0 success" in out  # the instruction first


def test_interop_openenv_example():
    port = _free_port()
    with _Served(_example("openenv-serve").replace("8000", str(port)), ROOT) as served:
        assert "OpenEnv server on" in served.proc.stderr.readline()
        out = _python(_example("openenv").replace("8000", str(port)), ROOT)
    assert "How much is due on invoice HE-48622?" in out and "reward 1.0 success" in out


def test_interop_verifiers_examples(first_run):
    import os
    import shlex
    import subprocess
    import sys

    from tests.support.scripted_llm import ScriptedLLM

    replies = ['The invoice says 172.00.\nanswer("172.00")', 'answer("9")', 'answer("172.00")']
    with ScriptedLLM(replies) as llm:
        direct = _python(_example("verifiers"), first_run, {"OPENAI_BASE_URL": llm.openai_base_url})
        address = f"tcp://127.0.0.1:{_free_port()}"
        with _Served(_example("verifiers-serve").replace("tcp://127.0.0.1:5000", address), first_run):
            served = _python(_example("verifiers-client").replace("tcp://127.0.0.1:5000", address), first_run,
                             {"OPENAI_BASE_URL": llm.openai_base_url})
        line = _example("verifiers-cli").replace("\\\n", " ").replace("runs/first", str(first_run))
        args = shlex.split(line.replace("http://127.0.0.1:8001/v1", llm.openai_base_url))
        assert args[0] == "vf-eval", line
        cli = subprocess.run([str(Path(sys.executable).parent / "vf-eval"), *args[1:]], cwd=ROOT, capture_output=True,
                             text=True, timeout=600, env={**os.environ, "OPENAI_API_KEY": "test"})
        assert cli.returncode == 0, cli.stderr[-3000:]
        assert llm.pending() == 0 and "HE-48622" in llm.requests[0].text()
    assert "reward 1.0" in direct and "reward 0.0" in served  # the server scored the second, wrong, answer
    runs = sorted((first_run / "verifiers").glob("gymfactory_verifiers--my-model--*/traces.jsonl"))  # the eval's and the command's
    assert len(runs) == 2 and all('"task_reward":{"score":1.0' in run.read_text().replace(" ", "") for run in runs)


def test_interop_verifiers_example_with_no_model_listening_is_an_env_error_not_a_zero(first_run):
    """Nothing listens at OPENAI_BASE_URL: the example exits non-zero with one line naming the env error."""
    done = _run_python(_example("verifiers"), first_run, {"OPENAI_BASE_URL": f"http://127.0.0.1:{_free_port()}/v1"})
    assert done.returncode == 1 and "reward" not in done.stdout, (done.stdout, done.stderr[-2000:])
    assert done.stderr.strip().splitlines()[-1] == "env error, not scored: ProviderError: All connection attempts failed"


def test_interop_trl_example(first_run):
    """GRPO on the reference model, as printed: one step, nothing large left in the run folder."""
    before = _size(first_run)
    out = _python(_example("trl"), first_run)
    assert re.search(r"^reward \d\.\d+$", out.strip().splitlines()[-1]), out[-2000:]
    assert _size(first_run) - before < 1_000_000


def test_interop_sft_examples(first_run):
    """The demonstrations load as shown, and SFT on the reference model takes a step as printed, saving no checkpoint."""
    rows = _python(_example("sft-rows") + "\nprint(row['action'], len(row['messages']))", first_run)
    assert rows.strip().splitlines()[-1].split()[-1] == "3"  # the first step: system, page, action
    before = _size(first_run)
    out = _python(_example("sft"), first_run)
    assert re.search(r"^loss \d+\.\d+", out.strip().splitlines()[-1]), out[-2000:]
    assert _size(first_run) - before < 1_000_000


# README.md: the blocks a user runs after the first command, each line as printed, from a folder of their own that holds
# the venv (`.venv`) and `runs/first` (the fixture run above stands for the README's first command). Not run: the
# opening block (scripts/install.sh and `gymfactory run --out runs/first`, which the fixture stands for; scripts/test.sh,
# which is this suite) and the lines below, each with why.
README = ROOT / "README.md"
TOUR_NOT_RUN = {
    "gymfactory rollout --agent reference --tasks accepted.jsonl --attempts 2":
        "48 attempts of up to 30 steps of the 135M reference model on the CPU, seconds a step; tests/rl/test_reference.py "
        "steps it on a real app",
    "gymfactory train --tasks accepted.jsonl --out runs/train":
        "20 SFT epochs and 10 GRPO steps of 32 attempts of the 135M reference model on the CPU; the tour's --init-tiny line "
        "runs the same command, and tests/rl/test_train.py trains end to end",
    "gymfactory bench learn --out runs/learn": "80-100 minutes on 2 quiet cores (docs/learning.md); tests/rl/test_bench_learn.py "
                                               "runs it end to end at toy scale",
    "gymfactory bench transfer --out runs/transfer": "hours on a CPU (docs/learning.md); tests/rl/test_bench_transfer.py runs it "
                                                     "end to end at toy scale",
}


def _readme_block(heading: str, lang: str = "bash") -> str:
    text = README.read_text()
    found = re.search(rf"```{lang}\n(.*?)```", text[text.index(heading):], re.S)
    assert found, f"README.md has no {lang} block after {heading!r}"
    return found.group(1)


def _command_lines(block: str) -> list[str]:
    """The block's commands as a user pastes them: comment lines and blank lines dropped, trailing comments kept off, a line
    continued with a backslash joined to the next."""
    lines = [re.sub(r"\s+#\s.*$", "", line).strip() for line in block.replace("\\\n", " ").splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _user_folder(first_run: Path, folder: Path) -> Path:
    """A folder as the README's user has it after the first command: the venv as `.venv` and the run as `runs/first`."""
    import sys

    (folder / ".venv").symlink_to(Path(sys.prefix))
    (folder / "runs").mkdir()
    (folder / "runs" / "first").symlink_to(first_run)
    return folder


def _shell(line: str, folder: Path, env: dict | None = None, timeout: float = 900):
    """`line` in bash in `folder`, after the block's `source .venv/bin/activate`; its own GYMFACTORY_HOME."""
    import os
    import subprocess

    return subprocess.run(["bash", "-c", f"source .venv/bin/activate && {line}"], cwd=folder, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "GYMFACTORY_HOME": str(folder / "home"), "OPENAI_API_KEY": "test",
                                                **(env or {})})


def test_the_readme_tour_runs_as_printed(first_run, tmp_path):
    """Every line of the five-minute tour but TOUR_NOT_RUN, in order, as printed: the served app answers its URL and stops
    on Ctrl-C, and the OpenAI-compatible endpoint is a scripted server in place of 127.0.0.1:8000."""
    import signal
    import subprocess
    import time

    import httpx

    from tests.support.scripted_llm import ScriptedLLM

    lines = _command_lines(_readme_block("## A five-minute tour"))
    assert lines[0] == "source .venv/bin/activate" and set(TOUR_NOT_RUN) <= set(lines), lines
    folder = _user_folder(first_run, tmp_path)
    took: dict[str, float] = {}
    for line in lines:
        if line in TOUR_NOT_RUN:
            continue
        start = time.monotonic()
        if line == "gymfactory apps serve mail":
            proc = subprocess.Popen(["bash", "-c", f"source .venv/bin/activate && exec {line}"], cwd=folder, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, start_new_session=True)
            try:
                ready = proc.stdout.readline()
                url = re.search(r"instance ready: (http\S+)", ready)
                assert url, ready
                assert httpx.get(url.group(1), follow_redirects=True, timeout=30).status_code == 200
            finally:
                proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=60) == 0
        elif line.startswith("OPENAI_BASE_URL=http://127.0.0.1:8000/v1 "):
            accepted = (folder / "accepted.jsonl").read_text().splitlines()
            with ScriptedLLM(['answer("I cannot tell")'] * len(accepted)) as llm:
                done = _shell(line.replace("http://127.0.0.1:8000/v1", llm.openai_base_url), folder)
                assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
                assert llm.pending() == 0 and "my-model" in llm.requests[0].body["model"]
        else:
            done = _shell(line, folder)
            assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
        took[line] = time.monotonic() - start
    print("\n".join(f"{s:6.1f} s  {line}" for line, s in took.items()))
    accepted = (folder / "accepted.jsonl").read_text().splitlines()
    assert len((folder / "tasks.jsonl").read_text().splitlines()) == 24 and len(accepted) >= 20
    assert any((folder / "worlds").iterdir()) and (folder / "runs" / "toy").is_dir()
    assert len(took) == len(lines) - len(TOUR_NOT_RUN)


def test_the_readme_dataset_example_runs_as_printed(first_run):
    out = _python(_readme_block("### Using the dataset", "python") + "\nprint(task)", first_run)
    assert '"HE-48622"' in out or "HE-48622" in out


PREFECT_NOT_RUN = {"gymfactory run --out runs/ui": "the whole pipeline, 310 tasks (7 min 30 s on 2 idle cores); "
                                                   "tests/flows/test_pipeline.py runs it at toy scale on a Prefect server"}


def test_the_readme_prefect_ui_block_runs_as_printed(tmp_path):
    """`prefect server start` in one terminal (on a free port, its own PREFECT_HOME), then the export and `flows serve` in
    another: every flow appears as a deployment on that server, and Ctrl-C stops both."""
    import os
    import signal
    import subprocess
    import time

    import httpx

    from flows import deployable
    from flows.cli import deployment_name

    lines = _command_lines(_readme_block("### Watching runs in the Prefect UI"))
    assert lines[0] == "prefect server start" and lines[1].startswith("export PREFECT_API_URL=http://127.0.0.1:4200/api")
    assert set(PREFECT_NOT_RUN) <= set(lines) and lines[-1] == "gymfactory flows serve", lines
    folder = _user_folder_without_run(tmp_path)
    port = _free_port()
    env = {**os.environ, "PREFECT_HOME": str(folder / "prefect"), "PREFECT_SERVER_API_PORT": str(port),
           "GYMFACTORY_HOME": str(folder / "home"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    env.pop("PREFECT_API_URL", None)
    api = f"http://127.0.0.1:{port}/api"
    terminal_2 = " && ".join(line.replace("4200", str(port)) for line in lines[1:] if line not in PREFECT_NOT_RUN)

    def started(cmd: str) -> subprocess.Popen:
        # as from a terminal: Ctrl-C reaches `prefect server start` (Prefect's own command) even when the suite itself
        # was started with SIGINT ignored (`scripts/test.sh &` from a script); `gymfactory flows serve` sees to itself
        return subprocess.Popen(["bash", "-c", f"source .venv/bin/activate && {cmd}"], cwd=folder, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) if cmd.startswith("prefect ") else None)

    def stopped(proc: subprocess.Popen) -> int:
        os.killpg(proc.pid, signal.SIGINT)
        return proc.wait(timeout=120)

    server = started(lines[0])
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if httpx.get(f"{api}/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        else:
            pytest.fail(f"prefect server start did not answer at {api} (exit {server.poll()})")
        serving = started(terminal_2)
        try:
            flows = {deployment_name("gymfactory", f.name) for f in deployable()}
            names: set[str] = set()
            while time.monotonic() < deadline + 240 and serving.poll() is None and names != flows:
                time.sleep(2)
                names = {d["name"] for d in httpx.post(f"{api}/deployments/filter", json={}, timeout=10).json()}
            assert names == flows, (sorted(flows - names), serving.poll())
        finally:
            assert stopped(serving) == 0
    finally:
        stopped(server)


def _user_folder_without_run(folder: Path) -> Path:
    import sys

    (folder / ".venv").symlink_to(Path(sys.prefix))
    return folder
