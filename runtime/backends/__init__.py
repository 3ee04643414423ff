"""Backends behind the environment manager: `Backend` (the seam), `LocalBackend` (the embedded default), `DockerBackend`."""

from .base import Backend, BrowserPage, DeadlineExceeded, EnvError, Instance, LeaseExpired, PageSetup, Served, TaskSetupError

__all__ = [
    "Backend",
    "BrowserPage",
    "DockerBackend",
    "DeadlineExceeded",
    "EnvError",
    "Instance",
    "LeaseExpired",
    "LocalBackend",
    "PageSetup",
    "Served",
    "TaskSetupError",
    "backend_names",
    "make_backend",
]

_BACKENDS = {"local": "runtime.backends.local:LocalBackend", "docker": "runtime.backends.docker:DockerBackend"}


def __getattr__(name: str):
    if name == "LocalBackend":
        from .local import LocalBackend

        return LocalBackend
    if name == "DockerBackend":
        from .docker import DockerBackend

        return DockerBackend
    raise AttributeError(name)


def backend_names() -> list[str]:
    """The names `make_backend` knows."""
    return list(_BACKENDS)


def make_backend(name: str = "local", **options) -> Backend:
    """A backend by name (`local`, `docker`; scale-out backends register here), with did-you-mean on a typo."""
    import difflib
    import importlib

    if name not in _BACKENDS:
        near = difflib.get_close_matches(name, _BACKENDS, n=2)
        raise LookupError(f"unknown backend {name!r}" + (f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(_BACKENDS)}"))
    module, attr = _BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), attr)(**options)
