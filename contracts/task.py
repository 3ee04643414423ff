"""Contract 3: a task x = (E, s0, g, V), as saved on disk (one JSON document per task)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Criterion(BaseModel):
    """One checkable part of success."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_]+$", description="Key in the verifier's verdict dict.")
    description: str = Field(description="What must be true at the end, in words.")
    weight: float = Field(default=1.0, gt=0, description="Share of the reward.")
    required: bool = Field(default=True, description="Success needs every required criterion.")


Capability = Literal[
    "navigate",       # find the right app section or page
    "search",         # use a search box to find a record
    "filter_sort",    # narrow or order a list (filters, sort, tabs)
    "read_answer",    # read a value off the UI and answer it in text
    "form_fill",      # type values into form fields
    "select_option",  # choose among options (selects, radios, pickers)
    "date_time",      # pick or type dates and times
    "confirm",        # multi-step flows: review, confirm, wizard steps
    "compute",        # arithmetic over what is shown (totals, shares, differences)
    "cross_app",      # carry a fact from one app into another
    "disambiguate",   # pick the right record among similar ones (distractors)
    "multi_item",     # act on several records in one task
]
"""What a task exercises, for success-by-capability reports, diagnosis and targeted regeneration."""

CAPABILITIES: tuple[str, ...] = Capability.__args__  # type: ignore[attr-defined]


class Measured(BaseModel):
    """How often an agent solved a task, or its family: the evidence behind a measured difficulty."""

    model_config = ConfigDict(frozen=True)

    agent: str = Field(description="The agent measured, e.g. 'reference' (the offline reference model) or 'openai'.")
    scope: Literal["task", "family"] = Field(description="'task': attempts at this task; 'family': at sampled tasks of its family.")
    tasks: int = Field(ge=1, description="Tasks attempted (1 for scope 'task').")
    k: int = Field(ge=1, description="Attempts per task.")
    pass_at_1: float = Field(ge=0, le=1, description="Mean success over the scored attempts.")
    pass_at_k: float = Field(ge=0, le=1, description="Share of the tasks solved at least once in their k attempts.")


Difficulty = Literal["easy", "medium", "hard"]


def difficulty_of(pass_at_1: float) -> Difficulty:
    """The measured label: 'easy' when the agent solves at least half its attempts, 'hard' when none, else 'medium'."""
    return "easy" if pass_at_1 >= 0.5 else "hard" if pass_at_1 == 0 else "medium"


VARIANT_KEY = "_variant"
"""The reserved seed key that gives an app instance its appearance variant (read by `mocked_apps.kit.variant`)."""


class TaskMeta(BaseModel):
    """Where a task came from and what kind it is."""

    model_config = ConfigDict(frozen=True)

    family: str = Field(description="Task family, e.g. 'mail.reply_with_invoice_total'.")
    difficulty: Difficulty = Field(default="medium", description="Measured (difficulty_source 'measured': from `measured`) or "
                                   "declared by the family (a guess, until an agent has attempted it).")
    difficulty_source: Literal["declared", "measured"] = "declared"
    measured: tuple[Measured, ...] = Field(default=(), description="Pass rates of the agents that attempted the task or its family.")
    provenance: str = Field(default="template", description="'template', 'hand', or 'llm:<model>'.")
    parents: tuple[str, ...] = Field(default=(), description="Ids of tasks this one was derived from.")
    cross_app: bool = False
    capabilities: tuple[Capability, ...] = Field(default=(), description="What the task exercises (the family declares it).")


class TableChanges(BaseModel):
    """What the golden run did to one table: the only changes an attempt may make there."""

    model_config = ConfigDict(frozen=True)

    changed: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Row key -> the fields the golden run changed in that row."
    )
    added: int = Field(default=0, ge=0, description="How many rows the golden run added (an attempt may add at most this many).")
    deleted: tuple[str, ...] = Field(default=(), description="Keys of the rows the golden run deleted.")


class Footprint(BaseModel):
    """The golden run's state diff: outside it (bar declared view state) an attempt may change nothing.

    Rows are keyed by their `id` field, or by their whole content when a table has none. Recorded at
    validation (DESIGN.md "The gates beyond the three states"); scoring turns it into the required
    system criterion `no_collateral_changes`.
    """

    model_config = ConfigDict(frozen=True)

    tables: dict[str, dict[str, TableChanges]] = Field(
        default_factory=dict, description="App -> table -> what the golden run changed there (untouched tables absent)."
    )
    view_state: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="App -> 'table.field' values it declares as view state: ignored."
    )
    inert_rows: dict[str, dict[str, dict[str, Any]]] = Field(
        default_factory=dict, description="App -> table -> field values of new rows that have no effect (a cancelled transfer): ignored."
    )
    met_at_start: tuple[str, ...] = Field(
        default=(), description="Criteria the untouched initial state already meets ('nothing else changed'): no reward on their own."
    )


class Task(BaseModel):
    """Environment, initial state, goal and verifier of one task."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Stable id.")
    apps: tuple[str, ...] = Field(min_length=1, description="App names the environment opens (E).")
    form_factor: Literal["desktop", "mobile"] = "desktop"
    world: str | None = Field(default=None, description="Id of the world the seed came from.")
    clock: str | None = Field(default=None, description="ISO-8601 'now' shared by every app instance.")
    seed: dict[str, dict[str, list[dict[str, Any]]]] = Field(
        default_factory=dict, description="App name -> seed records {table: [rows]} (s0); missing -> app default."
    )
    variant: int = Field(default=0, ge=0, description="Appearance variant of its apps (0: as drawn; see mocked_apps/kit/variant.py).")
    files: dict[str, str] = Field(default_factory=dict, description="Workspace files: relative path -> text.")
    instruction: str = Field(min_length=1, description="What the agent is told (g).")
    answer_context: dict[str, Any] = Field(default_factory=dict, description="Hidden ground truth; never shown to the agent.")
    criteria: tuple[Criterion, ...] = Field(min_length=1)
    verifier: str = Field(description="Python source defining verify(final) -> dict[criterion_id, bool].")
    golden: str = Field(description="Python source defining solve(env), using the golden action API.")
    meta: TaskMeta
    footprint: Footprint | None = Field(
        default=None, description="Recorded when the task is accepted by validation; None for tasks not validated yet."
    )

    def app_seed(self, app: str) -> dict[str, Any] | None:
        """The seed an instance of `app` is created from: the task's records (None: the app's default) with its
        appearance variant, which the kit keeps out of the state like the clock."""
        seed = self.seed.get(app)
        if not self.variant:
            return seed
        return {**(seed or {}), VARIANT_KEY: [{"seed": self.variant}]}

    @model_validator(mode="after")
    def _check(self) -> "Task":
        unknown = set(self.seed) - set(self.apps)
        if unknown:
            raise ValueError(f"seed for apps not in apps: {sorted(unknown)}")
        ids = [c.id for c in self.criteria]
        if len(ids) != len(set(ids)):
            raise ValueError("criterion ids must be unique")
        return self
