"""An LLM writes golden and verifier code from requirements, in two separate conversations.

The verifier's author sees the requirements and the apps' state schemas, never the golden code;
the golden author sees the requirements, the apps' pages and the golden action API. Each reply
must parse and define its entry point; a bad reply goes back with the error, a bounded number
of times, then the task is recorded as a synthesis failure (ProviderError), never a crash.
"""

from __future__ import annotations

import ast
import inspect
import json
import re

from factory.providers.base import Provider, ProviderError
from mocked_apps.kit import load_package
from mocked_apps.kit.answers import VERIFIER_SOURCE
from mocked_apps.registry import resolve

from contracts.family import Family, Requirements

_FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.S)


def extract_code(reply: str, entry: str) -> str:
    """The Python source in a reply (the last fenced block, else the whole reply), checked to define `entry`."""
    blocks = _FENCE.findall(reply)
    source = (blocks[-1] if blocks else reply).strip() + "\n"
    tree = ast.parse(source)  # SyntaxError goes back to the model
    if not any(isinstance(n, ast.FunctionDef) and n.name == entry for n in tree.body):
        raise ValueError(f"the code must define a top-level function `{entry}`")
    return source


_MATCHER_API = (
    "`answer_matches(text, kind, expected, today=None, others=(), currency=None)` -> {'right': bool, 'only': bool}, "
    "kind one of 'date' (expected ISO; pass today=date(...) of the task's clock given above, written as a literal: never "
    "date.today(), so the verdict is the same wherever the verifier runs), 'time' ('HH:MM'), 'amount', "
    "'count', 'name', 'text' (others: the other candidates); 'right' when the answer gives the value in any form a person "
    "writes, 'only' when it names no other candidate (a hedge or a list is no answer)."
)


def with_matcher(verifier: str) -> str:
    """The verifier with the kit's answer matcher inlined when it calls it (the confined child imports nothing)."""
    uses = re.search(r"\b(answer_matches|is_answer|answer_values)\s*\(", verifier)
    return VERIFIER_SOURCE + verifier if uses and VERIFIER_SOURCE not in verifier else verifier


def _requirements_text(req: Requirements) -> str:
    criteria = "\n".join(f"- {c.id} (weight {c.weight}, {'required' if c.required else 'optional'}): {c.description}" for c in req.criteria)
    clock = f"The task's clock (the apps' now): {req.clock.isoformat()}\n\n" if req.clock else ""
    return (f"{clock}Instruction given to the agent: {req.instruction}\n\nHidden answer context (ground truth):\n"
            f"{json.dumps(req.answer_context, indent=2, default=str)}\n\nCriteria:\n{criteria}")


def _schemas(apps: tuple[str, ...]) -> str:
    parts = []
    for app in apps:
        manifest = load_package(resolve(app)).full_manifest()
        tables = {name: {k: v.get("description", v.get("type", "")) for k, v in schema.get("properties", {}).items()}
                  for name, schema in manifest.entities.items()}
        parts.append(f"App {app!r} state tables (field: meaning):\n{json.dumps(tables, indent=1)}")
    return "\n\n".join(parts)


def _pages(apps: tuple[str, ...]) -> str:
    parts = []
    for app in apps:
        manifest = load_package(resolve(app)).manifest
        pages = "\n".join(f"  {p.path}: {p.title} - {p.description}" for p in manifest.pages)
        parts.append(f"App {app!r} (launcher title {manifest.title!r}):\n{pages}")
    return "\n".join(parts)


def _golden_api() -> str:
    from runtime.golden import GoldenEnv

    lines = []
    for name, fn in vars(GoldenEnv).items():
        if callable(fn) and not name.startswith("_"):
            lines.append(f"env.{name}{inspect.signature(fn)}".replace("(self, ", "(").replace("(self)", "()") + f"  # {inspect.getdoc(fn)}")
    return "\n".join(lines)


class LLMAuthor:
    """Golden and verifier code from a provider; two independent generations per task."""

    def __init__(self, provider: Provider, attempts: int = 3):
        self.provider = provider
        self.attempts = attempts
        self.name = f"llm:{getattr(provider, 'model', provider.name)}"

    def golden(self, family: Family, req: Requirements) -> str:
        prompt = (
            "Write golden code that completes this task in web apps, like a careful person would.\n\n"
            f"{_requirements_text(req)}\n\nApps and their pages:\n{_pages(req.apps)}\n\n"
            f"Define `def solve(env):` using only this API (elements are found by their accessible name, as a person reads them):\n{_golden_api()}\n\n"
            "Multi-app sessions start on a launcher: call env.open_app(<launcher title>) before using an app. "
            "Reply with one ```python block."
        )
        return self._code(prompt, "solve")

    def verifier(self, family: Family, req: Requirements) -> str:
        prompt = (
            "Write a verifier for this task. It reads data only, never the page.\n\n"
            f"{_requirements_text(req)}\n\n{_schemas(req.apps)}\n\n"
            "Define `def verify(final):` returning a dict {criterion_id: bool} with exactly the criteria ids above. "
            "final.state[app][table] and final.initial_state[app][table] are lists of row dicts sorted by primary key; "
            "final.answer is the agent's final answer text or None; final.files maps workspace paths to text. "
            "Compare against the initial state so the verifier is false before the task is done. "
            f"To judge an answer text, call the kit's answer matcher, which is defined for you: {_MATCHER_API} "
            "Use only the standard library; no network, no files. Reply with one ```python block."
        )
        return with_matcher(self._code(prompt, "verify"))

    def _code(self, prompt: str, entry: str) -> str:
        messages = [{"role": "user", "content": prompt}]
        last = ""
        for _ in range(self.attempts):
            reply = self.provider.generate(messages)
            try:
                return extract_code(reply, entry)
            except (SyntaxError, ValueError) as err:
                last = f"{type(err).__name__}: {err}"
                messages += [{"role": "assistant", "content": reply},
                             {"role": "user", "content": f"That code is not usable ({last}). Reply with corrected code in one ```python block."}]
        raise ProviderError(self.provider.name, "bad_code", last)
