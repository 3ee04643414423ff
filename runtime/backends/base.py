"""The backend seam: where app instances and browser pages come from (local processes, Docker, Kubernetes...)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Awaitable, Callable, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class EnvError(RuntimeError):
    """Infrastructure failed (app server, browser, verifier, deadline): the attempt's status is env_error."""


class TaskSetupError(ValueError):
    """The task itself cannot be set up (a seed its app rejects, a workspace path outside the workspace).

    Neither the agent's failure nor an infrastructure fault: the attempt ends with this reason and
    the rest of a rollout goes on.
    """


class DeadlineExceeded(EnvError):
    """An operation (reset, step, evaluate) ran past its deadline."""


class LeaseExpired(EnvError):
    """The session's lease ran out; its instances were given back."""


class Instance(BaseModel):
    """One app instance handed to a session: where the agent's browser opens it."""

    model_config = ConfigDict(frozen=True)

    app: str = Field(description="App reference as the task names it (registry name or folder).")
    instance_id: str
    url: str = Field(description="Absolute agent-facing URL of the instance root, e.g. http://127.0.0.1:5301/i/<id>/.")
    title: str = Field(default="", description="The app's human title (launcher label).")
    icon: str = Field(default="", description="The app's launcher glyph.")
    generation: int = Field(default=0, description="Which incarnation of the app server created it.")
    initial_state: dict[str, list[dict]] | None = Field(
        default=None, description="Its state dump as handed out, when the backend knows it (saves a dump per reset)."
    )


class Served(BaseModel):
    """A response the browser serves itself for a URL under `PageSetup.route` (the launcher)."""

    model_config = ConfigDict(frozen=True)

    status: int = 200
    body: str = ""
    content_type: str = "text/html; charset=utf-8"
    location: str | None = Field(default=None, description="Redirect target (with status 302).")


class PageSetup(BaseModel):
    """How to open one session's browser context; static for the session's lifetime."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    form_factor: str = "desktop"
    init_script: str | None = Field(default=None, description="JS added to every document (the app dock).")
    route: str | None = Field(default=None, description="URL glob answered by `serve` instead of the network.")
    serve: Callable[[str], Served] | None = Field(default=None, description="URL -> response, for `route`.")


class BrowserPage(Protocol):
    """One session's browser context and page; `call` runs `fn(page)` within `timeout` seconds."""

    form_factor: str

    def call(self, fn: Callable[[Any], Awaitable[T]], timeout: float) -> T: ...

    def alive(self) -> bool:
        """Whether the browser and the page still answer."""

    def preload(self, url: str | None) -> None:
        """Start loading `url` in a standby page of the same context, without waiting; None drops the standby."""

    def take(self, url: str, timeout: float) -> bool:
        """Swap in the standby page once it has loaded `url`; False (nothing swapped) when it is another URL or failed."""

    def close(self, reuse: bool = True) -> None:
        """End the session's use of the page; `reuse=False` after a fault (the backend must not hand it out again)."""


class Backend(ABC):
    """Provisioning behind the environment manager: instances from a warm pool, and browser pages."""

    @abstractmethod
    def acquire(self, app: str, seed: dict | None, clock: str | None, timeout: float, held: Instance | None = None) -> Instance:
        """A ready instance of `app` in the state (seed, clock); recovers a dead app server first.

        `held`: an instance the caller took earlier and has not changed (a session's prepared next start); it is
        handed back when it is still in that state on a live server, else given back and another one acquired."""

    @abstractmethod
    def release(self, instance: Instance) -> None:
        """Give an instance back (reset into the pool, or deleted); never raises for a dead server."""

    @abstractmethod
    def state(self, instance: Instance, timeout: float) -> dict[str, list[dict]]:
        """The instance's canonical state dump; EnvError if its server is gone."""

    @abstractmethod
    def open_page(self, setup: PageSetup, timeout: float) -> BrowserPage:
        """A fresh browser context and page; relaunches a dead browser first."""

    @abstractmethod
    def close(self) -> None:
        """Stop every server and browser this backend started."""
