"""The agent's actions: typed models, and the text form that models write and `parse_action` reads.

Each action's docstring is also its line in the agent's prompt (`action_space_doc`).
"""

from __future__ import annotations

import ast
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator


MAX_TEXT = 20_000  # longer text, answer or command is the agent's error: it cannot bloat what the verifier reads


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


Element = Annotated[int | str, Field(union_mode="smart")]  # an id, [12], or the element's name as the tree shows it (runtime.refs)


class Click(_Action):
    """click(12) clicks element [12], click("Save") the element named Save; click(640, 400) clicks the point x=640, y=400."""

    kind: Literal["click"] = "click"
    element: Element | None = None
    x: float | None = None
    y: float | None = None

    @model_validator(mode="after")
    def _target(self) -> "Click":
        if (self.element is None) == (self.x is None or self.y is None):
            raise ValueError("give an element id, click(12), or a point, click(640, 400)")
        return self


class Type(_Action):
    """type("text") types text into the focused element."""

    kind: Literal["type"] = "type"
    text: str = Field(max_length=MAX_TEXT)


class Fill(_Action):
    """fill(12, "text") or fill("Email", "text") replaces the content of input [12], or of the field named Email, with text."""

    kind: Literal["fill"] = "fill"
    element: Element
    text: str = Field(max_length=MAX_TEXT)


class Press(_Action):
    """press("Enter") presses a key or chord (Enter, Tab, Escape, ArrowDown, Control+A ...)."""

    kind: Literal["press"] = "press"
    key: str


class Scroll(_Action):
    """scroll(0, 400) scrolls the page by dx, dy pixels (positive dy scrolls down)."""

    kind: Literal["scroll"] = "scroll"
    dx: float = 0
    dy: float = 0


class Select(_Action):
    """select(12, "Option") chooses the option with that label in drop-down [12] (or in the one named by its label)."""

    kind: Literal["select"] = "select"
    element: Element
    value: str


class Back(_Action):
    """back() goes back to the previous page."""

    kind: Literal["back"] = "back"


class Wait(_Action):
    """wait(1) waits that many seconds (at most 10)."""

    kind: Literal["wait"] = "wait"
    seconds: float = Field(default=1.0, ge=0, le=10)


class Answer(_Action):
    """answer("text") ends the task, giving text as your final answer (use answer("") if none is needed)."""

    kind: Literal["answer"] = "answer"
    text: str = Field(max_length=MAX_TEXT)


class Shell(_Action):
    """shell("ls -la") runs a command in your workspace folder (desktop only); you see its output."""

    kind: Literal["shell"] = "shell"
    command: str = Field(max_length=MAX_TEXT)


Action = Annotated[Union[Click, Type, Fill, Press, Scroll, Select, Back, Wait, Answer, Shell], Field(discriminator="kind")]
ACTION_TYPES: dict[str, type[_Action]] = {
    cls.model_fields["kind"].default: cls for cls in (Click, Type, Fill, Press, Scroll, Select, Back, Wait, Answer, Shell)
}
_ADAPTER = TypeAdapter(Action)
_POSITIONAL: dict[str, tuple[str, ...]] = {
    "click": ("element",),
    "type": ("text",),
    "fill": ("element", "text"),
    "press": ("key",),
    "scroll": ("dx", "dy"),
    "select": ("element", "value"),
    "back": (),
    "wait": ("seconds",),
    "answer": ("text",),
    "shell": ("command",),
}


class ActionParseError(ValueError):
    """Model output that is not one valid action; the message is feedback for the model."""


def parse_action(text: str) -> Action:
    """The last line of `text` that reads as an action call, e.g. `click(12)` or `fill(3, "Ada")`."""
    lines = [line.strip().strip("`").strip() for line in text.strip().splitlines()]
    candidates = [line for line in lines if "(" in line and line.endswith(")")]
    if not candidates:
        raise ActionParseError(f"no action found; write one call such as click(12). Got: {text.strip()[:200]!r}")
    line = candidates[-1]
    if line.lower().startswith("action:"):
        line = line.split(":", 1)[1].strip()
    try:
        call = ast.parse(line, mode="eval").body
    except SyntaxError:
        raise ActionParseError(f"cannot parse {line!r} as an action call") from None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise ActionParseError(f"{line!r} is not an action call")
    name = call.func.id
    if name not in ACTION_TYPES:
        raise ActionParseError(f"unknown action {name!r}; actions are {', '.join(ACTION_TYPES)}")
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except ValueError:
        raise ActionParseError(f"arguments of {line!r} must be literals (numbers or quoted strings)") from None
    fields = _POSITIONAL[name]
    if name == "click" and len(args) == 2:
        fields = ("x", "y")
    if len(args) > len(fields):
        raise ActionParseError(f"{name}() takes at most {len(fields)} arguments, got {len(args)}")
    try:
        return _ADAPTER.validate_python({"kind": name, **dict(zip(fields, args)), **kwargs})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(map(str, first["loc"][1:]))
        raise ActionParseError(f"{line}: {where + ' ' if where else ''}{first['msg']}") from None


def format_action(action: Action) -> str:
    """The text form of an action, which `parse_action` reads back to the same action."""
    if isinstance(action, Click) and action.element is None:
        return f"click({action.x:g}, {action.y:g})"
    values = [getattr(action, f) for f in _POSITIONAL[action.kind]]
    return f"{action.kind}({', '.join(repr(v) if isinstance(v, str) else f'{v:g}' if isinstance(v, float) else str(v) for v in values)})"


STOP = "answer('')"  # how an attempt ends where no answer is needed: a demonstration's last step once the golden code returns


def action_space_doc(form_factor: str = "desktop") -> str:
    """The action list for a prompt, from the docstrings above."""
    kinds = [k for k in ACTION_TYPES if form_factor == "desktop" or k != "shell"]
    return "\n".join(f"- {ACTION_TYPES[k].__doc__.strip()}" for k in kinds)
