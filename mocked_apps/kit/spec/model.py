"""The app spec: a declarative app (entities, states and transitions, pages from archetypes, navigation,
theme, sample data) that the kit compiles into a running app. Saved as YAML; this model is its schema."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .formula import evaluate
from .plural import plural

FieldType = Literal["text", "longtext", "int", "number", "money", "date", "datetime", "bool", "choice", "phone",
                    "email", "address", "ref"]
Archetype = Literal["table", "board", "catalogue", "feed", "booking", "calendar", "chat", "settings", "maplist",
                    "media", "custom"]
"""`custom`: a page of the spec's extension (its own route and template); the spec only names it for navigation."""
_NAME = r"^[a-z][a-z0-9_]*$"


class SpecError(ValueError):
    """A spec that cannot be compiled; the message names the place in the spec (e.g. `entities.order.fields.total`)."""


def _label(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FieldSpec(_Frozen):
    """One typed field of an entity: a column, a form input and a table cell."""

    name: str = Field(pattern=_NAME, description="Column name (filled in from the mapping key).")
    label: str = Field(default="", description="Display name; default: the name, capitalised.")
    type: FieldType = Field(default="text", description="Storage and format: money shows as $1,234.50, date as Mar 3, 2026.")
    required: bool = Field(default=True, description="A create form refuses to save without it.")
    choices: tuple[str, ...] = Field(default=(), description="Allowed values of a 'choice' field (a select).")
    ref: str | None = Field(default=None, description="Entity a 'ref' field points at (its id).")
    min: float | None = Field(default=None, description="Smallest number allowed (int, number, money).")
    max: float | None = Field(default=None, description="Largest number allowed.")
    sample: Any = Field(default=None, description="Sample values: a faker method name ('name', 'company', 'city'), "
                        "[lo, hi] for numbers or day offsets from now for dates, or a list of values to draw from.")
    unique: bool = Field(default=False, description="Sample values never repeat (titles that tell rows apart).")
    filter: bool = Field(default=False, description="The table page offers a filter on it (choice and bool fields).")
    hidden: bool = Field(default=False, description="Not shown in table columns (still on the detail page).")

    @property
    def display(self) -> str:
        return self.label or _label(self.name)

    @model_validator(mode="after")
    def _check(self) -> "FieldSpec":
        if self.type == "choice" and not self.choices:
            raise ValueError(f"field {self.name}: a choice field needs choices")
        if self.type == "ref" and not self.ref:
            raise ValueError(f"field {self.name}: a ref field needs `ref: ENTITY`")
        return self


class TransitionSpec(_Frozen):
    """A move of the state machine: from some states to one, with required inputs, a guard, effects and a review step."""

    name: str = Field(pattern=_NAME)
    label: str = Field(default="", description="Button text; default: the name and the entity, e.g. 'Cancel booking'.")
    source: tuple[str, ...] = Field(alias="from", description="States it may start from.")
    to: str = Field(description="State it ends in.")
    inputs: tuple[str, ...] = Field(default=(), description="Fields the user must fill to make the move (e.g. a reason).")
    confirm: bool = Field(default=False, description="A review page ('Are you sure?') comes before the move.")
    guard: str | None = Field(default=None, description="Formula over the row that must hold, e.g. 'balance >= fee'.")
    effects: dict[str, str] = Field(default_factory=dict, description="field -> '$now', '$today', a formula or a literal, set by the move.")
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    def allows(self, row: dict[str, Any]) -> bool:
        """Whether the guard holds on a row's values (no guard: always); the detail page offers the move only then."""
        return self.guard is None or bool(evaluate(self.guard, row))


class EntitySpec(_Frozen):
    """A kind of record: fields, how it is titled, its state machine and how new ones are created."""

    name: str = Field(pattern=_NAME, description="Table name (filled in from the mapping key).")
    label: str = Field(default="", description="Singular display name; default from the name.")
    plural: str = Field(default="", description="Plural display name; default: the label's English plural.")
    title: str = Field(description="Field that names a row (a link text, what a person calls it).")
    subtitle: str | None = Field(default=None, description="Field shown under the title in cards and lists.")
    fields: tuple[FieldSpec, ...] = Field(min_length=1)
    states: tuple[str, ...] = Field(default=(), description="Values of the state field, the first the initial one.")
    state_field: str = Field(default="status", pattern=_NAME)
    state_weights: tuple[float, ...] = Field(default=(), description="Share of sample rows in each state (default even).")
    transitions: tuple[TransitionSpec, ...] = ()
    computed: dict[str, str] = Field(default_factory=dict, description="label -> formula over the row, shown on the detail page.")
    create: tuple[str, ...] = Field(default=(), description="Fields of the 'New ...' form; empty: no create form.")
    steps: tuple[tuple[str, ...], ...] = Field(default=(), description="The create form as a wizard: fields per step.")
    rows: int = Field(default=12, ge=1, le=200, description="Sample rows in a default seed.")
    tabs: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Detail-page tab -> fields shown on it.")

    @property
    def display(self) -> str:
        return self.label or _label(self.name)

    @property
    def display_plural(self) -> str:
        return self.plural or plural(self.display)

    def field(self, name: str) -> FieldSpec:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def transition_label(self, t: TransitionSpec) -> str:
        return t.label or f"{_label(t.name)} {self.display.lower()}"


class PageSpec(_Frozen):
    """One page of the app, built from a kit archetype over an entity."""

    archetype: Archetype
    entity: str | None = Field(default=None, description="Entity the page shows (all but 'settings').")
    title: str = Field(default="", description="Navigation and heading text; default from the entity.")
    path: str = Field(default="", description="URL path under the instance; default from the archetype and entity.")
    options: dict[str, Any] = Field(default_factory=dict, description="Archetype-specific settings (see docs/compiler.md).")


class ThemeSpec(_Frozen):
    """How the app looks: palette, density, typography, corners, header style."""

    accent: str = Field(default="#2f6fed", pattern=r"^#[0-9a-fA-F]{6}$")
    background: str = Field(default="#f6f7f9", pattern=r"^#[0-9a-fA-F]{6}$")
    surface: str = Field(default="#ffffff", pattern=r"^#[0-9a-fA-F]{6}$")
    ink: str = Field(default="#1d2330", pattern=r"^#[0-9a-fA-F]{6}$")
    header: Literal["light", "dark", "accent"] = "light"
    font: Literal["sans", "serif", "rounded", "mono", "condensed"] = "sans"
    density: Literal["compact", "comfortable", "spacious"] = "comfortable"
    corners: Literal["sharp", "rounded", "pill"] = "rounded"


class AppSpec(_Frozen):
    """A whole app, as a spec: compiled by the kit (`mocked_apps.kit.spec.compile_spec`)."""

    name: str = Field(pattern=_NAME, description="Registry name.")
    title: str
    category: str
    description: str
    icon: str = "▣"
    tagline: str = Field(default="", description="One line under the brand on the home page.")
    version: str = "1.0"
    nav: Literal["sidebar", "tabs", "bottom"] = Field(default="sidebar", description="Sidebar, top tabs, or tabs that "
                                                      "become a bottom bar on phones.")
    theme: ThemeSpec = ThemeSpec()
    entities: tuple[EntitySpec, ...] = Field(min_length=1)
    pages: tuple[PageSpec, ...] = Field(min_length=1)
    settings: dict[str, Any] = Field(default_factory=dict, description="Settings page: key -> default (bool = toggle, "
                                     "list = select whose first item is the default, number = slider).")
    world: dict[str, str] = Field(default_factory=dict, description="'entity.field' -> world concept ('people', 'orgs', "
                                  "'amounts', 'dates'): sample values drawn from the world a seed projects.")
    sample_seed: int = Field(default=7, description="Seed of the default sample data.")
    extension: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", description=(
        "The escape hatch, for what the spec cannot express: a folder beside the spec file whose `routes.py` defines "
        "`mount(app, router)` (app: the compiled spec and its tables, as archetypes get it) and whose `templates/` "
        "are found before the archetypes'. Its pages are listed as `archetype: custom` (path and title)."))

    @field_validator("entities", mode="before")
    @classmethod
    def _entities(cls, value: Any) -> Any:
        return _keyed(value, lambda k, v: {**_fields_keyed(v), "name": k})

    def entity(self, name: str) -> EntitySpec:
        for e in self.entities:
            if e.name == name:
                return e
        raise SpecError(f"{self.name}: no entity {name!r}; it has {[e.name for e in self.entities]}")

    @model_validator(mode="after")
    def _check(self) -> "AppSpec":
        names = {e.name for e in self.entities}
        for e in self.entities:
            fields = {f.name for f in e.fields}
            where = f"entities.{e.name}"
            if e.title not in fields:
                raise SpecError(f"{where}.title: {e.title!r} is not one of its fields")
            for f in e.fields:
                if f.ref and f.ref not in names:
                    raise SpecError(f"{where}.fields.{f.name}.ref: no entity {f.ref!r}")
            if e.states and e.state_field in fields:
                raise SpecError(f"{where}.state_field: {e.state_field!r} is also a field")
            for t in e.transitions:
                for s in (*t.source, t.to):
                    if s not in e.states:
                        raise SpecError(f"{where}.transitions.{t.name}: unknown state {s!r}; states are {list(e.states)}")
                for name in (*t.inputs, *t.effects):
                    if name not in fields:
                        raise SpecError(f"{where}.transitions.{t.name}: {name!r} is not a field")
            for name in (*e.create, *(n for step in e.steps for n in step), *(n for tab in e.tabs.values() for n in tab)):
                if name not in fields:
                    raise SpecError(f"{where}: {name!r} (create, steps or tabs) is not a field")
            if e.state_weights and len(e.state_weights) != len(e.states):
                raise SpecError(f"{where}.state_weights: one weight per state")
        for i, p in enumerate(self.pages):
            if p.archetype == "custom":
                _check_custom(self, i, p, names)
            elif p.archetype != "settings" and p.entity not in names:
                raise SpecError(f"pages[{i}] ({p.archetype}): entity {p.entity!r} is not declared")
        paths = [page_path(p) for p in self.pages]
        if len(set(paths)) != len(paths):
            raise SpecError(f"pages: two pages share a path ({paths})")
        for key in self.world:
            ent, _, field = key.partition(".")
            if ent not in names or field not in {f.name for f in self.entity(ent).fields}:
                raise SpecError(f"world.{key}: no such entity field")
        return self


def _check_custom(spec: AppSpec, i: int, page: PageSpec, entities: set[str]) -> None:
    """A custom page needs the extension that serves it, its own path and title, and a path no archetype route owns."""
    where = f"pages[{i}] (custom)"
    if not spec.extension:
        raise SpecError(f"{where}: a custom page is served by the spec's extension; set `extension: FOLDER`")
    if not page.path or not page.title:
        raise SpecError(f"{where}: give it a `path` and a `title` (the extension's route and its navigation text)")
    if page.entity is not None and page.entity not in entities:
        raise SpecError(f"{where}: entity {page.entity!r} is not declared")
    head = page.path.strip("/").split("/")[0]
    if head in entities or head in ("settings", "_gym", "_app", "_kit", *ARCHETYPE_PREFIXES):
        raise SpecError(f"{where}: path {page.path!r} is under a route the archetypes own (/{head}/...); choose another")


ARCHETYPE_PREFIXES = ("board", "catalogue", "feed", "booking", "calendar", "chat", "maplist", "media", "cart", "checkout",
                      "follow")
"""First path segments of archetype routes (besides entity names): custom pages stay out of them."""


def page_path(page: PageSpec) -> str:
    """The page's URL path under the instance root."""
    if page.path:
        return "/" + page.path.strip("/")
    if page.archetype == "settings":
        return "/settings"
    return f"/{page.archetype}/{page.entity}" if page.archetype != "table" else f"/{page.entity}"


def page_title(spec: AppSpec, page: PageSpec) -> str:
    if page.title:
        return page.title
    if page.archetype == "settings":
        return "Settings"
    return spec.entity(page.entity).display_plural


def _keyed(value: Any, build) -> Any:
    """A mapping {name: body} (the YAML form) -> a list of bodies with their name."""
    if isinstance(value, dict):
        return [build(k, v or {}) for k, v in value.items()]
    return value


def _fields_keyed(body: dict) -> dict:
    body = dict(body)
    if isinstance(body.get("fields"), dict):
        body["fields"] = [{**(v if isinstance(v, dict) else {"type": v}), "name": k} for k, v in body["fields"].items()]
    if isinstance(body.get("transitions"), dict):
        body["transitions"] = [{**v, "name": k} for k, v in body["transitions"].items()]
    return body



__all__ = ["AppSpec", "Archetype", "EntitySpec", "FieldSpec", "FieldType", "PageSpec", "SpecError", "ThemeSpec",
           "TransitionSpec", "page_path", "page_title"]
