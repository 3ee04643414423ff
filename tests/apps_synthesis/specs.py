"""The specs a scripted coding model writes in the session tests: one the checker rejects, and its fix with an extension."""

from __future__ import annotations

import yaml


def contacts_spec(name: str, fee_type: str = "money", extension: bool = True) -> str:
    """The contacts app as a spec: a state machine, a create form, a computed fee; `fee_type: text` breaks its formula
    (every detail page answers 500, which the checker finds); `extension` adds a custom summary page."""
    spec = {
        "name": name, "title": "Contacts Book", "category": "crm", "icon": "📇",
        "description": "An address book of the people Northwind Studio works with.",
        "entities": {"contact": {
            "title": "full_name", "subtitle": "company", "rows": 12,
            "fields": {"full_name": {"label": "Full name", "sample": "name", "unique": True},
                       "email": {"type": "email"}, "company": {"sample": "company", "required": False},
                       "fee": {"type": fee_type, "label": "Monthly fee", "sample": [20, 200] if fee_type == "money" else "word"}},
            "states": ["active", "archived"],
            "transitions": {"archive": {"from": ["active"], "to": "archived", "confirm": True, "label": "Archive contact"},
                            "restore": {"from": ["archived"], "to": "active", "label": "Restore contact"}},
            "computed": {"Fee with tax": "fee * 1.2"},
            "create": ["full_name", "email", "company", "fee"]}},
        "pages": [{"archetype": "table", "entity": "contact", "title": "Contacts"}],
    }
    if extension:
        spec["extension"] = "ext"
        spec["pages"].append({"archetype": "custom", "path": "/summary", "title": "Summary"})
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True)


SUMMARY_ROUTES = '''
from sqlalchemy import func
from sqlmodel import select

from mocked_apps.kit.archetypes.common import render
from mocked_apps.kit.context import GymDep


def mount(app, router):
    contact = app.model("contact")

    @router.get("/summary")
    def summary(gym: GymDep):
        counts = dict(gym.db.exec(select(contact.status, func.count()).group_by(contact.status)).all())
        return render(app, gym, "summary.html", "Summary", counts=counts)
'''

SUMMARY_TEMPLATE = """{% extends "arch/layout.html" %}
{% block content %}<h1>{{ page_heading }}</h1>
<dl>{% for state, n in counts.items() %}<dt>{{ state|capitalize }}</dt><dd>{{ n }} contacts</dd>{% endfor %}</dl>
<p><a href="{{ url('/contact') }}">All contacts</a></p>{% endblock %}
"""
