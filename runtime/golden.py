"""The golden action API: what a task's `solve(env)` may call, and the runner that turns calls into actions.

Golden code is untrusted Python defining `solve(env)`. It runs in the shared sandbox
(runtime.sandbox: own process group, deadline, memory/CPU limits, no network, scratch
folder); each `env` call crosses the sandbox's pipe to this process, where `GoldenEnv` resolves
the element in the current observation's accessibility tree (`runtime.axtree.find`) and emits an
ordinary agent action such as `click(12)` through the session's `step()`. A golden run is thus
also a demonstration in the agent's own action language.

Example:

    def solve(env):
        env.open_app("notes")
        env.click("New note")
        env.fill("Title", "Dentist")
        env.click("Save note", role="button")

A call that fails (no such element, or the action reported an error) raises `RemoteError` inside
solve() with the reason; golden code that does not catch it fails the run.
"""

from __future__ import annotations

import difflib
import inspect
import queue
import threading
from typing import Callable

from mocked_apps.kit.variant import variant_of
from runtime.sandbox import SandboxCallError, SandboxLimits, SandboxResult, run_sandboxed
from runtime.actions import Back, Click, Fill, Press, Scroll, Select, Shell, Type, Wait, Answer, format_action
from runtime.axtree import find, parse_axtree
from runtime.observation import Observation

__all__ = ["GoldenEnv", "GoldenActionError", "GoldenFailed", "GoldenRunner", "GOLDEN_API"]

_TEXTBOX = ("textbox", "searchbox", "combobox", "spinbutton")
_SELECT = ("combobox", "listbox")
_CHECK = ("checkbox", "switch", "radio", "menuitemcheckbox")
_APP_ENTRY = ("link", "button", "tab", "menuitem")


class GoldenActionError(SandboxCallError):
    """An env call failed (no such element, or the action reported an error); raised in solve() as RemoteError."""


class GoldenFailed(RuntimeError):
    """The golden code raised, timed out or died in its sandbox; the message says which and where."""

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self.kind = kind  # the sandbox's error kind (e.g. "forbidden"), None for a runner fault


class GoldenEnv:
    """The person-like action API handed to `solve(env)`; every action method emits one agent action.

    Elements are found the way a person names them: by accessible name (exact first, then a
    case-insensitive substring), optionally narrowed by ARIA role or visible text.
    """

    def __init__(self, emit: Callable[[str], Observation], current: Callable[[], Observation], apps: tuple[str, ...] = (),
                 variant: int = 0):
        self._emit, self._current, self._apps = emit, current, apps
        self._variant = variant_of(variant)

    def word(self, text: str) -> str:
        """How the task's apps word one of the kit's own controls (e.g. "Search" reads "Find" in some appearance
        variants); any other text comes back as it is. Emits no action."""
        return self._variant.word(text) if self._variant is not None else text

    def open_app(self, app: str) -> None:
        """Switch to an app (e.g. "mail" or its title "Mail") through the launcher or dock.

        A single-app task starts inside its app, so there this only checks the name.
        """
        if len(self._apps) == 1 and app.lower() in (self._apps[0].lower(), self._apps[0].rsplit("/", 1)[-1].lower()):
            return
        obs = self._current()
        entries = [n for n in parse_axtree(obs.axtree) if n.id is not None and n.role in _APP_ENTRY]
        exact = [n for n in entries if n.name.strip().lower() == app.strip().lower()]
        self._click(exact[-1] if exact else _find(obs, _APP_ENTRY, name=app))

    def click(self, name: str | None = None, role: str | None = None, text: str | None = None) -> None:
        """Click the element with this accessible name (optionally of this ARIA role, e.g. "button", or by text)."""
        self._click(_find(self._current(), None, name=name, role=role, text=text))

    def fill(self, name: str, text: str) -> None:
        """Replace the content of the text box labelled `name` with `text`."""
        node = _find(self._current(), _TEXTBOX, name=name)
        self._act(format_action(Fill(element=node.id, text=text)))

    def select(self, name: str, option: str) -> None:
        """Choose `option` (its visible label) in the drop-down labelled `name`."""
        node = _find(self._current(), _SELECT, name=name)
        self._act(format_action(Select(element=node.id, value=option)))

    def check(self, name: str, checked: bool = True) -> None:
        """Make the checkbox, switch or radio labelled `name` checked (or unchecked); clicks only if needed."""
        node = _find(self._current(), _CHECK, name=name)
        if _is_checked(node) != checked:
            self._click(node)

    def uncheck(self, name: str) -> None:
        """Make the checkbox or switch labelled `name` unchecked; clicks only if needed."""
        self.check(name, checked=False)

    def press(self, key: str) -> None:
        """Press a key or chord, e.g. "Enter", "Escape", "Control+A"."""
        self._act(format_action(Press(key=key)))

    def type(self, text: str) -> None:
        """Type text into the focused element."""
        self._act(format_action(Type(text=text)))

    def scroll(self, dy: float = 400) -> None:
        """Scroll the page by dy pixels (positive scrolls down)."""
        self._act(format_action(Scroll(dx=0, dy=dy)))

    def back(self) -> None:
        """Go back to the previous page."""
        self._act(format_action(Back()))

    def wait(self, seconds: float = 1.0) -> None:
        """Wait a moment (at most 10 seconds)."""
        self._act(format_action(Wait(seconds=seconds)))

    def answer(self, text: str = "") -> None:
        """Finish the task with this final answer text; the episode ends here."""
        self._act(format_action(Answer(text=text)))

    def shell(self, command: str) -> str:
        """Run a shell command in the workspace folder (desktop only) and return its output."""
        return self._act(format_action(Shell(command=command))).shell_output or ""

    def page_text(self) -> str:
        """The current accessibility-tree text, for reading values off the page."""
        return self._current().axtree

    def url(self) -> str:
        """The current page URL."""
        return self._current().url

    def _click(self, node) -> None:
        self._act(format_action(Click(element=node.id)))

    def _act(self, action: str) -> Observation:
        obs = self._emit(action)
        if obs.last_action_error:
            raise GoldenActionError(f"{action} failed: {obs.last_action_error}")
        return obs


GOLDEN_API: dict[str, inspect.Signature] = {
    name: inspect.signature(fn) for name, fn in vars(GoldenEnv).items() if callable(fn) and not name.startswith("_")
}


def _find(obs: Observation, roles: tuple[str, ...] | None, **query):
    nodes = [n for n in parse_axtree(obs.axtree) if n.id is not None and (roles is None or n.role in roles)]
    query = {k: v for k, v in query.items() if v is not None}
    if not query:
        raise GoldenActionError("say which element: give a name, role or text")
    try:
        return find(nodes, **query)
    except LookupError as err:
        raise GoldenActionError(str(err)) from err


def _is_checked(node) -> bool:
    return "checked" in node.attrs and node.attrs["checked"] not in (False, "false")


class _Closed(Exception):
    """The episode ended while golden code still ran; stops its sandbox."""


class GoldenRunner:
    """Runs one `solve(env)` in the sandbox, handing out its actions one observation at a time.

    The sandbox runs in a thread; each action waits there until `next_action` is called with the
    observation it produced.
    """

    def __init__(self, source: str, *, apps: tuple[str, ...] = (), timeout_s: float = 300.0, memory_mb: int = 1024,
                 variant: int = 0):
        self.source, self.apps, self.variant = source, tuple(apps), variant
        self.limits = SandboxLimits(timeout_s=timeout_s, memory_mb=memory_mb)
        self._observation: Observation | None = None
        self._actions: queue.Queue = queue.Queue()  # ("action", text) | ("end", SandboxResult) | ("crash", exc)
        self._results: queue.Queue = queue.Queue()  # Observation after each action, or _Closed
        self._thread: threading.Thread | None = None
        self._waiting = False

    def next_action(self, obs: Observation) -> str | None:
        """The next action (text form) the golden code takes at `obs`; None once solve() has returned."""
        self._observation = obs
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="golden", daemon=True)
            self._thread.start()
        elif self._waiting:
            self._results.put(obs)
        elif not self._thread.is_alive() and self._actions.empty():
            return None
        kind, value = self._actions.get()
        self._waiting = kind == "action"
        if kind == "action":
            return value
        if kind == "crash":
            raise GoldenFailed(f"golden runner failed: {value}") from value
        result: SandboxResult = value
        if not result.ok:
            raise GoldenFailed(f"golden code failed ({result.error_kind}): {result.error}", kind=result.error_kind)
        return None

    def close(self) -> None:
        """Stop the golden code wherever it is (the sandbox kills its process group)."""
        if self._thread is not None and self._thread.is_alive():
            self._results.put(_Closed())
            self._thread.join(timeout=30)

    def _run(self) -> None:
        env = GoldenEnv(self._emit, lambda: self._observation, self.apps, self.variant)
        try:
            result = run_sandboxed(self.source, "solve", {}, limits=self.limits, handler=self._handler(env), filename="<golden>")
        except _Closed:
            return
        except Exception as err:  # noqa: BLE001 - a runner fault is handed to the caller, never swallowed
            self._actions.put(("crash", err))
            return
        self._actions.put(("end", result))

    def _emit(self, action: str) -> Observation:
        self._actions.put(("action", action))
        obs = self._results.get()
        if isinstance(obs, _Closed):
            raise obs
        return obs

    @staticmethod
    def _handler(env: GoldenEnv):
        def handle(name: str, args: list, kwargs: dict):
            signature = GOLDEN_API.get(name)
            if signature is None:
                near = difflib.get_close_matches(name, GOLDEN_API, n=1)
                hint = f"did you mean {near[0]}? " if near else ""
                raise GoldenActionError(f"env has no method {name!r}; {hint}it offers {', '.join(sorted(GOLDEN_API))}")
            try:
                signature.bind(env, *args, **kwargs)
            except TypeError as err:
                raise GoldenActionError(f"env.{name}{str(signature).replace('(self, ', '(')}: {err}") from None
            return getattr(env, name)(*args, **kwargs)

        return handle
