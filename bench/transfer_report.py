"""What `gymfactory bench transfer` measured, as OUT/transfer.json and OUT/transfer.md: the curve, the step scores, the
failed attempts' traits, MiniWoB++, the training sets, the phases and the targets."""

from __future__ import annotations

from mocked_apps.registry import SHIPPED
from rl.forced import from_rows, paired, summarize

from . import failures as failed_attempts
from .learn import _by_capability, _rates, bootstrap
from .targets import HELD_OUT_APPS, MINIWOB_OVER_RANDOM, TRANSFER_HOURS


def report_of(config, split, evals: dict, miniwob: dict, sets: dict, phases: dict, failures: dict,
            golden_steps: dict[str, int], stepped: dict | None = None) -> dict:
    rows = []
    for (label, name), row in evals.items():
        rates = _rates(row, config.seed)
        derived = [float(bool(i["greedy"])) for tid, i in row["instances"].items() if i["greedy"] is not None and "." in tid
                   and tid.split(".")[0] not in SHIPPED]
        hand = [float(bool(i["greedy"])) for tid, i in row["instances"].items() if i["greedy"] is not None and tid.split(".")[0] in SHIPPED]
        attempts = max(1, len(row["instances"]) * config.pass_k)
        fits = [float(bool(i["greedy"])) for tid, i in row["instances"].items() if i["greedy"] is not None
                and golden_steps.get(tid, config.max_steps + 1) <= config.max_steps]
        rows.append({"checkpoint": label, "split": name, **rates, "derived": _share(derived, config.seed), "hand_made": _share(hand, config.seed),
                     "within_budget": _share(fits, config.seed),
                     "prompt_tokens_per_attempt": row["tokens"]["prompt_tokens"] / attempts, "seconds": row["seconds"],
                     "capabilities": _by_capability(row)})
    mini = [{"agent": label, "timer": timer, **row["summary"], "seconds": row["seconds"]} for (label, timer), row in miniwob.items()]
    stepped = stepped or {}
    steps = [{"checkpoint": label, "split": name, **summarize(from_rows(row["scores"]), seed=config.seed), "seconds": row["seconds"]}
             for (label, name), row in stepped.items()]  # summarized afresh from the kept scores
    trained = [label for label in sets if any(k[0] == label for k in stepped)]
    step_gains = []  # each larger set against the smallest, on the same golden steps
    for name in sorted({k[1] for k in stepped}):
        for label in trained[1:]:
            if (trained[0], name) in stepped and (label, name) in stepped:
                first, later = (from_rows(stepped[(x, name)]["scores"]) for x in (trained[0], label))
                step_gains += [{"split": name, "from": trained[0], "to": label, **paired(first, later, key, seed=config.seed)}
                               for key in ("action", "element")]
    return {"config": config.model_dump(mode="json"), "split": split.model_dump(), "sets": sets, "rows": rows, "miniwob": mini,
            "steps": steps, "step_gains": step_gains, "failures": failures, "phases": phases}


def _share(values: list[float], seed: int) -> dict:
    lo, hi = bootstrap(values, seed=seed)
    return {"n": len(values), "rate": sum(values) / max(1, len(values)), "ci": (lo, hi)}


def markdown(result: dict) -> str:
    c, s = result["config"], result["split"]
    lines = ["# gymfactory bench transfer", "",
             f"Held out: {len(s['held_out_hand_made'])} hand-made apps ({', '.join(s['held_out_hand_made'])}) and "
             f"{len(s['held_out_compiled'])} compiled apps; {len(s['order'])} apps to train on. Each training set: "
             f"{c['demos']} demonstrations from `gymfactory run --catalogue` over its apps; SFT {c['sft_epochs']} epochs at "
             f"{c['sft_lr']:g}, top {c['trainable_layers']} blocks; elements named by {c.get('refs', 'id')}; view {c['view']}; greedy, {c['max_steps']} steps an attempt; "
             "95% bootstrap intervals over instances.", "",
             "| checkpoint | training apps | demos | held-out | n | greedy | 95% CI | derived apps | hand-made apps | golden within the step budget "
             "| prompt tokens/attempt | inference tok/s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        st = result["sets"].get(r["checkpoint"], {})
        d, h = r["derived"], r["hand_made"]
        lines.append(f"| {r['checkpoint']} | {st.get('apps', 0)} | {st.get('demos', 0)} | {r['split']} | {r['n']} | {100 * r['greedy']:.1f}% | "
                     f"{100 * r['greedy_ci'][0]:.1f}-{100 * r['greedy_ci'][1]:.1f} | {d['rate'] * 100:.1f}% of {d['n']} | "
                     f"{h['rate'] * 100:.1f}% of {h['n']} | {_within(r)} | {r['prompt_tokens_per_attempt']:.0f} | "
                     f"{r['inference_tokens_per_s']:.0f} |")
    caps = sorted({cap for r in result["rows"] for cap in r["capabilities"]})
    if caps:
        lines += ["", "Greedy success per capability (successes/instances):", "",
                  "| checkpoint (held-out) | " + " | ".join(caps) + " |", "|---|" + "---|" * len(caps)]
        for r in result["rows"]:
            per = r["capabilities"]
            lines.append(f"| {r['checkpoint']} ({r['split']}) | " + " | ".join(f"{per[k][0]}/{per[k][1]}" if k in per else "-" for k in caps) + " |")
    if result.get("steps"):
        lines += ["", "The held-out instances' golden runs, step by step, teacher-forced (rl.forced): each step's prompt holds the "
                  "golden history, and the greedy reply is scored against the golden action (whole; up to its element or text; its "
                  "action kind). Steps that act; the golden's final `answer('')` counts apart, as stops. 95% intervals resample "
                  "whole instances:", "",
                  "| checkpoint | held-out | instances | steps (over the context) | action | 95% CI | element | 95% CI | kind | stops written | NLL/token | seconds |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in result["steps"]:
            lines.append(f"| {r['checkpoint']} | {r['split']} | {r['tasks']} | {r['steps']} ({r.get('too_long', 0)}) | {100 * r['action']:.1f}% | "
                         f"{100 * r['action_ci'][0]:.1f}-{100 * r['action_ci'][1]:.1f} | {100 * r['element']:.1f}% | "
                         f"{100 * r['element_ci'][0]:.1f}-{100 * r['element_ci'][1]:.1f} | {100 * r['kind']:.1f}% | "
                         f"{100 * r['stop']:.0f}% of {r['stop_steps']} | {r['nll']:.2f} | {r['seconds']:.0f} |")
        kinds = sorted({k for r in result["steps"] for k in r.get("by_kind", {})})
        if kinds:
            lines += ["", "By the golden's action (element right / action right / steps):", "",
                      "| checkpoint | held-out | " + " | ".join(kinds) + " |", "|---|---|" + "---|" * len(kinds)]
            for r in result["steps"]:
                per = r.get("by_kind", {})
                lines.append(f"| {r['checkpoint']} | {r['split']} | " + " | ".join(
                    f"{per[k][1]} / {per[k][2]} / {per[k][0]}" if k in per else "-" for k in kinds) + " |")
        if result.get("step_gains"):
            lines += ["", "Paired on the same golden steps, each larger set against the smallest (points; 95% interval over instances):", "",
                      "| held-out | from | to | score | steps | difference | 95% CI |", "|---|---|---|---|---|---|---|"]
            lines += [f"| {g['split']} | {g['from']} | {g['to']} | {g['key']} | {g['steps']} | {100 * g['difference']:+.1f} | "
                      f"{100 * g['ci'][0]:+.1f} to {100 * g['ci'][1]:+.1f} |" for g in result["step_gains"]]
    if result.get("failures"):
        lines += ["", "Failed greedy attempts on the held-out apps, by what they did (an attempt counts in every column that fits):", "",
                  *failed_attempts.markdown(result["failures"])]
    if result["sets"]:
        lines += ["", "| training set | apps | apps with demos | demos | derived share | held-out worlds in it | SFT loss | SFT tok/s per epoch |",
                  "|---|---|---|---|---|---|---|---|"]
        for label, st in result["sets"].items():
            tr = st.get("train", {})
            loss = f"{tr['loss_before']:.3f} -> {tr['loss_after']:.3f}" if tr.get("loss_before") is not None else "-"
            lines.append(f"| {label} | {st['apps']} | {st['apps_with_demos']} | {st['demos']} | {100 * st['derived_share']:.0f}% | "
                         f"{st.get('held_out_worlds_trained', 0)} | {loss} | "
                         f"{', '.join(map(str, tr.get('tokens_per_s', [])))} |")
    if result["miniwob"]:
        lines += ["", "MiniWoB++ (greedy; timer off: the episode ends at the step bound; on: MiniWoB's own 10 s):", "",
                  "| agent | timer | episodes | scored | success | mean raw reward | ended by MiniWoB | env errors | seconds |",
                  "|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {m['agent']} | {m['timer']} | {m['episodes']} | {m['scored']} | {100 * m['success_rate']:.1f}% | {m['mean_reward']:.3f} | "
                  f"{m['ended_by_miniwob']} | {m['env_errors']} | {m['seconds']:.0f} |" for m in result["miniwob"]]
    lines += ["", "Phases (seconds, each the first time it finished): " + ", ".join(f"{k} {v:.0f}" for k, v in result["phases"].items())]
    lines += ["", "Targets:", "", *_targets(result)]
    return "\n".join(lines) + "\n"


def _within(row: dict) -> str:
    """Success on the instances whose golden fits the step budget, and how many of the split's those are."""
    w = row.get("within_budget")
    return f"{w['rate'] * 100:.1f}% of {w['n']}" if w else "-"


def _targets(result: dict) -> list[str]:
    """Each target beside what the run measured so far (held-out apps at the largest set evaluated, MiniWoB++ over the
    random agent per checkpoint and timer, the phases' total time)."""
    def verdict(target, measure: float, what: str) -> str:
        return f"- {what}: {measure:.1f}{'' if target.unit in ('x', '%') else ' ' + target.unit}, target {target.text()}: " \
               + ("met" if target.met(measure) else "not met")

    lines = []
    trained = [r for r in result["rows"] if r["split"] == "apps" and r["checkpoint"] in result["sets"]]
    if trained:
        last = max(trained, key=lambda r: result["sets"][r["checkpoint"]]["apps"])
        lo = 100 * last["greedy_ci"][0]
        lines.append(verdict(HELD_OUT_APPS, 100 * last["greedy"], f"held-out apps after {last['checkpoint']}, greedy")
                     + (f" (95% CI from {lo:.1f}%: {'excludes' if lo > 0 else 'includes'} 0)"))
    random = {m["timer"]: m["success_rate"] for m in result["miniwob"] if m["agent"] == "random"}
    for m in result["miniwob"]:
        if m["agent"] != "random" and m["timer"] in random:
            lines.append(verdict(MINIWOB_OVER_RANDOM, 100 * (m["success_rate"] - random[m["timer"]]),
                                 f"MiniWoB++ {m['agent']} over random, timer {m['timer']}"))
    lines.append(verdict(TRANSFER_HOURS, sum(result["phases"].values()) / 3600, "the phases so far, in all"))
    return lines


__all__ = ["markdown", "report_of"]
