"""The targets every bench prints, in one place: the design's "Performance targets" table, word for word where the
design gives a number, and the benches' own bounds where it gives none (marked as such). A bench reads its target
here and never retypes it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Target(BaseModel):
    """One bound a bench checks: `value` in `unit`, met when the measure is below it (or above, for `at_least`)."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: str = Field(description="'ms', 's', 'h', 'x' (a ratio), '%', 'points' (percentage points) or 'per min'.")
    at_least: bool = Field(default=False, description="True when the measure must reach the value, not stay under it.")
    design: bool = Field(default=True, description="From the design's table; False for a bench's own bound.")

    def met(self, measure: float) -> bool:
        return measure >= self.value if self.at_least else measure < self.value

    def text(self, prefix: str = "", suffix: str = "") -> str:
        sign = ">=" if self.at_least else "<"
        unit = self.unit if self.unit in ("x", "%") else f" {self.unit}"
        return f"{prefix}{sign} {self.value:g}{unit}{suffix}" + ("" if self.design else " (bench's own)")

    def marked(self, measure: float, prefix: str = "", suffix: str = "") -> str:
        """The target as a table cell: green with a tick when `measure` meets it, else red with a cross."""
        text = self.text(prefix, suffix)
        return f"[green]{text} ✓[/green]" if self.met(measure) else f"[red]{text} ✗[/red]"


RESET_P50 = Target(value=50, unit="ms")  # reset of a web task, incl. task preparation: p50 under 50 ms
STEP_P50 = Target(value=150, unit="ms")  # env step with screenshot + a11y tree: p50 under 0.15 s
PREFILL_RATIO = Target(value=3, unit="x", at_least=True)  # windowed vs last-k: at least 3x fewer re-prefilled tokens
INSTANCES_PER_1000 = Target(value=5, unit="s")  # 1,000 fresh instances ready: under 5 s on 2 cores
VERIFIER_P50 = Target(value=60, unit="ms")  # confined verifier run: p50 < 60 ms
VALIDATION_SPEEDUP = Target(value=2, unit="x", at_least=True)  # validation cost: 2x tasks per CPU-hour, same precision and recall
KIT_RESET_P50 = Target(value=10, unit="ms", design=False)  # one instance's state restored over the admin API
SHELL_STEP_P50 = Target(value=100, unit="ms", design=False)  # one confined shell() command
COMPILED_CHECK = Target(value=60, unit="s", design=False)  # a compiled app through the contract checker
WORLDS_1000 = Target(value=60, unit="s", design=False)  # 1,000 worlds built and integrity-checked
# bench prompts and bench transfer: the design's prompt, transfer and outside-benchmark rows, and two bounds of their own
PROMPT_RATIO = Target(value=0.5, unit="x")  # prompt tokens per model attempt: at most half (compact over full)
STEPS_SEEN = Target(value=100, unit="%", at_least=True, design=False)  # golden steps whose element the compact prompt shows
HELD_OUT_APPS = Target(value=20, unit="%", at_least=True)  # at least 20% on held-out apps at the largest training set
MINIWOB_OVER_RANDOM = Target(value=10, unit="points", at_least=True)  # MiniWoB++ mean success at least random + 10 pts
TRANSFER_HOURS = Target(value=3, unit="h", design=False)  # the whole transfer benchmark, 2 cores, nothing else running

__all__ = ["COMPILED_CHECK", "HELD_OUT_APPS", "INSTANCES_PER_1000", "KIT_RESET_P50", "MINIWOB_OVER_RANDOM", "PREFILL_RATIO",
           "PROMPT_RATIO", "RESET_P50", "SHELL_STEP_P50", "STEPS_SEEN", "STEP_P50", "TRANSFER_HOURS", "Target", "VALIDATION_SPEEDUP", "VERIFIER_P50",
           "WORLDS_1000"]
