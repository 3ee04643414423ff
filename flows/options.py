"""The options of `gymfactory run`, checked before anything starts: one `InputError` line naming the option.

Names (provider, agents) get did-you-mean from their registries, and only names offered to users pass
(test-only plug-ins such as the `scripted` provider do not); each agent is built once, so one that lacks
its model or key says so. The values' own constraints are the config's (the options are generated from it).
"""

from __future__ import annotations

import socket
from pathlib import Path

from factory.providers import check_provider
from factory.tasks.synthesize import select_families
from contracts.errors import InputError
from runtime.agents import AgentOptions, check_agent, make_agent

from .config import PipelineConfig


class BadOption(InputError, ValueError):
    """An option value of `gymfactory run` that cannot work; the message names the option and the fix."""


def check_run(config: PipelineConfig) -> PipelineConfig:
    """What the config's types cannot say, checked before anything starts: the provider and agents exist (each
    agent is built once, so one that lacks its model or key says so), the Ray cluster answers, `--out` is a folder,
    and the `--app`/`--family` names exist and leave a family to synthesize."""
    check_provider(config.provider)
    select_families(config.synth)
    out = Path(config.out)
    if out.exists() and not out.is_dir():
        raise BadOption(f"--out {out}: it is a file; pass a folder (a new one, or a run folder to resume)")
    for agent in config.agents:
        check_agent(agent)
        try:  # an agent that lacks its model or key says so now, not as a traceback in the rollouts stage
            make_agent(agent, AgentOptions(model=config.model)).close()
        except ValueError as err:
            raise BadOption(f"--agent {agent}: {err}") from None
    if config.runner == "ray":
        _check_ray_address(config.ray_address)
    return config


def _check_ray_address(address: str | None) -> None:
    """`--runner ray` needs a cluster that answers at `--ray-address` (Ray itself would retry for minutes)."""
    if not address:
        raise BadOption("--runner ray: needs --ray-address HOST:PORT, the Ray cluster's address (`ray start --head` "
                        "prints it; see docs/scale.md)")
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BadOption(f"--ray-address {address}: expected HOST:PORT, e.g. 10.0.0.5:6379")
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as err:
        raise BadOption(f"--ray-address {address}: no Ray cluster answers there ({err.strerror or err}); "
                        "start one with `ray start --head` (see docs/scale.md)") from None
