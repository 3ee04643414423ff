"""The first draft of an app: the brief (`spec.AppSpec`) written as a kit app spec (YAML) that compiles and passes the
contract checker, so a session starts from a running app. Without a coding model (the template provider) the draft is
the app; with one, the model grows it (states and transitions, more pages, an extension where a spec cannot say it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mocked_apps.kit.spec import AppSpec as KitSpec
from mocked_apps.kit.spec.write import dump_spec

from .spec import AppSpec, EntityField, EntitySpec

SPEC_FILE = "app.yaml"
"""The workspace's spec file; the app's registry name is the spec's `name`."""

_TYPES = {"str": "text", "text": "longtext", "email": "email", "int": "int", "float": "number", "bool": "bool",
          "date": "date", "datetime": "datetime"}
_SAMPLES = {"name": "name", "full_name": "name", "person": "name", "company": "company", "organisation": "company",
            "organization": "company", "city": "city", "address": "address", "title": "title", "subject": "title",
            "notes": "sentence", "description": "sentence", "phone": "phone", "job": "job"}


def _sample(f: EntityField, is_title: bool):
    """A believable sample rule for a brief's field, by its name and type (the title gets distinct values)."""
    if f.type in ("int", "float"):
        return [1, 40] if f.type == "int" else [5, 500]
    if f.type in ("date", "datetime"):
        return [-30, 30]
    if f.type in ("bool", "email"):
        return None
    return _SAMPLES.get(f.name, "words" if is_title or f.type == "str" else "sentence")


def _entity(e: EntitySpec) -> dict:
    title = e.label_field.name
    fields = {}
    for f in e.fields:
        body: dict = {"type": _TYPES[f.type], "required": f.required, "label": f.name.replace("_", " ").capitalize()}
        sample = _sample(f, f.name == title)
        if sample is not None:
            body["sample"] = sample
        if f.name == title:
            body["unique"] = True
        fields[f.name] = body
    return {"label": e.label, "title": title, "fields": fields, "create": [f.name for f in e.fields], "rows": 14}


def draft_spec(brief: AppSpec) -> KitSpec:
    """The brief as a kit spec: its entities with typed fields and sample data, a table page and a create form each."""
    return KitSpec.model_validate({
        "name": brief.name, "title": brief.title, "category": brief.category, "icon": brief.icon,
        "description": brief.description or f"{brief.title}: {brief.category}.",
        "entities": {e.name: _entity(e) for e in brief.entities},
        "pages": [{"archetype": "table", "entity": e.name} for e in brief.entities],
    })


def write_draft(brief: AppSpec, root: Path) -> Path:
    """A new workspace folder holding the draft spec; its path. The folder must not hold anything yet."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} exists and is not empty")
    root.mkdir(parents=True, exist_ok=True)
    path = root / SPEC_FILE
    path.write_text(dump_spec(draft_spec(brief)))
    return path


def copy_app(src: Path, dest: Path) -> Path:
    """Copy an app workspace (the spec and its extension) to `dest` (replacing it), without caches."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache"))
    return dest


__all__ = ["SPEC_FILE", "copy_app", "draft_spec", "write_draft"]
