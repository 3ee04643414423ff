"""What a pipeline run recorded about its tasks, read back for the dataset: verdicts, attempts, demonstrations.

The dataset states per task how it was validated and how the reference agents did, and ships the
golden run's actions with the observations they refer to; all of it comes from the run folder
(`tasks/validation.jsonl`, `rollouts/<agent>.jsonl`, `rollouts/trajectories.db`, and the screenshots in
`objects/`), never re-run here.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from contracts.demonstration import DemoStep, anonymous_url
from factory.verifiers.validate import ValidationResult
from runtime.rollout import AttemptResult
from contracts.status import SCORED
from runtime.objectstore import ObjectStore, default_url

from .difficulty import ORACLE

__all__ = ["DemoStep", "RunEvidence", "agent_outcomes", "gather", "objects_of", "replay_counts", "replay_line", "validation_evidence"]


class RunEvidence(BaseModel):
    """Everything a run folder says about its tasks besides the tasks themselves."""

    model_config = ConfigDict(frozen=True)

    validation: dict[str, ValidationResult] = Field(default_factory=dict, description="Task id -> its last validation verdict.")
    attempts: dict[str, list[AttemptResult]] = Field(default_factory=dict, description="Agent -> its rollout attempts.")
    demonstrations: dict[str, list[DemoStep]] = Field(default_factory=dict, description="Task id -> the golden run's steps.")
    too_easy: tuple[str, ...] = Field(default=(), description="Tasks the difficulty filter dropped (a model solved them k/k, or "
                                      "the random agent too often).")
    unsolved: tuple[str, ...] = Field(default=(), description="Tasks attempted by agents other than the oracle and never solved.")


def gather(run: Path, store_url: str | None = None) -> RunEvidence:
    """Read the evidence of the run folder `run` and its trajectory store (default the folder's own SQLite file);
    missing files mean no evidence of that kind."""
    tasks = run / "tasks"
    validation: dict[str, ValidationResult] = {}
    if (tasks / "validation.jsonl").is_file():
        for line in (tasks / "validation.jsonl").read_text().splitlines():
            r = ValidationResult.model_validate_json(line)
            validation[r.task_id] = r
    attempts: dict[str, list[AttemptResult]] = {}
    for path in sorted((run / "rollouts").glob("*.jsonl")) if (run / "rollouts").is_dir() else ():
        attempts[path.stem] = [AttemptResult.model_validate_json(line) for line in path.read_text().splitlines() if line]
    # verdicts of a run made before validation recorded observations have only the actions: a successful golden
    # rollout, where there is one, gives them their observations
    demos = _demonstrations(validation)
    rollouts = _observed_golden_runs(store_url or str(run / "rollouts" / "trajectories.db"), attempts.get("golden", []))
    demos.update({tid: steps for tid, steps in rollouts.items() if not any(s.observed for s in demos.get(tid, []))})
    too_easy, unsolved = (tuple(json.loads((tasks / f).read_text())) if (tasks / f).is_file() else ()
                          for f in ("too_easy.json", "unsolved.json"))
    return RunEvidence(validation=validation, attempts=attempts, demonstrations=demos, too_easy=too_easy, unsolved=unsolved)


def validation_evidence(results: list[ValidationResult]) -> RunEvidence:
    """The evidence of validation alone (a regenerated version has no rollouts): its verdicts and demonstrations."""
    validation = {r.task_id: r for r in results}
    return RunEvidence(validation=validation, demonstrations=_demonstrations(validation))


def _demonstrations(validation: dict[str, ValidationResult]) -> dict[str, list[DemoStep]]:
    """Each accepted task's demonstration: the validation's first golden run, with the observation of each action
    (the actions alone where the verdict recorded none)."""
    return {tid: list(r.golden_steps) or [DemoStep(action=a) for a in r.golden_actions] for tid, r in validation.items() if r.accepted}


def objects_of(run: Path, url: str | None = None) -> ObjectStore | None:
    """The object store of the run folder `run`: `url` when the run was given one (`--objects-url`), else its own
    `objects/`; a run made before screenshots lived in the run folder has none, and kept them in
    `$GYMFACTORY_HOME/objects`. None when there is no such folder either."""
    if url:
        return ObjectStore(url)
    for folder in (Path(run) / "objects", Path(default_url())):
        if folder.is_dir():
            return ObjectStore(folder)
    return None


def _observed_golden_runs(store_url: str, golden: list[AttemptResult]) -> dict[str, list[DemoStep]]:
    """Successful golden rollouts read from the trajectory store: each action with the observation it acted on."""
    winners = {r.task_id: r.attempt_id for r in golden if r.success}
    if not winners or ("://" not in store_url and not Path(store_url).is_file()):
        return {}
    from runtime.store import TrajectoryStore

    store = TrajectoryStore(store_url)
    try:
        out = {}
        for task_id, attempt_id in winners.items():
            steps = [s for s in store.steps(attempt_id) if s.action]
            out[task_id] = [DemoStep(action=s.action, url=anonymous_url(s.url), axtree=s.axtree, screenshot=s.screenshot,
                                     error=s.error, shell_output=s.shell_output) for s in steps]
        return out
    finally:
        store.close()


def agent_outcomes(evidence: RunEvidence) -> dict[str, list[dict]]:
    """Task id -> one summary per agent: attempts, scored, successes, mean reward, env errors (never scored)."""
    per: dict[str, dict[str, list[AttemptResult]]] = defaultdict(lambda: defaultdict(list))
    for agent, results in evidence.attempts.items():
        for r in results:
            per[r.task_id][agent].append(r)
    out: dict[str, list[dict]] = {}
    for task_id, agents in per.items():
        rows = []
        for agent, rs in sorted(agents.items()):
            scored = [r for r in rs if r.status in SCORED]
            rows.append({"agent": agent, "attempts": len(rs), "scored": len(scored), "successes": sum(r.success for r in scored),
                         "mean_reward": round(sum(r.reward for r in scored) / len(scored), 4) if scored else None,
                         "env_errors": sum(r.status == "env_error" for r in rs)})
        out[task_id] = rows
    return out


def replay_counts(attempts: dict[str, list[AttemptResult]]) -> dict:
    """Of the non-golden agents' attempts: how many kept their screenshots for replay (and their MB), and why the others
    did not (`runtime.replay`); attempts recorded before runs made that choice are left out."""
    others = [r for agent, results in attempts.items() if agent != ORACLE for r in results if r.screenshots]
    reasons = Counter(r.screenshots for r in others)
    return {"attempts": len(others), "kept": reasons["kept"], "sampled_out": reasons["sampled_out"],
            "over_bound": reasons["over_bound"], "off": reasons["off"],
            "kept_mb": round(sum(r.screenshot_bytes for r in others if r.screenshots == "kept") / 1e6, 2)}


def replay_line(counts: dict) -> str:
    """`replay_counts` in a sentence, with the run's sample rate and bound where `counts` has them (`sample`, `max_mb`)."""
    sample = f" of {100 * counts['sample']:g}% (`--replay-sample`)" if "sample" in counts else ""
    bound = f" of {counts['max_mb']:g} MB (`--replay-max-mb`)" if "max_mb" in counts else ""
    why = [(counts["sampled_out"], f"{counts['sampled_out']} were not drawn in the run's sample{sample}"),
           (counts["over_bound"], f"{counts['over_bound']} started once the kept ones had reached the run's bound{bound}"),
           (counts["off"], f"{counts['off']} ran with screenshots off")]
    line = (f"Screenshots for replay (`gymfactory dashboard`): of the non-golden agents' {counts['attempts']} attempts, "
            f"{counts['kept']} kept theirs ({counts['kept_mb']:g} MB, in the run's object store)")
    return line + "".join(f"; {text}" for n, text in why if n) + "."
