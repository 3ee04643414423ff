"""The options of `gymfactory run`, checked before anything starts: one `InputError` line naming the option.

Names (provider, agents) get did-you-mean from their registries, and only names offered to users pass
(test-only plug-ins such as the `scripted` provider do not); each agent is built once, so one that lacks
its model or key says so; values get the config's own constraints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from factory.providers import check_provider
from contracts.errors import InputError
from runtime.agents import AgentOptions, check_agent, make_agent

from .config import PipelineConfig

# PipelineConfig field -> the `gymfactory run` option that sets it
OPTION = {"out": "--out", "tasks": "--tasks", "concurrency": "--concurrency", "seed": "--seed", "provider": "--provider",
          "agents": "--agent", "train": "--train", "fresh": "--fresh"}


class BadOption(InputError, ValueError):
    """An option value of `gymfactory run` that cannot work; the message names the option and the fix."""


def run_config(**options: Any) -> PipelineConfig:
    """The pipeline config of these `gymfactory run` options, or BadOption / UnknownName before anything starts."""
    check_provider(options["provider"])
    for agent in options["agents"]:
        check_agent(agent)
        try:  # an agent that lacks its model or key says so now, not as a traceback in the rollouts stage
            make_agent(agent, AgentOptions()).close()
        except ValueError as err:
            raise BadOption(f"--agent {agent}: {err}") from None
    out = Path(options["out"])
    if out.exists() and not out.is_dir():
        raise BadOption(f"--out {out}: it is a file; pass a folder (a new one, or a run folder to resume)")
    try:
        return PipelineConfig(**options)
    except ValidationError as err:
        first = err.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        value = options.get(field, first.get("input"))
        shown = " ".join(map(str, value)) if isinstance(value, (tuple, list)) else value
        raise BadOption(f"{OPTION.get(field, field)} {shown}: {first['msg'].lower()}") from None
