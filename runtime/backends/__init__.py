"""Backends behind the environment manager: `Backend` (the seam) and `LocalBackend` (the embedded default)."""

from .base import Backend, BrowserPage, DeadlineExceeded, EnvError, Instance, LeaseExpired, PageSetup, Served, TaskSetupError

__all__ = [
    "Backend",
    "BrowserPage",
    "DeadlineExceeded",
    "EnvError",
    "Instance",
    "LeaseExpired",
    "LocalBackend",
    "PageSetup",
    "Served",
    "TaskSetupError",
    "make_backend",
]

_BACKENDS = {"local": "runtime.backends.local:LocalBackend"}


def __getattr__(name: str):
    if name == "LocalBackend":
        from .local import LocalBackend

        return LocalBackend
    raise AttributeError(name)


def make_backend(name: str = "local", **options) -> Backend:
    """A backend by name (`local`; scale-out backends register here), with did-you-mean on a typo."""
    import difflib
    import importlib

    if name not in _BACKENDS:
        near = difflib.get_close_matches(name, _BACKENDS, n=2)
        raise LookupError(f"unknown backend {name!r}" + (f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(_BACKENDS)}"))
    module, attr = _BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), attr)(**options)
