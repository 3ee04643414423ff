"""Delegation to an installed coding-agent CLI (`claude -p`, `codex exec`) behind the same loop; absent -> said plainly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .chat import Call, Turn

# kind -> argv before the prompt; the CLI edits files in its working directory (the workspace).
COMMANDS: dict[str, list[str]] = {
    "claude": ["claude", "-p", "--permission-mode", "acceptEdits"],
    "codex": ["codex", "exec", "--full-auto"],
}


class CodingAgentUnavailable(RuntimeError):
    """The requested coding-agent CLI is not on PATH."""


def available_cli_agents() -> dict[str, str]:
    """Installed coding-agent CLIs: kind -> executable path (empty when none is installed)."""
    return {kind: path for kind, argv in COMMANDS.items() if (path := shutil.which(argv[0]))}


class CliChat:
    """A coding-agent CLI as a chat adapter: each step runs it once in the workspace; it edits files itself.

    It makes no tool calls through the loop, so every step ends in a checker verdict, fed back as the next prompt.
    """

    def __init__(self, kind: str, workspace: Path, timeout_s: float = 1800.0):
        if kind not in COMMANDS:
            raise CodingAgentUnavailable(f"unknown coding-agent CLI {kind!r}; known: {', '.join(COMMANDS)}")
        if shutil.which(COMMANDS[kind][0]) is None:
            raise CodingAgentUnavailable(
                f"the coding-agent CLI {COMMANDS[kind][0]!r} is not on PATH, so it cannot be used; install it, "
                "or use the built-in loop with --provider openai|anthropic")
        self.provider, self.model = f"{kind}-cli", kind
        self.workspace, self.timeout_s = Path(workspace), timeout_s
        self._prompt = ""

    def start(self, system: str, user: str) -> None:
        self._prompt = (f"{system}\n\n{user}\n\nThe app workspace (app.yaml and any extension folder) is the current "
                        "directory. Edit its files directly.")

    def step(self) -> Turn:
        argv = [*COMMANDS[self.model], self._prompt]
        try:
            done = subprocess.run(argv, cwd=self.workspace, capture_output=True, text=True, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            return Turn(text=f"({self.model} ran past {self.timeout_s:.0f}s and was stopped)", calls=())
        return Turn(text=(done.stdout + done.stderr)[-4000:], calls=(), stop=f"exit {done.returncode}")

    def add_results(self, results: list[tuple[Call, str, bool]]) -> None:
        return None

    def add_user(self, text: str) -> None:
        self._prompt = text

    def close(self) -> None:
        return None
