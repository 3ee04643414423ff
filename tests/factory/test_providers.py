"""Providers: the real openai/anthropic SDK clients against the scripted loopback server, and the offline ones."""

from __future__ import annotations

import time

import pytest
from pydantic import BaseModel, Field

from factory.providers import (
    ProviderError,
    ScriptedProvider,
    TemplateProvider,
    TemplateRef,
    UnknownProviderError,
    default_provider_name,
    extract_json,
    get_provider,
    register_template,
)
from tests.support.scripted_llm import Reply, ScriptedLLM


class Plan(BaseModel):
    title: str
    steps: list[str] = Field(min_length=1)


VALID = '{"title": "Pay invoice", "steps": ["open bank", "pay"]}'
MESSAGES = [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Plan paying INV-2041."}]


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(params=["openai", "anthropic"])
def make(request, llm):
    """A factory for the provider under test, pointed at the scripted server, with fast backoff."""
    base = llm.openai_base_url if request.param == "openai" else llm.anthropic_base_url

    def build(**options):
        llm.requests.clear()
        return get_provider(request.param, model="m", base_url=base, api_key="test", backoff_s=0.01, **options)

    yield build
    assert llm.pending() == 0, "the test left scripted replies unused"


def test_generate_sends_messages_and_returns_text(make, llm):
    llm.push("hello there")
    provider = make()
    assert provider.generate(MESSAGES) == "hello there"
    assert "Plan paying INV-2041." in llm.requests[0].text() and "You plan." in llm.requests[0].text()
    assert llm.requests[0].body["model"] == "m"


def test_structured_valid_reply_in_a_json_fence(make, llm):
    llm.push(f"Here it is:\n```json\n{VALID}\n```")
    plan = make().structured(MESSAGES, Plan)
    assert plan == Plan(title="Pay invoice", steps=["open bank", "pay"])
    assert '"steps"' in llm.requests[0].text()  # the schema went with the request


def test_structured_malformed_then_corrected_sends_the_error_back(make, llm):
    llm.push('{"title": "Pay invoice", "steps": []}', VALID)
    plan = make().structured(MESSAGES, Plan)
    assert plan.steps == ["open bank", "pay"]
    assert len(llm.requests) == 2
    second = llm.requests[1].text()
    assert "invalid" in second and "steps" in second and "at least 1 item" in second


def test_structured_garbage_three_times_is_a_provider_error(make, llm):
    llm.push("no json", "still none", "{broken")
    with pytest.raises(ProviderError) as info:
        make().structured(MESSAGES, Plan)
    assert info.value.reason == "invalid_output" and "3 attempts" in str(info.value)
    assert len(llm.requests) == 3


def test_server_timeout_is_a_provider_error(make, llm):
    llm.push(lambda request: (time.sleep(1.5), "late")[1])
    start = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(timeout_s=0.3).generate(MESSAGES)
    assert info.value.reason == "timeout"
    assert time.monotonic() - start < 1.4


def test_500_then_200_is_retried(make, llm):
    llm.push(Reply(status=500, text="boom"), Reply(status=429, text="slow down"), "ok now")
    assert make().generate(MESSAGES) == "ok now"
    assert len(llm.requests) == 3


def test_retries_are_bounded_and_4xx_is_not_retried(make, llm):
    llm.push(*[Reply(status=503, text="down")] * 3)
    with pytest.raises(ProviderError) as info:
        make(retries=2).generate(MESSAGES)
    assert info.value.reason == "http_503" and len(llm.requests) == 3
    llm.push(Reply(status=400, text="bad request"))
    with pytest.raises(ProviderError) as info:
        make().generate(MESSAGES)
    assert info.value.reason == "http_400" and len(llm.requests) == 1


def test_connection_refused_is_a_provider_error():
    provider = get_provider("openai", base_url="http://127.0.0.1:9/v1", api_key="x", retries=1, backoff_s=0.01)
    with pytest.raises(ProviderError) as info:
        provider.generate(MESSAGES)
    assert info.value.reason == "connection"


def test_extract_json_reads_fences_bare_and_embedded_objects():
    assert extract_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('{"a": 2}') == {"a": 2}
    assert extract_json('Sure! {"a": 3} Hope that helps.') == {"a": 3}


def test_template_provider_renders_fields_deterministically():
    provider = TemplateProvider({"plan": {"title": "Pay {{ invoice }}", "steps": ["open {{ app }}", "pay {{ amount|pyrepr }}"]}})
    ref = TemplateRef(name="plan", facts={"invoice": "INV-2041", "app": "bank", "amount": 1240.0})
    first = provider.structured([], Plan, template=ref)
    assert first == Plan(title="Pay INV-2041", steps=["open bank", "pay 1240.0"])
    assert provider.structured([], Plan, template=ref) == first


def test_template_provider_json_string_template_and_global_registry():
    register_template("test.plan_json", '{"title": {{ title|tojson }}, "steps": ["one"]}')
    plan = TemplateProvider().structured([], Plan, template=TemplateRef(name="test.plan_json", facts={"title": 'say "hi"'}))
    assert plan.title == 'say "hi"'


@pytest.mark.parametrize(
    ("ref", "reason"),
    [
        (TemplateRef(name="plna", facts={}), "unknown_template"),
        (TemplateRef(name="plan", facts={}), "missing_fact"),
        (TemplateRef(name="empty", facts={}), "invalid_output"),
        (None, "no_template"),
    ],
)
def test_template_provider_errors_are_typed(ref, reason):
    provider = TemplateProvider({"plan": {"title": "{{ invoice }}", "steps": ["x"]}, "empty": {"title": "t", "steps": []}})
    with pytest.raises(ProviderError) as info:
        provider.structured([], Plan, template=ref)
    assert info.value.reason == reason
    if reason == "unknown_template":
        assert "did you mean plan" in str(info.value)


def test_scripted_provider_plays_back_and_retries_structured():
    provider = ScriptedProvider(["nope", VALID])
    assert provider.structured(MESSAGES, Plan).title == "Pay invoice"
    assert "invalid" in provider.calls[1][-1].content
    with pytest.raises(ProviderError) as info:
        provider.generate(MESSAGES)
    assert info.value.reason == "exhausted"


def test_registry_suggests_near_names():
    with pytest.raises(UnknownProviderError) as info:
        get_provider("antropic")
    assert "did you mean anthropic?" in str(info.value)


def test_default_provider_follows_the_environment(monkeypatch):
    for var in ("GYMFACTORY_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    assert default_provider_name() == "template"
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert default_provider_name() == "openai"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert default_provider_name() == "anthropic"
    monkeypatch.setenv("GYMFACTORY_PROVIDER", "scripted")
    assert default_provider_name() == "scripted"


def test_a_response_marked_do_not_retry_is_not_retried(make, llm):
    provider = make()  # the scripted server answers an exhausted script with 500 + x-should-retry: false
    with pytest.raises(ProviderError) as info:
        provider.generate(MESSAGES)
    assert info.value.reason == "http_500" and "script exhausted" in str(info.value)
    assert len(llm.requests) == 1
