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
    "policy": "rl.agent:PolicyAgent",  # a local Hugging Face causal LM (--model PATH or a registered name), trained by rl/
    "reference": "rl.agent:ReferenceAgent",  # the shipped reference policy (smollm2-135m-sft, an adapter), greedy
    # test-only: the oracle with one planted weakness each (runtime.agents.flawed), to measure diagnosis
    "flawed-search": "runtime.agents.flawed:MisspellsSearch",
    "flawed-confirm": "runtime.agents.flawed:NeverConfirms",
    "flawed-date_time": "runtime.agents.flawed:DatesOffByOne",
    "flawed-select_option": "runtime.agents.flawed:FirstOption",
    "flawed-cross_app": "runtime.agents.flawed:StaysInOneApp",
}, hidden={"flawed-search", "flawed-confirm", "flawed-date_time", "flawed-select_option", "flawed-cross_app"}, error=UnknownAgent)


def agent_names() -> list[str]:
    """The agents offered to users."""
    return AGENTS.names()


def check_agent(name: str, *, public: bool = True) -> str:
    """`name` if it is a registered agent; else UnknownAgent with near names."""
    return AGENTS.check(name, public=public)


def make_agent(name: str, options: AgentOptions | None = None) -> Agent:
    """A new agent of that name, built from `options` (test-only agents included)."""
    return AGENTS.load(name)(options or AgentOptions())


def is_baseline(name: str) -> bool:
    """Whether the agent of that name is a reference (`baseline = True`, as random): the pipeline rolls it out only to
    measure how hard each task is."""
    return bool(getattr(AGENTS.load(name), "baseline", False))
