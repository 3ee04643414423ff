"""Agents by name: imported only when used, with did-you-mean on a typo."""

from __future__ import annotations

import difflib
import importlib

from runtime.agents.base import Agent, AgentOptions

AGENTS: dict[str, str] = {
    "golden": "runtime.agents.golden:GoldenAgent",
    "random": "runtime.agents.random_agent:RandomAgent",
    "openai": "runtime.agents.openai_agent:OpenAIAgent",
    "anthropic": "runtime.agents.anthropic_agent:AnthropicAgent",
    "policy": "rl.agent:PolicyAgent",  # a local Hugging Face causal LM (--model PATH), trained by rl/
}


class UnknownAgent(LookupError):
    """No agent by that name; the message suggests near names."""


def agent_names() -> list[str]:
    return sorted(AGENTS)


def check_agent(name: str) -> str:
    """`name` if it is a registered agent; else UnknownAgent with near names."""
    if name in AGENTS:
        return name
    near = difflib.get_close_matches(name, AGENTS, n=3)
    hint = f"did you mean {', '.join(near)}?" if near else f"agents are {', '.join(agent_names())}"
    raise UnknownAgent(f"unknown agent {name!r}; {hint}")


def make_agent(name: str, options: AgentOptions | None = None) -> Agent:
    """A new agent of that name, built from `options`."""
    module, _, cls = AGENTS[check_agent(name)].partition(":")
    return getattr(importlib.import_module(module), cls)(options or AgentOptions())
