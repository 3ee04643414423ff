"""LLM-written worlds pass the same integrity checks, through the real openai client and a scripted server."""

from __future__ import annotations

import json

import pytest

from factory.providers import ProviderError
from factory.providers.openai_provider import OpenAIProvider
from factory.worlds.builder import build_world
from factory.worlds.llm import generate_world
from tests.support.scripted_llm import ScriptedLLM


def _broken(world) -> str:
    doc = json.loads(world.model_dump_json())
    doc["invoices"][0]["vendor"] = "o404"
    doc["meetings"][0]["end"] = doc["meetings"][0]["start"]
    return json.dumps(doc)


def test_a_world_that_breaks_integrity_goes_back_with_its_problems_then_passes():
    good = build_world("kenji", "offsite", 9)
    with ScriptedLLM([_broken(good), "```json\n" + good.model_dump_json() + "\n```"]) as llm:
        provider = OpenAIProvider("m", base_url=llm.openai_base_url, api_key="test", backoff_s=0.01)
        world = generate_world(provider, "a freelance consultant", "planning an offsite")
        feedback = llm.requests[1].text()
    assert world.id == good.id and world.provenance == "llm:m"
    assert "vendor o404 does not exist" in feedback and "ends before it starts" in feedback


def test_a_model_that_never_fixes_its_world_is_a_provider_error():
    bad = _broken(build_world("rosa", "month_end", 1))
    with ScriptedLLM([bad, bad]) as llm:
        provider = OpenAIProvider("m", base_url=llm.openai_base_url, api_key="test", backoff_s=0.01)
        with pytest.raises(ProviderError, match="invalid_world"):
            generate_world(provider, "a baker", "month end", attempts=2)
