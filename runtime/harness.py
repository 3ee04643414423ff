"""The one harness: observations -> prompts (overlapping windows), model output -> actions.

History is cut into windows of K steps that overlap by O steps. Inside a window every prompt
extends the previous one (append-only), so an inference server reuses its prefix cache; a new
window starts with the last O steps of the previous one, their screenshots turned into text
placeholders. The same windows are the RL training samples (loss on each window's new steps).
"""

from __future__ import annotations

import re
from typing import Callable, Literal, Protocol, Sequence

from pydantic import BaseModel, ConfigDict, Field

from runtime.actions import Action, ActionParseError, action_space_doc, format_action, parse_action
from runtime.axtree import compact_tree, page_changes, same_start
from runtime.observation import Observation

WINDOW = 10
OVERLAP = 2
IMAGE_TOKENS = 1200  # ~ a 1280x800 screenshot in 28-pixel patches (Qwen2-VL style)
View = Literal["compact", "full"]
VIEWS: tuple[str, ...] = ("compact", "full")
_TREE, _CHANGES, _SAME = "Accessibility tree:\n", "The page as at the step before, except:\n", "The page as at the step before, unchanged."
_FROM = "Accessibility tree, as at the step before up to [{}]:\n"
_FROM_LINE = re.compile(r"^Accessibility tree, as at the step before up to \[(\d+)\]:$", re.M)


class HarnessError(RuntimeError):
    """The harness could not build a prompt (e.g. a screenshot missing from the object store)."""


class ImageSource(Protocol):
    """Where screenshots live: anything with `get(key) -> bytes` (the object store)."""

    def get(self, key: str) -> bytes: ...


class TextPart(BaseModel):
    """Text inside a message."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["text"] = "text"
    text: str


class ImagePart(BaseModel):
    """A screenshot inside a message, with its bytes already loaded."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["image"] = "image"
    key: str
    data: bytes = Field(repr=False)
    media_type: str = "image/png"


Part = TextPart | ImagePart


class Message(BaseModel):
    """One chat message; provider agents translate it to their API's format."""

    model_config = ConfigDict(frozen=True)
    role: Literal["system", "user", "assistant"]
    parts: tuple[Part, ...]
    train: bool = Field(default=False, description="Assistant output of a window's new step (loss goes here).")

    def text(self) -> str:
        """The message as text; images appear as `<image>`."""
        return "\n".join(p.text if isinstance(p, TextPart) else "<image>" for p in self.parts)


class Prompt(BaseModel):
    """What an agent is asked at one step: a system message, then alternating user/assistant."""

    model_config = ConfigDict(frozen=True)
    messages: tuple[Message, ...]

    @property
    def system(self) -> str:
        return self.messages[0].text()

    def images(self) -> list[ImagePart]:
        return [p for m in self.messages for p in m.parts if isinstance(p, ImagePart)]

    def text(self) -> str:
        """The whole prompt as text (for logs, local models and tests)."""
        return "\n\n".join(f"<{m.role}>\n{m.text()}" for m in self.messages)


class Turn(BaseModel):
    """One step of a trajectory as the harness saw it: observation, model output, parsed action."""

    model_config = ConfigDict(frozen=True)
    observation: Observation
    output: str = Field(description="Raw model output.")
    action: str | None = Field(default=None, description="The parsed action in text form; None if parsing failed.")
    error: str | None = Field(default=None, description="Parse error, shown to the model in the next prompt.")


class Window(BaseModel):
    """One history window: step indices carried over from the previous window, then new ones."""

    model_config = ConfigDict(frozen=True)
    index: int
    context: tuple[int, ...] = Field(description="Overlap steps from the previous window (screenshots as placeholders).")
    new: tuple[int, ...] = Field(description="Steps decided in this window: the training targets.")

    @property
    def steps(self) -> tuple[int, ...]:
        return self.context + self.new


def window_of(step: int, size: int = WINDOW, overlap: int = OVERLAP) -> Window:
    """The window in which `step` is decided (a new step)."""
    if not 0 <= overlap < size:
        raise ValueError(f"need 0 <= overlap < size, got size={size} overlap={overlap}")
    if step < size:
        return Window(index=0, context=(), new=tuple(range(size)))
    stride = size - overlap
    index = 1 + (step - size) // stride
    first = size + (index - 1) * stride
    return Window(index=index, context=tuple(range(first - overlap, first)), new=tuple(range(first, first + stride)))


def windows(n_steps: int, size: int = WINDOW, overlap: int = OVERLAP) -> list[Window]:
    """The windows covering steps 0..n_steps-1, the last one cut to the steps that exist."""
    out: list[Window] = []
    step = 0
    while step < n_steps:
        w = window_of(step, size, overlap)
        out.append(w.model_copy(update={"new": tuple(s for s in w.new if s < n_steps)}))
        step = w.new[-1] + 1
    return out


def system_prompt(instruction: str, form_factor: str = "desktop", view: View = "compact") -> str:
    """The first message: the task and the action space; identical at every step.

    In the compact view the task comes last, so every task's system message starts with the same
    tokens and a local model keeps their keys and values across attempts (rl.agent).
    """
    device = "a desktop browser (1280x800) with a workspace shell" if form_factor == "desktop" else "a phone browser"
    actions = f"Actions:\n{action_space_doc(form_factor)}"
    if view == "full":
        return (
            f"You operate web apps in {device} to complete a task for the user.\n\n"
            f"Task: {instruction}\n\n"
            "Each observation shows the page's accessibility tree; elements you can act on carry an id [n].\n"
            "Think briefly if you need to, then write exactly one action as the last line of your reply.\n"
            f"{actions}"
        )
    return (
        "You operate web apps to complete a task for the user.\n"
        "Each observation shows the page's accessibility tree; elements you can act on carry an id [n]. "
        "When most of the page is as at the step before, only the lines that changed are shown.\n"
        "Think briefly if you need to, then write exactly one action as the last line of your reply.\n"
        f"{actions}\n\nYou are in {device}.\n\nTask: {instruction}"
    )


class _Renderer:
    """Turns observations into user messages, loading screenshots once."""

    def __init__(self, images: ImageSource | None, vision: bool, max_axtree_lines: int | None, view: View = "compact"):
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}; use one of {', '.join(VIEWS)}")
        self.images, self.vision, self.max_lines, self.view = images, vision and images is not None, max_axtree_lines, view
        self._cache: dict[str, bytes] = {}

    def observation(self, step: int, obs: Observation, feedback: str | None, screenshot: bool,
                    before: Observation | None = None) -> Message:
        """Step `step`'s user message; `before` is the previous step's observation when the prompt also shows it."""
        lines = [f"## Step {step}", f"URL: {obs.url}"]  # only fields the trajectory store keeps, so prompts can be rebuilt
        if feedback:
            lines.append(f"Your previous reply was not a valid action: {feedback}")
        if obs.last_action_error:
            lines.append(f"Last action failed: {obs.last_action_error}")
        if obs.shell_output is not None:
            lines.append(f"Shell output:\n{obs.shell_output}")
        lines.append(self._tree(obs, before))
        parts: list[Part] = [TextPart(text="\n".join(lines))]
        if self.vision and obs.screenshot:
            if screenshot:
                parts.append(ImagePart(key=obs.screenshot, data=self._load(obs.screenshot)))
            else:
                parts.append(TextPart(text=f"[screenshot of step {step} omitted]"))
        return Message(role="user", parts=tuple(parts))

    def _tree(self, obs: Observation, before: Observation | None) -> str:
        if self.view == "full":
            tree = obs.axtree.splitlines()
            if self.max_lines is not None and len(tree) > self.max_lines:
                tree = tree[: self.max_lines] + [f"... ({len(tree) - self.max_lines} more lines)"]
            return _TREE + "\n".join(tree)
        tree = compact_tree(obs.axtree)
        if before is not None:
            old = compact_tree(before.axtree)
            changes = page_changes(old, tree)
            if changes is not None:
                return f"{_CHANGES}{changes}" if changes else _SAME
            if start := same_start(old, tree):  # a new page under the same header and navigation
                return _FROM.format(start[0]) + start[1]
        return _TREE + tree

    def _load(self, key: str) -> bytes:
        if key not in self._cache:
            try:
                self._cache[key] = self.images.get(key)
            except (OSError, KeyError) as err:
                raise HarnessError(f"screenshot {key!r} not readable from the object store: {err}") from err
        return self._cache[key]


def _history(step: int, mode: str, size: int, overlap: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(steps shown without screenshots, steps shown with screenshots) before `step`."""
    if mode == "window":
        w = window_of(step, size, overlap)
        return w.context, tuple(s for s in w.new if s < step)
    if mode == "last_k":
        return (), tuple(range(max(0, step - (size - 1)), step))
    raise ValueError(f"unknown history mode {mode!r}; use 'window' or 'last_k'")


class Harness:
    """Builds each step's prompt from the trajectory so far and parses the model's reply."""

    def __init__(
        self,
        instruction: str,
        form_factor: str = "desktop",
        *,
        vision: bool = False,
        images: ImageSource | None = None,
        window: int = WINDOW,
        overlap: int = OVERLAP,
        max_axtree_lines: int | None = None,
        mode: Literal["window", "last_k"] = "window",
        view: View = "compact",
    ):
        window_of(0, window, overlap)  # validates the sizes
        self._render = _Renderer(images, vision, max_axtree_lines, view)
        self.system = system_prompt(instruction, form_factor, view)
        self.window, self.overlap, self.mode, self.view = window, overlap, mode, view
        self.turns: list[Turn] = []

    @classmethod
    def replay(cls, instruction: str, turns: Sequence[Turn], form_factor: str = "desktop", **options) -> "Harness":
        """A harness holding a recorded trajectory, to rebuild its prompts, windows and training samples."""
        harness = cls(instruction, form_factor, **options)
        harness.turns = list(turns)
        return harness

    def prompt(self, obs: Observation) -> Prompt:
        """The prompt for deciding the next step at observation `obs`."""
        return self._prompt(len(self.turns), obs, self.mode)

    def prompt_at(self, step: int) -> Prompt:
        """The prompt the agent saw at recorded step `step` of a replayed trajectory (`Harness.replay`)."""
        if not 0 <= step < len(self.turns):
            raise IndexError(f"step {step} of a trajectory of {len(self.turns)} steps")
        return self._prompt(step, self.turns[step].observation, self.mode)

    def record(self, obs: Observation, output: str) -> Turn:
        """Parse the model's reply to `obs` and append the step; a parse error becomes next-step feedback."""
        try:
            action: Action | None = parse_action(output)
            turn = Turn(observation=obs, output=output, action=format_action(action))
        except ActionParseError as err:
            turn = Turn(observation=obs, output=output, error=str(err))
        self.turns.append(turn)
        return turn

    def windows(self) -> list[Window]:
        """The window structure of the trajectory so far (which steps are new in each window)."""
        return windows(len(self.turns), self.window, self.overlap)

    def samples(self) -> list[Prompt]:
        """One training sample per window: its full conversation, assistant messages of new steps marked `train`."""
        out = []
        for w in self.windows():
            last = w.new[-1]
            msgs = list(self._prompt(last, self.turns[last].observation, "window").messages)
            msgs.append(Message(role="assistant", parts=(TextPart(text=self.turns[last].output),)))
            # messages: system, then (user, assistant) per step of the window in order
            for i, step in enumerate(w.steps):
                if step in w.new:
                    msgs[2 + 2 * i] = msgs[2 + 2 * i].model_copy(update={"train": True})
            out.append(Prompt(messages=tuple(msgs)))
        return out

    def _prompt(self, step: int, obs: Observation, mode: str) -> Prompt:
        plain, full = _history(step, mode, self.window, self.overlap)
        shown = plain + full
        msgs = [Message(role="system", parts=(TextPart(text=self.system),))]
        for s in shown:
            turn = self.turns[s]
            msgs.append(self._observation(s, turn.observation, s in full, s - 1 in shown))
            msgs.append(Message(role="assistant", parts=(TextPart(text=turn.output),)))
        msgs.append(self._observation(step, obs, True, step - 1 in shown))
        return Prompt(messages=tuple(msgs))

    def _observation(self, step: int, obs: Observation, screenshot: bool, after_shown: bool) -> Message:
        """A step's message; a step right after one the prompt shows may be told as that page's changes."""
        feedback = self.turns[step - 1].error if step > 0 else None
        before = self.turns[step - 1].observation if after_shown else None
        return self._render.observation(step, obs, feedback, screenshot, before)


def seen_elements(prompt: Prompt) -> dict[int, str]:
    """Element id -> its line, as the prompt lets a model see the current page: the last whole tree it shows, then the
    changes of each step after it (`gone:` lines remove an element). Checks that a step's action names what it saw."""
    users = [m.text() for m in prompt.messages if m.role == "user"]
    start = max((i for i, text in enumerate(users) if _TREE in text), default=None)
    if start is None:
        return {}
    seen: dict[int, str] = {}
    for text in users[start:]:
        if _TREE in text:
            seen = {}
            body = text.split(_TREE, 1)[1]
        elif kept := _FROM_LINE.search(text):
            seen = {k: v for k, v in seen.items() if k <= int(kept[1])}
            body = text[kept.end():]
        elif _CHANGES in text:
            body = text.split(_CHANGES, 1)[1]
        else:
            continue
        for line in body.splitlines():
            line = line.strip()
            gone = line.startswith("gone: ")
            match = re.match(r"\[(\d+)\] ", line[len("gone: "):] if gone else line)
            if match and gone:
                seen.pop(int(match[1]), None)
            elif match:
                seen[int(match[1])] = line
    return seen


Counter = Callable[[str], int]


def _counter(tokenizer_or_counter) -> Counter:
    """A text -> token count function from a counter or a tokenizer with `encode`."""
    encode = getattr(tokenizer_or_counter, "encode", None)
    if encode is None:
        return tokenizer_or_counter

    def count(text: str) -> int:
        ids = encode(text)
        return len(getattr(ids, "ids", ids))

    return count


def _message_tokens(msg: Message, count: Counter, image_tokens: int) -> int:
    return sum(count(p.text) if isinstance(p, TextPart) else image_tokens for p in msg.parts) + 4  # role header


def prefill_tokens(
    trajectory: Harness | Sequence[Turn],
    mode: Literal["window", "last_k"],
    tokenizer_or_counter: Counter | object,
    *,
    instruction: str = "",
    image_tokens: int = IMAGE_TOKENS,
    window: int = WINDOW,
    overlap: int = OVERLAP,
) -> int:
    """Prompt tokens an inference server must prefill over a trajectory, its prefix cache holding the previous prompt.

    At each step only the messages after the longest common prefix with the previous step's prompt
    are new work. With `last_k` the history drops its oldest step once full, so everything after
    the system message is prefilled again; with `window` only the appended suffix is, except at a
    window boundary.
    """
    if isinstance(trajectory, Harness):
        base = trajectory
    else:
        base = Harness.replay(instruction or "(instruction)", trajectory, window=window, overlap=overlap)
    count = _counter(tokenizer_or_counter)
    sizes: dict[Message, int] = {}
    total, previous = 0, ()
    for step, turn in enumerate(base.turns):
        msgs = base._prompt(step, turn.observation, mode).messages
        common = 0
        while common < min(len(msgs), len(previous)) and msgs[common] == previous[common]:
            common += 1
        for msg in msgs[common:]:
            if msg not in sizes:
                sizes[msg] = _message_tokens(msg, count, image_tokens)
            total += sizes[msg]
        previous = msgs + (Message(role="assistant", parts=(TextPart(text=turn.output),)),)
    return total
