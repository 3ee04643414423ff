"""Scaffold: render a running, contract-passing app package (list + detail + create over the first entity) from an AppSpec."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jinja2

from .spec import AppSpec, EntityField, EntitySpec

TEMPLATES = Path(__file__).parent / "scaffold"
CLOCK = "2026-03-02T09:00:00"

# The shared cast of every default seed (APPS.md): names and addresses a world builder can line up with.
_CAST = [
    ("Alex Morgan", "alex.morgan@northwind.example"), ("Priya Shah", "priya.shah@northwind.example"),
    ("Marcus Chen", "marcus.chen@northwind.example"), ("Elena Rossi", "elena.rossi@northwind.example"),
    ("Tom Becker", "tom.becker@northwind.example"), ("Sara Lind", "sara.lind@northwind.example"),
    ("Jordan Blake", "jordan@brightlineprint.example"), ("Mia Torres", "billing@cloudnest.example"),
    ("Sam Okafor", "sam@greenleafcatering.example"), ("Dana Whitfield", "dana@harbourfoods.example"),
]


class ScaffoldError(FileExistsError):
    """The scaffold's destination exists and is not empty."""


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _pytype(f: EntityField) -> str:
    base = {"str": "str", "text": "str", "email": "str", "int": "int", "float": "float", "bool": "bool",
            "date": "date", "datetime": "NaiveDatetime"}[f.type]
    return base if f.required or f.type in ("str", "text", "email", "int", "float", "bool") else f"{base} | None"


def _pydefault(f: EntityField) -> str:
    if f.type in ("str", "text", "email"):
        return "" if f.required else 'default="", '
    if f.type in ("int", "float", "bool"):
        return {"int": "default=0, ", "float": "default=0.0, ", "bool": "default=False, "}[f.type]
    return "" if f.required else "default=None, "


def _formtype(f: EntityField) -> str:
    return _pytype(f)


def _formdefault(f: EntityField) -> str:
    if f.type in ("str", "text", "email"):
        return "" if f.required else '""'
    if f.type in ("int", "float", "bool"):
        return {"int": "0", "float": "0.0", "bool": "False"}[f.type]
    return "" if f.required else "None"


def _widget(f: EntityField) -> str:
    label = f.name.replace("_", " ").capitalize()
    req = " required" if f.required and f.type != "bool" else ""
    if f.type == "text":
        control = f'<textarea id="{f.name}" name="{f.name}"{req}></textarea>'
    elif f.type == "bool":
        return f'<p><input type="checkbox" id="{f.name}" name="{f.name}" value="true"> <label for="{f.name}">{label}</label></p>'
    else:
        kind = {"str": "text", "email": "email", "int": "number", "float": "number", "date": "date", "datetime": "datetime-local"}[f.type]
        step = ' step="1"' if f.type == "int" else ' step="0.01"' if f.type == "float" else ""
        control = f'<input id="{f.name}" name="{f.name}" type="{kind}"{step}{req}>'
    return f'<label for="{f.name}">{label}</label>{control}'


def _cell(f: EntityField, var: str) -> str:
    """The Jinja expression that shows field `f` of record `var` in a page."""
    if f.type == "bool":
        return "{{ 'Yes' if %s.%s else 'No' }}" % (var, f.name)
    return "{{ %s.%s if %s.%s is not none else '' }}" % (var, f.name, var, f.name)


def _value(entity: EntitySpec, f: EntityField, i: int) -> Any:
    """A believable, deterministic value of field `f` in seed row `i`."""
    name, email = _CAST[i % len(_CAST)]
    if f.type == "email":
        return email
    if f.type in ("str", "text"):
        if "name" in f.name or f.name in ("person", "owner", "contact", "assignee"):
            return name
        if f is entity.label_field:
            return f"{entity.label} {i + 1}"
        return f"{f.name.replace('_', ' ').capitalize()} of {entity.label.lower()} {i + 1}"
    if f.type == "int":
        return (i * 7) % 10 + 1
    if f.type == "float":
        return round(50.0 + i * 37.25, 2)
    if f.type == "bool":
        return i % 3 == 0
    if f.type == "date":
        return f"2026-02-{(i * 3) % 27 + 1:02d}"
    return f"2026-02-{(i * 3) % 27 + 1:02d}T{9 + i % 8:02d}:00:00"


def seed_rows(entity: EntitySpec, count: int = 10) -> list[dict]:
    """`count` seed rows for `entity`, ids 1..count."""
    return [{"id": i + 1, **{f.name: _value(entity, f, i) for f in entity.fields}} for i in range(count)]


def form_sample(entity: EntitySpec) -> dict[str, str]:
    """Form data that creates one valid record (used by the scaffold's own test)."""
    sample = {"str": "Sample", "text": "Sample text", "email": "sample@northwind.example", "int": "3", "float": "12.50",
              "bool": "true", "date": "2026-03-03", "datetime": "2026-03-03T10:00"}
    return {f.name: sample[f.type] for f in entity.fields}


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        block_start_string="[%", block_end_string="%]", variable_start_string="[[", variable_end_string="]]",
        comment_start_string="[#", comment_end_string="#]",
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
    )
    env.filters.update(py=repr, camel=_camel, pytype=_pytype, pydefault=_pydefault, formtype=_formtype,
                       formdefault=_formdefault, widget=_widget, cell=_cell)
    return env


def scaffold(spec: AppSpec, dest: str | Path, *, seed_count: int = 10) -> Path:
    """Write the app package for `spec` into `dest` (created; must be absent or empty) and return it."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ScaffoldError(f"scaffold destination {dest} is not empty")
    env = _env()
    values = {"spec": spec, "e": spec.main, "form_sample": form_sample(spec.main)}
    for template in sorted(TEMPLATES.rglob("*.j2")):
        rel = template.relative_to(TEMPLATES).with_suffix("")
        if rel.name == "test_app.py":
            rel = rel.with_name(f"test_{spec.name}.py")
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(env.get_template(template.relative_to(TEMPLATES).as_posix()).render(**values))
    seed = {e.name: seed_rows(e, seed_count) for e in spec.entities}
    (dest / "seed.json").write_text(json.dumps({"clock": CLOCK, "seed": seed}, indent=1) + "\n")
    return dest


def copy_app(src: Path, dest: Path) -> Path:
    """Copy an app folder (without caches) to `dest`, replacing what was there."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc"))
    return dest
