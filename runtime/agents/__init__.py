"""Agents: golden (the oracle), random, and LLM agents for OpenAI-compatible and Anthropic servers."""

from runtime.agents.base import Agent, AgentError, AgentFailed, AgentOptions
from runtime.agents.registry import AGENTS, UnknownAgent, agent_names, check_agent, is_baseline, make_agent

__all__ = ["AGENTS", "Agent", "AgentError", "AgentFailed", "AgentOptions", "UnknownAgent", "agent_names", "check_agent", "is_baseline", "make_agent"]
