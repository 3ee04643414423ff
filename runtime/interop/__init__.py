"""gymfactory tasks in other ecosystems: TRL's environment_factory, an OpenEnv server, a `verifiers` environment,
Gymnasium ids, and `gymfactory serve` to start the servers (docs/interop.md)."""

from __future__ import annotations

__all__ = ["cli", "gym_register", "openenv_server", "tool_template", "trl_env", "verifiers_env"]
