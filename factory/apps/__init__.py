"""App synthesis by coding agents: brief -> draft app spec -> agent loop on compiler and checker feedback -> registered
spec (its task families derived from it)."""

from .agent import CodingSession, SynthesisConfig, SynthesisResult, synthesize_app
from .chat import AnthropicChat, OpenAIChat, ProviderNotConfigured, make_chat
from .cli_agent import CliChat, CodingAgentUnavailable, available_cli_agents
from .record import SessionLog, read_log
from .draft import SPEC_FILE, draft_spec, write_draft
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
    "SPEC_FILE",
    "SessionLog",
    "SpecError",
    "SynthesisConfig",
    "SynthesisResult",
    "TOOL_NAMES",
    "TOOL_SPECS",
    "ToolResult",
    "Workspace",
    "available_cli_agents",
    "draft_spec",
    "generate_spec",
    "load_spec",
    "make_chat",
    "read_log",
    "report_text",
    "synthesize_app",
    "write_draft",
]
