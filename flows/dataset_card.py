"""The dataset card (README.md): what the rows are, how they were checked, and how to run and score one.

Its "How to run a row" block is real code: a test extracts it from an exported card and runs it,
so the card cannot drift from the API it shows.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict, Field

from factory.tasks.diversity import diversity_report
from contracts.task import Task
from mocked_apps.catalogue import compiled
from runtime import confine
from runtime.actions import action_space_doc
from contracts.status import SCORED

from .dataset_columns import SplitOptions, heldout_rule, split_of
from .demonstrations import TokenLengths
from .run_evidence import RunEvidence, replay_counts, replay_line

RUN_BLOCK = '''```python
import datasets
from contracts.task import Task
from runtime.gym_env import GymEnv
from runtime.manager import EnvironmentManager

rows = datasets.load_dataset("{source}", split="{split}")
row = next(r for r in rows if r["demonstration"])      # a row with its golden demonstration
task = Task.model_validate_json(row["task"])            # apps, seed, instruction, criteria, verifier
with EnvironmentManager() as manager:                   # local app servers, Chromium, confined verifier
    env = GymEnv(task, manager, max_steps=60)
    obs, info = env.reset()                              # fresh app instances from the row's seed
    print(task.instruction, "|", obs["url"])
    done = False
    for step in row["demonstration"]:                    # replay the golden run (or let your agent act)
        obs, reward, terminated, truncated, info = env.step(step["action"])
        done = terminated or truncated
        if done:
            break
    outcome = info["outcome"] if done else env.unwrapped.session.evaluate().model_dump()
    print("status", outcome["status"], "reward", outcome["reward"])  # scored by the row's verifier
    env.close()
```'''


class CardFacts(BaseModel):
    """What the card states besides the tasks: where it loads from, splits, licence, how it was made."""

    model_config = ConfigDict(frozen=True)

    source: str = Field(description="What `datasets.load_dataset` takes: a Hub repo id or a folder.")
    source_in_run: bool = Field(default=False, description="`source` is the folder's path relative to the run folder that "
                                "made it (the card's code runs there), never a path of the machine that exported it.")
    fingerprint: str = Field(description="Content fingerprint in the data file names.")
    splits: dict[str, int] = Field(description="Split -> rows (empty splits have no data file).")
    split_by: str = Field(default="none", description="'app', 'family' or 'none'.")
    heldout: tuple[str, ...] = Field(default=(), description="The held-out apps or families.")
    heldout_rule: str = Field(default="", description="How they were chosen, in words (`dataset_columns.heldout_rule`).")
    license: str = Field(default="cc-by-4.0", description="SPDX-style licence id of the data.")
    gymfactory_version: str
    app_versions: dict[str, str] = Field(default_factory=dict, description="App -> 'version (digest prefix)'.")
    reproduce: str = Field(default="", description="The command that made the run, if known.")
    unconfined: bool = Field(default=False, description="The run ran untrusted code without bubblewrap.")
    demonstrations: dict[str, int] = Field(default_factory=dict, description="Split -> rows (golden steps) of the "
                                           "`demonstrations` config; empty: the folder has none.")
    demonstration_tokens: TokenLengths | None = Field(default=None, description="Their `messages`' token lengths.")
    project: str = Field(default="", description="Where gymfactory is found (its Project-URL); empty: not known.")


_PLURAL = {"app": "apps", "family": "families"}


def _table(head: tuple[str, ...], rows: list[tuple]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(str(x) for x in r) + " |" for r in rows])


def render(tasks: list[Task], evidence: RunEvidence, facts: CardFacts) -> str:
    """The whole README.md: YAML header (licence, splits) and the body."""
    configs = "".join(f"  - split: {s}\n    path: data/{s}-{facts.fingerprint}-*.parquet\n" for s, n in facts.splits.items() if n)
    if facts.demonstrations:
        configs += "- config_name: demonstrations\n  data_files:\n" + "".join(
            f"  - split: {s}\n    path: demonstrations/{s}-{facts.fingerprint}-*.parquet\n" for s in facts.demonstrations)
    header = (f"---\nlicense: {facts.license}\ntask_categories:\n- other\ntags:\n- gui-agents\n- computer-use\n- synthetic\n"
              f"pretty_name: gymfactory tasks\nconfigs:\n- config_name: default\n  data_files:\n{configs}---\n")
    split = next((s for s, n in facts.splits.items() if n), "train")
    by_app = Counter(a for t in tasks for a in t.apps)
    by_family = Counter((t.meta.family, t.meta.cross_app) for t in tasks)
    parts = ("train", "heldout") if facts.split_by != "none" else ()
    part_of = {t.id: split_of(t, facts.split_by, facts.heldout) for t in tasks}
    app_parts = Counter((a, part_of[t.id]) for t in tasks for a in t.apps)
    family_parts = Counter((t.meta.family, part_of[t.id]) for t in tasks)
    by_diff = Counter((t.meta.difficulty, t.meta.difficulty_source) for t in tasks)
    by_capability = Counter(c for t in tasks for c in t.meta.capabilities)
    body = [
        "# gymfactory tasks", "",
        f"{len(tasks)} verified tasks for GUI agents over the mocked apps {', '.join(sorted(by_app)) or '-'}"
        f"{_compiled_note(by_app)}, made by {_project(facts)} {facts.gymfactory_version}. Each task is `(apps, seed, instruction, verifier)`: fresh app instances "
        "are created from the seed, the agent acts in a browser, and the verifier reads the apps' final state.",
        "",
        "**Validated by execution:** its verifier fails on the initial state, passes after the golden code runs, fails "
        "again after a reset, repeats its verdicts, and rejects adversarial finals (partial work, collateral damage, "
        "wrong target, answer spam).", "",
        f"**Install** {_project(facts)} to run and score the rows: clone it, then `scripts/install.sh` (a virtual environment, "
        "Debian's Chromium, bubblewrap) and `source .venv/bin/activate`; `gymfactory run --out RUN` makes a dataset like this one.",
    ]
    if facts.unconfined:
        body += ["", "**Warning:** this run executed verifier, golden and shell code WITHOUT confinement "
                 "(--unsafe-no-confinement); rewards may be hackable."]
    body += ["", "## Splits", "", _table(("split", "rows"), sorted(facts.splits.items()))]
    if facts.split_by != "none":
        body += ["", f"`heldout` holds out whole {_PLURAL.get(facts.split_by, facts.split_by)}: {', '.join(facts.heldout) or '-'}; "
                 f"no task in `train` touches them. They are {facts.heldout_rule or 'as named when exported'}. The counts below "
                 "give each app's and each family's tasks in either split."]
    else:
        body += ["", "No held-out split: `gymfactory publish RUN --repo ORG/NAME --holdout-by app` (or `family`) holds out whole "
                 f"apps (or families) in a `heldout` split: those named with `--holdout`, else {heldout_rule(SplitOptions(by='app'))} "
                 "(likewise for families)."]
    body += ["", "## Counts", "", "By app (a cross-app task counts for each of its apps" + (", in each split" if parts else "") + "):", "",
             _table(("app", "tasks", "version", *parts),
                    [(a, n, facts.app_versions.get(a, "?"), *(app_parts[a, s] for s in parts)) for a, n in sorted(by_app.items())]),
             "", "By family:", "", _table(("family", "tasks", "cross-app", *parts),
                                          [(f, n, "yes" if x else "no", *(family_parts[f, s] for s in parts))
                                           for (f, x), n in sorted(by_family.items())]),
             "", "By difficulty (measured: from the pass rate of the model agents over the task's family, see "
             "below; declared: the family's guess, where no model attempted it):", "",
             _table(("difficulty", "source", "tasks"), [(d, s, n) for (d, s), n in sorted(by_diff.items())]),
             "", "By capability (a task counts for each capability its family exercises):", "",
             _table(("capability", "tasks"), sorted(by_capability.items()) or [("-", 0)])]
    body += ["", "## Diversity", "", *_diversity(tasks)]
    body += ["", "## Validation and reference agents", "",
             f"Verifier code, golden code and agent shell commands ran {confine.mode()} (see docs/security.md).", "",
             *_validation(tasks, evidence)]
    where = (f", in the run folder that made this dataset (`{facts.source}` is the dataset's path there)" if facts.source_in_run else "")
    body += ["", "## How to run a row", "",
             "In a checkout of gymfactory, set up by its `scripts/install.sh` (Debian's Chromium, bubblewrap, the virtual "
             f"environment){where}:", "",
             RUN_BLOCK.format(source=facts.source, split=split)]
    body += ["", "## Action language", "", "One action per step, as text (the `demonstration` column uses the same):", "",
             action_space_doc("desktop"), "", "`shell` exists on desktop tasks only (the workspace folder)."]
    body += ["", "## Reward", "",
             "The verifier returns `{criterion_id: bool}`. `reward = sum(w_j * b_j) / sum(w_j)` over the row's "
             "`criteria` (weights `weight`); `success = product of b_j over required criteria`. An attempt that changes "
             "app state outside the golden run's footprint fails the required system criterion `no_collateral_changes` "
             "(reward 0); one that floods its workspace past its cap fails `workspace_within_limits` (reward 0). "
             "Attempts that end in `env_error` (infrastructure) are never scored."]
    body += ["", "## Columns", "", _COLUMNS]
    if facts.demonstrations:
        body += ["", "## Demonstrations", "", _demonstrations(facts)]
    body += ["", "## Licence", "", f"Data: {facts.license}. The tasks are synthetic: "
             "people, companies and amounts are invented.", "", "## Reproduce", "",
             f"`{facts.reproduce or 'gymfactory run --out RUN'}`, then `gymfactory publish RUN --repo ORG/NAME`. "
             "The same seed, apps (versions above) and gymfactory version give the same tasks."
             + (" `--catalogue` let synthesis draw from the compiled apps' families too, though none of these tasks came "
                "from one." if "--catalogue" in facts.reproduce and not _compiled_apps(by_app) else "")]
    return header + "\n" + "\n".join(body) + "\n"


def _measured_families(tasks: list[Task]) -> list[tuple]:
    """(agent, family, tasks, k, pass@1, pass@k) of every family some model agent measured."""
    seen = {(m.agent, t.meta.family): m for t in tasks for m in t.meta.measured if m.scope == "family"}
    return [(a, f, m.tasks, m.k, f"{m.pass_at_1:.2f}", f"{m.pass_at_k:.2f}") for (a, f), m in sorted(seen.items())]


def _validation(tasks: list[Task], evidence: RunEvidence) -> list[str]:
    results = list(evidence.validation.values())
    ids = {t.id for t in tasks}
    lines = []
    if results:
        reasons = Counter(r.reason for r in results if not r.accepted)
        probes = [r.probes for r in results if r.task_id in ids]
        lines += [f"Validated {len(results)} synthesized tasks, accepted {sum(r.accepted for r in results)}; "
                  f"the verifiers of the {len(tasks)} here rejected {sum(probes)} adversarial probes in all "
                  f"({sum(probes) / max(1, len(probes)):.1f} per task) and passed their golden runs.", ""]
        if reasons:
            lines += [_table(("rejected because", "tasks"), reasons.most_common()), ""]
    else:
        lines += ["No validation record came with these tasks.", ""]
    rows = []
    for agent, rs in sorted(evidence.attempts.items()):
        scored = [r for r in rs if r.status in SCORED]
        rows.append((agent, len(rs), f"{sum(r.success for r in scored) / max(1, len(scored)):.2f}",
                     f"{sum(r.reward for r in scored) / max(1, len(scored)):.2f}", sum(r.status == "env_error" for r in rs)))
    if rows:
        lines += [_table(("agent", "attempts", "success rate", "mean reward", "env errors"), rows), "",
                  f"Dropped as too easy: {len(evidence.too_easy)} (solved in every attempt by a model, or too often by the "
                  f"random agent). Attempted by agents but never solved except by the oracle: {len(evidence.unsolved)} "
                  "(`outcomes.unsolved`)."]
    replay = replay_counts(evidence.attempts)
    if replay["attempts"]:
        lines += ["", replay_line(replay) + " They stay with the run, not in this dataset."]
    measured = _measured_families(tasks)
    if measured:
        lines += ["", "Pass rates per family of the model agents (pass@1: mean success; pass@k: tasks solved at least once in k "
                  "attempts); a task's `difficulty` comes from them:", "",
                  _table(("agent", "family", "tasks", "k", "pass@1", "pass@k"), measured)]
    demos = [evidence.demonstrations.get(t.id, []) for t in tasks]
    observed = sum(1 for d in demos if d and all(s.observed for s in d))
    shots = sum(1 for d in demos if d and all(s.screenshot for s in d))
    shown = sum(1 for d in demos if d)
    others = ", the others actions only" if observed < shown else ""
    lines += ["", f"Demonstrations: {shown} tasks; {observed} with the accessibility text of every step "
              f"({shots} with screenshots too){others}."]
    return lines


def _demonstrations(facts: CardFacts) -> str:
    splits = ", ".join(f"{s}: {n}" for s, n in facts.demonstrations.items())
    text = (f"The `demonstrations` config has one row per step of each task's golden run ({splits} rows): "
            "`datasets.load_dataset(SOURCE, \"demonstrations\")`. Its `messages` column is the agent harness's prompt "
            "at that step with the golden action as the assistant reply, the conversational format TRL's `SFTTrainer` "
            "reads.")
    if (n := facts.demonstration_tokens) is not None:
        text += (f"\n\nEach row's `messages` fits {n.budget:,} tokens in the chat template of SmolLM2-135M-Instruct (gymfactory's "
                 f"reference model), the action kept whole: median {n.median:,.0f}, p90 {n.p90:,}, max {n.max:,} tokens over "
                 f"{n.rows:,} rows. To fit, {n.shorter_history:,} rows show fewer earlier steps than the agent's harness would "
                 f"(the oldest go first) and {n.cut_page:,} show only the lines of their page around the action's element "
                 f"(\"... (N lines of this page not shown)\"). A trainer that keeps the start of a row (TRL's `SFTTrainer`, "
                 f"`truncation_mode=\"keep_start\"`) keeps every action with `max_length={n.budget}` or more.")
    return (text + "\n\n" + _DEMO_COLUMNS).replace("SOURCE", f"\"{facts.source}\"")


def _project(facts: CardFacts) -> str:
    return f"[gymfactory]({facts.project})" if facts.project else "gymfactory"


def _compiled_apps(by_app: Counter) -> list[str]:
    return sorted(a for a in by_app if a in compiled())


def _compiled_note(by_app: Counter) -> str:
    n = len(_compiled_apps(by_app))
    return f" ({len(by_app) - n} hand-made, {n} compiled from the catalogue's specs)" if n else ""


def _diversity(tasks: list[Task]) -> list[str]:
    """The near-duplicate audit over the tasks, a task's appearance variants counted once."""
    firsts: dict[tuple, Task] = {}
    for t in tasks:
        firsts.setdefault((t.meta.family, t.world, t.instruction), t)
    variants = len(tasks) - len(firsts)
    report = diversity_report(firsts.values())
    kind = "of the tasks" if not variants else f"of the {report.tasks} distinct tasks"
    lines = [f"{len(tasks)} tasks from {report.worlds} distinct worlds in {len(report.by_scenario)} scenarios. "
             f"Near-duplicates (same family and the same expected change, or instruction shingle Jaccard >= {report.threshold:g}): "
             f"{100 * report.near_duplicate_rate:.1f}% {kind}" + ("; synthesis drops those it finds before validation." if not
                                                                  report.near_duplicate_tasks else ", kept.")]
    if variants:
        lines[0] += (f" {variants} tasks are appearance variants of another (`variant` in the row's `task`: the same instruction, "
                     "seed and verifier, the apps in another theme, density, layout or wording), not counted as near-duplicates.")
    return lines + ["", _table(("scenario", "tasks"), sorted(report.by_scenario.items()))]


_COLUMNS = """| column | type | meaning |
|---|---|---|
| `id` | string | stable task id |
| `apps` | list of string | apps the environment opens |
| `form_factor` | string | `desktop` (1280x800, GUI + shell) or `mobile` |
| `world`, `clock` | string | world id; ISO-8601 "now" of every app instance |
| `instruction` | string | what the agent is told |
| `criteria` | list of {id, description, weight, required} | what the verifier checks |
| `answer_context` | struct (keys vary by family, null where absent) | hidden ground truth; never show it to the agent |
| `seed` | struct app -> struct table -> list of row structs | initial records of each app (null: app default) |
| `files` | list of {path, text} | workspace files |
| `verifier`, `golden` | string | Python source of `verify(final)` and `solve(env)` |
| `family`, `difficulty`, `provenance`, `cross_app` | string, string, string, bool | kind and origin |
| `difficulty_source`, `measured` | string, list of struct | `measured` (from pass rates) or `declared`; the pass rates: agent, scope (task or family), tasks, k, pass@1, pass@k |
| `capabilities` | list of string | what the task exercises (search, form_fill, cross_app, ...) |
| `demonstration` | list of {action, url, axtree} | the golden run: each action and the observation it was taken on (empty text when not recorded) |
| `outcomes` | struct | validation (accepted, probes failed, seconds), golden reward/success, too_easy, unsolved, per-agent results |
| `gymfactory_version` | string | version that made the row |
| `app_versions` | list of {app, version, digest} | the apps' manifest versions and source digests |
| `task` | string | the whole task as JSON: `Task.model_validate_json(row["task"])` |"""

_DEMO_COLUMNS = """| column | type | meaning |
|---|---|---|
| `task_id`, `family`, `apps`, `form_factor`, `instruction` | string, string, list of string, string, string | the task (a row of the default config) |
| `step` | int | index of the step in the golden run (0: the first page) |
| `url`, `axtree` | string | the page the action was chosen on (server and instance id as `/i/<instance>`), its accessibility text with element ids [n] |
| `screenshot` | image (PNG, embedded) | that page as the agent's browser showed it (its path: where the PNG lies in the run folder that made it); null when the run kept no screenshots |
| `action` | string | the golden action, in the action language below |
| `messages` | list of {role, content} | system prompt, history, this observation, and the action as the assistant's reply |"""
