"""Review of a validated task: deterministic rule checks, plus three LLM votes when a model is available.

Rules (always; they are cheap and objective): the expected answer does not leak into the
instruction; the instruction reads like a sentence; every criterion is described; the verifier
reads data (`final.state`, `.answer` or `.files`) and the verifier/golden code imports nothing
forbidden; golden code defines `solve(env)`. With an LLM provider, three votes on clarity, feasibility and reward-hacking risk
follow, and the majority decides. The template provider has no judgement, so rules alone decide.
Review fails closed: a task needs a strict majority of the three votes asked for, so a vote that
could not be had (provider error, a reply that never matched the schema) counts against it, and
with no valid vote at all the task is dropped.
"""

from __future__ import annotations

import ast
import json
import re
from datetime import date
from typing import Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from factory.providers.base import Message, Provider, ProviderError
from contracts.task import Task
from mocked_apps.kit.answers import VERIFIER_SOURCE

FORBIDDEN_MODULES = frozenset(
    {"socket", "subprocess", "requests", "playwright", "httpx", "urllib", "http", "ctypes", "multiprocessing",
     "pty", "asyncio", "selenium", "aiohttp", "ftplib", "smtplib", "telnetlib", "webbrowser", "sqlite3", "dbm",
     "shutil", "tempfile", "cffi"}
)
FORBIDDEN_OS_CALLS = frozenset({"system", "popen", "fork", "forkpty", "kill", "killpg", "posix_spawn", "posix_spawnp"})
_VOTES = 3
_FINAL_DATA = frozenset({"state", "answer", "files"})
_MATCHERS = frozenset({"answer_matches", "is_answer", "answer_values"})


class Vote(BaseModel):
    """One reviewer's judgement of a task."""

    model_config = ConfigDict(frozen=True)

    clear: bool = Field(description="The instruction says unambiguously what to do and what counts as done.")
    feasible: bool = Field(description="An agent can complete it in the given apps with the seeded data.")
    hackable: bool = Field(description="The verifier could pass without really doing the task (reward-hacking risk).")
    reason: str = Field(description="One or two sentences explaining the judgement.")

    @property
    def accepts(self) -> bool:
        return self.clear and self.feasible and not self.hackable


class ReviewResult(BaseModel):
    """Whether a task passed review, and why (rule findings and each vote's reason)."""

    model_config = ConfigDict(frozen=True)

    accepted: bool
    reasons: tuple[str, ...] = Field(default=(), description="Rule findings ('code: detail') and vote reasons.")
    votes: tuple[Vote, ...] = ()
    method: Literal["rules", "llm"] = "rules"
    error: str | None = Field(default=None, description="The review could not finish (provider failure).")


def review(task: Task, provider: Provider | None = None) -> ReviewResult:
    """Rule checks, then (with an LLM provider) a majority of three votes."""
    findings = tuple(rule_findings(task))
    if provider is None or provider.name == "template" or findings:
        return ReviewResult(accepted=not findings, reasons=findings, method="rules")
    votes: list[Vote] = []
    for index in range(_VOTES):
        try:
            votes.append(provider.structured(_vote_prompt(task, index), Vote))
        except ProviderError as exc:
            return ReviewResult(accepted=False, reasons=(f"review_error: {exc}",), votes=tuple(votes), method="llm", error=str(exc))
    accepted = sum(v.accepts for v in votes) * 2 > _VOTES  # a majority of the votes asked for, not of those given
    reasons = tuple(f"vote {i + 1} {'accepts' if v.accepts else 'rejects'}: {v.reason}" for i, v in enumerate(votes))
    return ReviewResult(accepted=accepted, reasons=reasons, votes=tuple(votes), method="llm")


def rule_findings(task: Task) -> Iterator[str]:
    """Every deterministic rule the task breaks, as 'code: detail'."""
    yield from _instruction_findings(task)
    for criterion in task.criteria:
        if len(criterion.description.split()) < 2:
            yield f"criterion_undescribed: criterion {criterion.id!r} has no real description"
    yield from _code_findings(task.verifier, "verifier", entry="verify")
    yield from _code_findings(task.golden, "golden", entry="solve")


def _instruction_findings(task: Task) -> Iterator[str]:
    text = task.instruction.strip()
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
    if len(words) < 3 or not text[0].isupper() and not text[0].isdigit():
        yield f"instruction_not_a_sentence: {text[:80]!r}"
    if re.search(r"\{\{|\}\}|\{%|%\}|\bNone\b|\bTODO\b", text):
        yield f"instruction_unrendered: {text[:80]!r}"
    lowered = text.lower()
    for value in _expected_answers(task):
        if any(form.lower() in lowered for form in _forms(value)):
            yield f"answer_in_instruction: the expected answer {value!r} appears in the instruction"


def _expected_answers(task: Task) -> list[Any]:
    """The hidden answer: answer_context values the verifier holds as literals, when it reads final.answer.

    answer_context also carries the task's parameters (the amount to move, the note to pin), which
    the instruction must state; only what the agent has to find out and answer is hidden. A task
    that writes a looked-up value into the state is left to the LLM vote.
    """
    try:
        tree = ast.parse(task.verifier)
    except SyntaxError:
        return []
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "verify" and n.args.args), None)
    if fn is None or "answer" not in _fields_read(fn, fn.args.args[0].arg):
        return []
    literals = {n.value for n in ast.walk(_without_matcher(tree)) if isinstance(n, ast.Constant) and not isinstance(n.value, bool)}
    return [v for v in _hidden_values(task.answer_context) if v in literals]


def _without_matcher(tree: ast.Module) -> ast.Module:
    """The verifier less the kit's answer matcher it inlines, and less the kinds it asks the matcher for
    (`answer_matches(text, "date", ...)`): words of the shared matcher, not values of this task."""
    shared = {ast.dump(node) for node in ast.parse(VERIFIER_SOURCE).body}
    tree = ast.Module(body=[node for node in tree.body if ast.dump(node) not in shared], type_ignores=[])
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in _MATCHERS and len(node.args) >= 2:
            node.args[1] = ast.Name(id="_kind", ctx=ast.Load())
    return tree


def _hidden_values(context: Any) -> Iterator[Any]:
    """Leaf values of answer_context worth hiding (not booleans, not tiny strings or numbers)."""
    if isinstance(context, dict):
        for value in context.values():
            yield from _hidden_values(value)
    elif isinstance(context, (list, tuple)):
        for value in context:
            yield from _hidden_values(value)
    elif isinstance(context, str) and len(context.strip()) >= 3:
        yield context.strip()
    elif isinstance(context, (int, float)) and not isinstance(context, bool) and abs(context) >= 10:
        yield context


def _forms(value: Any) -> set[str]:
    """How a hidden value could be written: 1240.5 -> '1,240.50', ...; '2026-03-25' -> 'March 25, 2026', ..."""
    if isinstance(value, str):
        try:
            day = date.fromisoformat(value)
        except ValueError:
            return {value}
        month = day.strftime("%B")
        return {value, f"{month} {day.day}, {day.year}", f"{day.day} {month} {day.year}", f"{month} {day.day}",
                f"{month[:3]} {day.day}", f"{day.day} {month}"}
    forms = {str(value), f"{value:,}"}
    if isinstance(value, float):
        forms |= {f"{value:.2f}", f"{value:,.2f}"}
        if value.is_integer():
            forms |= {str(int(value)), f"{int(value):,}"}
    return forms


def _code_findings(source: str, label: str, *, entry: str) -> Iterator[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        yield f"{label}_syntax: line {exc.lineno}: {exc.msg}"
        return
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fn = functions.get(entry)
    if fn is None or len(fn.args.args) != 1:
        yield f"{label}_no_entry: {label} code must define {entry}({'final' if entry == 'verify' else 'env'}) at top level"
    for node in ast.walk(tree):
        for module in _imported(node):
            if module.partition(".")[0] in FORBIDDEN_MODULES:
                yield f"{label}_forbidden_import: {module}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os":
            if node.attr in FORBIDDEN_OS_CALLS or node.attr.startswith(("exec", "spawn")):
                yield f"{label}_forbidden_call: os.{node.attr}"
    if entry == "verify" and fn is not None and fn.args.args and not _reads_through(functions, fn, fn.args.args[0].arg) & _FINAL_DATA:
        yield "verifier_reads_no_state: verify() never reads final.state, final.answer or final.files"


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("__import__", "import_module"):
            return [node.args[0].value]
    return []


def _reads_through(functions: dict[str, ast.AST], fn: ast.AST, param: str, seen: frozenset = frozenset()) -> set[str]:
    """Fields of `param` read by `fn` or by the top-level helpers it passes `param` to (`_paid(final)`)."""
    fields = _fields_read(fn, param)
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions and node.func.id not in seen:
            helper = functions[node.func.id]
            for position, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id == param and position < len(helper.args.args):
                    fields |= _reads_through(functions, helper, helper.args.args[position].arg, seen | {node.func.id})
    return fields


def _fields_read(fn: ast.AST, param: str) -> set[str]:
    """Which fields of `param` `fn` reads, as `param.x` or `param['x']`."""
    fields = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == param:
            fields.add(node.attr)
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            fields.add(node.slice.value)
    return fields


def _vote_prompt(task: Task, index: int) -> list[Message]:
    shown = {
        "apps": list(task.apps),
        "instruction": task.instruction,
        "answer_context (hidden from the agent)": task.answer_context,
        "criteria": [c.model_dump() for c in task.criteria],
        "verifier": task.verifier,
    }
    return [
        Message(role="system", content=(
            "You review tasks for training GUI agents. Judge: is the instruction clear; is the task feasible "
            "in the named apps; could the verifier be satisfied without really doing the task (reward hacking)?"
        )),
        Message(role="user", content=f"Reviewer {index + 1} of {_VOTES}. Task:\n{json.dumps(shown, indent=1, default=str)}"),
    ]
