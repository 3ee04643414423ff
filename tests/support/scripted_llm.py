"""A loopback HTTP server that plays back scripted LLM replies to the real `openai` and `anthropic` clients.

It serves `POST /v1/chat/completions` (OpenAI) and `POST /v1/messages` (Anthropic), answers each
request with the next scripted reply in the shape of that API, and records every request so a
test can assert what the prompt contained.

    from tests.support.scripted_llm import Reply, ScriptedLLM, ToolCall

    with ScriptedLLM(["click(3)", Reply(text='answer("42")')]) as llm:
        client = openai.OpenAI(base_url=llm.openai_base_url, api_key="test")
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
        assert llm.requests[0].body["model"] == "m"
        assert "hi" in llm.requests[0].text()

    anthropic.Anthropic(base_url=llm.anthropic_base_url, api_key="test")  # same server, same queue

Replies are consumed in order whichever endpoint asks. A reply is a string (the assistant's text),
a `Reply` (text, tool calls, stop reason, token usage, or an HTTP error status to test retries),
or a callable `(Request) -> str | Reply` for answers that depend on the prompt; `Reply(raw=...)` sends
a body as it is (non-JSON, truncated, wrong shape). With no reply
left the server answers HTTP 500 with "script exhausted" (and `exhausted` counts them), so a test
that runs past its script fails loudly. Streaming is not supported (HTTP 400).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable

__all__ = ["Reply", "Request", "ScriptedLLM", "ToolCall"]


@dataclass(frozen=True)
class ToolCall:
    """A tool/function call in a reply: name and JSON-serialisable arguments."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """One scripted answer. `status` other than 200 sends an API error with `text` as its message."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str | None = None  # default: "end_turn"/"stop", or "tool_use"/"tool_calls" with tool calls
    input_tokens: int = 10
    output_tokens: int = 5
    status: int = 200
    raw: str | None = None  # sent as the body as it is (with `status`), e.g. garbage or a truncated JSON, to test bad replies


@dataclass(frozen=True)
class Request:
    """A request the server received."""

    api: str  # "openai" or "anthropic"
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])

    def text(self) -> str:
        """Every text the request carried (system prompt and message contents), joined by newlines."""
        chunks: list[str] = []
        system = self.body.get("system")
        chunks += _texts(system) if system is not None else []
        for msg in self.messages:
            chunks += _texts(msg.get("content"))
        return "\n".join(chunks)

    def images(self) -> list[str]:
        """Every image the request carried: data URLs (OpenAI) or base64 data (Anthropic)."""
        out = []
        for msg in self.messages:
            content = msg.get("content")
            for part in content if isinstance(content, list) else []:
                if part.get("type") == "image_url":
                    out.append(part["image_url"]["url"])
                elif part.get("type") == "image":
                    out.append(part["source"].get("data") or part["source"].get("url", ""))
        return out


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text"]
    return []


Script = str | Reply | Callable[[Request], "str | Reply"]


class ScriptedLLM:
    """The scripted server; start it with `with ScriptedLLM(replies) as llm:` or `start()`/`stop()`."""

    def __init__(self, replies: Iterable[Script] = ()):
        self._replies: deque[Script] = deque(replies)
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.requests: list[Request] = []
        self.exhausted = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("ScriptedLLM is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def openai_base_url(self) -> str:
        """Pass as `OpenAI(base_url=...)` or OPENAI_BASE_URL."""
        return f"{self.url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """Pass as `Anthropic(base_url=...)` or ANTHROPIC_BASE_URL."""
        return self.url

    def push(self, *replies: Script) -> None:
        """Append replies to the script."""
        with self._lock:
            self._replies.extend(replies)

    def clear(self) -> None:
        """Drop replies not yet consumed (recorded requests stay)."""
        with self._lock:
            self._replies.clear()

    def pending(self) -> int:
        """Replies not yet consumed."""
        with self._lock:
            return len(self._replies)

    def start(self) -> "ScriptedLLM":
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = None

    def __enter__(self) -> "ScriptedLLM":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _next(self, request: Request) -> Reply | None:
        with self._lock:
            self.requests.append(request)
            if not self._replies:
                self.exhausted += 1
                return None
            script = self._replies.popleft()
        if callable(script):
            script = script(request)
        return Reply(text=script) if isinstance(script, str) else script

    def _openai(self, reply: Reply, body: dict) -> dict:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{next(self._ids)}", "type": "function", "function": {"name": t.name, "arguments": json.dumps(t.arguments)}}
                for t in reply.tool_calls
            ]
        finish = reply.stop_reason or ("tool_calls" if reply.tool_calls else "stop")
        return {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "scripted"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": reply.input_tokens, "completion_tokens": reply.output_tokens,
                      "total_tokens": reply.input_tokens + reply.output_tokens},
        }

    def _anthropic(self, reply: Reply, body: dict) -> dict:
        content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
        content += [{"type": "tool_use", "id": f"toolu_{next(self._ids)}", "name": t.name, "input": t.arguments} for t in reply.tool_calls]
        return {
            "id": f"msg_{next(self._ids)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "scripted"),
            "content": content,
            "stop_reason": reply.stop_reason or ("tool_use" if reply.tool_calls else "end_turn"),
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }


def _error(api: str, status: int, message: str) -> dict:
    if api == "anthropic":
        return {"type": "error", "error": {"type": "api_error", "message": message}}
    return {"error": {"message": message, "type": "server_error", "code": status}}


def _handler(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
    routes = {"/v1/chat/completions": ("openai", llm._openai), "/v1/messages": ("anthropic", llm._anthropic)}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            path = self.path.split("?")[0]
            if path not in routes:
                return self._send(404, {"error": {"message": f"no route {path}"}})
            api, render = routes[path]
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError as err:
                return self._send(400, _error(api, 400, f"bad JSON: {err}"))
            if body.get("stream"):
                return self._send(400, _error(api, 400, "ScriptedLLM does not support streaming"))
            request = Request(api=api, path=path, headers={k.lower(): v for k, v in self.headers.items()}, body=body)
            reply = llm._next(request)
            if reply is None:
                return self._send(500, _error(api, 500, "script exhausted"), retry=False)
            if reply.raw is not None:
                return self._send_raw(reply.status, reply.raw.encode())
            if reply.status != 200:
                return self._send(reply.status, _error(api, reply.status, reply.text or "scripted error"))
            self._send(200, render(reply, body))

        def _send(self, status: int, payload: dict, retry: bool = True) -> None:
            self._send_raw(status, json.dumps(payload).encode(), retry)

        def _send_raw(self, status: int, data: bytes, retry: bool = True) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if not retry:
                self.send_header("x-should-retry", "false")  # both SDKs honour it
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args) -> None:
            pass

    return Handler
