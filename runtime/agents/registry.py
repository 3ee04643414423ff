"""Agents by name: imported only when used, with did-you-mean on a typo."""

from __future__ import annotations

from contracts.registry import Registry, UnknownName
from runtime.agents.base import Agent, AgentOptions


class UnknownAgent(UnknownName):
    """No agent by that name; the message suggests near names."""


AGENTS = Registry("agent", {
    "golden": "runtime.agents.golden:GoldenAgent",
    "random": "runtime.agents.random_agent:RandomAgent",
    "openai": "runtime.agents.openai_agent:OpenAIAgent",
    "anthropic": "runtime.agents.anthropic_agent:AnthropicAgent",
    "policy": "rl.agent:PolicyAgent",  # a local Hugging Face causal LM (--model PATH), trained by rl/
}, error=UnknownAgent)


def agent_names() -> list[str]:
    """The agents offered to users."""
    return AGENTS.names()


def check_agent(name: str, *, public: bool = True) -> str:
    """`name` if it is a registered agent; else UnknownAgent with near names."""
    return AGENTS.check(name, public=public)


def make_agent(name: str, options: AgentOptions | None = None) -> Agent:
    """A new agent of that name, built from `options` (test-only agents included)."""
    return AGENTS.load(name)(options or AgentOptions())
