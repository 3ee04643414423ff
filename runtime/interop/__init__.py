"""gymfactory tasks in other ecosystems: an OpenEnv server, a `verifiers` environment, Gymnasium ids."""

from __future__ import annotations

__all__ = ["gym_register", "openenv_server", "verifiers_env"]
