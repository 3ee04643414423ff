"""App synthesis by coding agents: spec -> scaffold -> agent loop on checker feedback -> registered app."""

from .agent import CodingSession, SynthesisConfig, SynthesisResult, synthesize_app
from .chat import AnthropicChat, OpenAIChat, ProviderNotConfigured, make_chat
from .cli_agent import CliChat, CodingAgentUnavailable, available_cli_agents
from .record import SessionLog, read_log
from .scaffold import ScaffoldError, scaffold, seed_rows
from .spec import AppSpec, EntityField, EntitySpec, SpecError, generate_spec, load_spec
from .tools import TOOL_NAMES, TOOL_SPECS, ToolResult, Workspace, report_text

__all__ = [
    "AnthropicChat",
    "AppSpec",
    "CliChat",
    "CodingAgentUnavailable",
    "CodingSession",
    "EntityField",
    "EntitySpec",
    "OpenAIChat",
    "ProviderNotConfigured",
    "ScaffoldError",
    "SessionLog",
    "SpecError",
    "SynthesisConfig",
    "SynthesisResult",
    "TOOL_NAMES",
    "TOOL_SPECS",
    "ToolResult",
    "Workspace",
    "available_cli_agents",
    "generate_spec",
    "load_spec",
    "make_chat",
    "read_log",
    "report_text",
    "scaffold",
    "seed_rows",
    "synthesize_app",
]
