"""Formulas of a spec (computed fields, guards, effects): arithmetic and comparisons over a row's fields.

A formula is parsed with Python's `ast` and evaluated over a whitelist of node types, so a spec
(written by a person, a template or an LLM) can never run code.
"""

from __future__ import annotations

import ast
import operator
from typing import Any

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_CMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq,
        ast.NotEq: operator.ne}
_FUNCS = {"round": round, "min": min, "max": max, "abs": abs}


class FormulaError(ValueError):
    """A formula uses something other than fields, numbers, strings, + - * /, comparisons, and/or/not, round/min/max/abs."""


def names(formula: str) -> set[str]:
    """The field names a formula reads."""
    return {n.id for n in ast.walk(_parse(formula)) if isinstance(n, ast.Name) and n.id not in _FUNCS}


def evaluate(formula: str, row: dict[str, Any]) -> Any:
    """The formula's value over `row` (None fields count as 0)."""
    return _eval(_parse(formula).body, row)


def _parse(formula: str) -> ast.Expression:
    try:
        return ast.parse(formula, mode="eval")
    except SyntaxError as err:
        raise FormulaError(f"formula {formula!r}: {err.msg}") from None


def _eval(node: ast.AST, row: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in row:
            raise FormulaError(f"unknown field {node.id!r}")
        value = row[node.id]
        return 0 if value is None else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        left, right = _eval(node.left, row), _eval(node.right, row)
        if isinstance(node.op, ast.Div) and right == 0:
            return 0
        return _BIN[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        value = _eval(node.operand, row)
        return -value if isinstance(node.op, ast.USub) else not value
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP:
        return _CMP[type(node.ops[0])](_eval(node.left, row), _eval(node.comparators[0], row))
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, row) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS and not node.keywords:
        return _FUNCS[node.func.id](*(_eval(a, row) for a in node.args))
    raise FormulaError(f"not allowed in a formula: {ast.dump(node)[:60]}")


__all__ = ["FormulaError", "evaluate", "names"]
