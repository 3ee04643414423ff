"""The openai and anthropic agents, through the real SDK clients, against the scripted loopback server."""

from __future__ import annotations

import base64

import pytest

from runtime.agents import AgentError, AgentOptions, UnknownAgent, check_agent, make_agent
from runtime.harness import Harness
from runtime.observation import Observation
from tests.support.scripted_llm import Reply, ScriptedLLM, ToolCall

PNG = b"\x89PNG\r\n\x1a\n scripted screenshot"
AXTREE = '[1] link "Inbox" current\n[2] button "Compose"\nheading "Invoice INV-2041" level=1'


class _Images:
    def get(self, key: str) -> bytes:
        return PNG + key.encode()


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


def _episode(agent, replies: list[str]) -> Harness:
    """Drive the agent through the harness over fixed observations until it answers."""
    harness = Harness("Open the invoice", vision=agent.vision, images=_Images())
    for step in range(len(replies)):
        obs = Observation(step=step, url=f"http://127.0.0.1/i/abc/{step}", axtree=AXTREE, screenshot=f"shot-{step}.png")
        turn = harness.record(obs, agent.act(harness.prompt(obs), obs))
        if turn.action and turn.action.startswith("answer("):
            break
    return harness


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_agent_completes_a_scripted_episode_with_axtree_and_images(llm, name):
    replies = ["The compose button is [2].\nclick(2)", "oops, no action here", 'answer("INV-2041")']
    llm.push(*replies)
    before = len(llm.requests)
    base_url = llm.openai_base_url if name == "openai" else llm.anthropic_base_url
    agent = make_agent(name, AgentOptions(model="scripted-model", base_url=base_url, api_key="test-key", vision=True))
    try:
        harness = _episode(agent, replies)
    finally:
        agent.close()
    requests = llm.requests[before:]
    assert [t.action for t in harness.turns] == ["click(2)", None, "answer('INV-2041')"]
    assert len(requests) == 3 and {r.api for r in requests} == {name}
    first, last = requests[0], requests[-1]
    assert first.body["model"] == "scripted-model"
    assert '[2] button Compose' in first.text() and "Open the invoice" in first.text()
    images = first.images()
    assert len(images) == 1 and base64.b64decode(images[0].split(",")[-1]) == PNG + b"shot-0.png"
    assert "not a valid action" in last.text()  # the parse error came back as feedback
    assert len(last.images()) == 3  # the window keeps every screenshot so far
    assert "test-key" in (first.headers.get("x-api-key") or first.headers.get("authorization", ""))


def test_text_only_agent_sends_no_images(llm):
    llm.push("click(1)")
    agent = make_agent("openai", AgentOptions(model="m", base_url=llm.openai_base_url, api_key="k", vision=False))
    _episode(agent, ["click(1)"])
    assert llm.requests[-1].images() == [] and "[1] link" in llm.requests[-1].text()


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_server_errors_are_agent_errors_not_crashes(llm, name):
    llm.push(*[Reply(status=500, text="boom")] * 3)  # the SDKs retry twice
    base_url = llm.openai_base_url if name == "openai" else llm.anthropic_base_url
    agent = make_agent(name, AgentOptions(model="m", base_url=base_url, api_key="k"))
    agent._client = agent._client.with_options(max_retries=0)
    harness = Harness("x")
    obs = Observation(step=0, url="u", axtree=AXTREE)
    with pytest.raises(AgentError, match="boom"):
        agent.act(harness.prompt(obs), obs)
    assert llm.pending() == 2
    llm.clear()


def test_scripted_server_tool_calls_and_exhaustion():
    import anthropic
    import openai

    with ScriptedLLM([Reply(tool_calls=(ToolCall("write_file", {"path": "a.py"}),)), lambda req: f"echo {req.api}"]) as llm:
        oa = openai.OpenAI(base_url=llm.openai_base_url, api_key="k", max_retries=0)
        msg = oa.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}]).choices[0].message
        assert msg.tool_calls[0].function.name == "write_file" and '"a.py"' in msg.tool_calls[0].function.arguments
        an = anthropic.Anthropic(base_url=llm.anthropic_base_url, api_key="k", max_retries=0)
        reply = an.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        assert reply.content[0].text == "echo anthropic"
        with pytest.raises(openai.InternalServerError, match="script exhausted"):
            oa.chat.completions.create(model="m", messages=[{"role": "user", "content": "again"}])
        assert llm.exhausted == 1 and [r.text() for r in llm.requests] == ["hi", "hi", "again"]


def test_registry_suggests_near_names():
    assert check_agent("golden") == "golden"
    with pytest.raises(UnknownAgent, match="did you mean openai"):
        check_agent("opneai")
    with pytest.raises(ValueError, match="needs a model"):
        make_agent("openai", AgentOptions(base_url="http://127.0.0.1:9/v1", api_key="k"))
