"""Shared pieces of the app-synthesis tests: a brief, a temporary GYMFACTORY_HOME, one Chromium, a raw-arguments LLM."""

from __future__ import annotations

import json

import pytest

from factory.apps import AppSpec
from tests.support.scripted_llm import ScriptedLLM

SPEC = {
    "name": "contacts_book", "title": "Contacts Book", "category": "crm", "imitates": "Google Contacts", "icon": "📇",
    "description": "An address book of the people Northwind Studio works with.",
    "entities": [{"name": "contact", "title": "Contact", "fields": [
        {"name": "full_name", "type": "str", "description": "Display name"},
        {"name": "email", "type": "email", "description": "Email address"},
        {"name": "company", "type": "str", "required": False, "description": "Organisation"},
        {"name": "notes", "type": "text", "required": False, "description": "Free notes"},
        {"name": "favourite", "type": "bool", "description": "Starred"},
        {"name": "birthday", "type": "date", "required": False, "description": "Birthday"}]}],
    "screens": ["all contacts", "contact detail", "new contact"],
    "flows": ["add a contact", "delete a contact"],
}
CHECK = {"max_pages": 8, "controls_budget_s": 15.0}


def spec(name: str = "contacts_book") -> AppSpec:
    return AppSpec.model_validate({**SPEC, "name": name})


class RawArgsLLM(ScriptedLLM):
    """ScriptedLLM whose OpenAI tool calls may carry raw argument text: ToolCall(name, {"__raw__": "{bad"})."""

    def _openai(self, reply, body):
        payload = super()._openai(reply, body)
        for call in payload["choices"][0]["message"].get("tool_calls", []):
            args = json.loads(call["function"]["arguments"])
            if isinstance(args, dict) and "__raw__" in args:
                call["function"]["arguments"] = args["__raw__"]
        return payload


@pytest.fixture(scope="package")  # closed after this folder: a live sync Playwright blocks asyncio elsewhere
def browser():
    from playwright.sync_api import sync_playwright

    from mocked_apps.kit.browser import launch_chromium

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def gym_home(tmp_path_factory):
    """A temporary GYMFACTORY_HOME for the whole module (apps get registered there)."""
    mp = pytest.MonkeyPatch()
    path = tmp_path_factory.mktemp("gymhome")
    mp.setenv("GYMFACTORY_HOME", str(path))
    yield path
    mp.undo()
