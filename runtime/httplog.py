"""The HTTP requests an attempt's browser sent to its app instances, and sending them again without a browser.

An app is a deterministic state machine whose every state change is a server request (DESIGN.md, Contract 1):
the same seed, clock and requests give the same state. So an attempt's final state can be rebuilt at state
level: record the requests its pages sent (documents, form posts, fetches; never stylesheets or images) and
send them again, over plain HTTP and in the same order, to fresh instances of the same task. Validation uses
this for its second golden run (`factory.verifiers.validate`), at a fraction of a browser run's cost.

Requests are kept relative to their instance (the app, its instance id, the path under it), so the replay
sends them to whichever instances it is given; an instance id inside a path or a body is rewritten too.
"""

from __future__ import annotations

import httpx
from pydantic import BaseModel, ConfigDict, Field

from runtime.backends.base import EnvError, Instance

__all__ = ["RecordedRequest", "RequestRecorder", "resend"]

_SENT_TYPES = ("document", "fetch", "xhr", "ping", "other")
"""Resource types that may change state on the server; stylesheets, scripts, images and fonts never do."""


class RecordedRequest(BaseModel):
    """One request a page sent to an app instance, as the server received it."""

    model_config = ConfigDict(frozen=True)

    app: str = Field(description="The app the instance belongs to (as the task names it).")
    instance_id: str = Field(description="The instance it went to (rewritten to the new one on replay).")
    path: str = Field(description="Everything after the instance's URL root, query included.")
    method: str
    body: bytes | None = None
    content_type: str | None = None
    status: int | None = Field(default=None, description="The status the server answered with, once known.")


class RequestRecorder:
    """Collects the requests a Playwright page sends to `instances` while attached (on the browser's loop)."""

    def __init__(self, instances: list[Instance]):
        self._roots = [(inst.url, inst) for inst in instances]
        self.sent: list[RecordedRequest] = []
        self._pending: dict[int, int] = {}  # id(request) -> index in sent, until its response comes

    def attach(self, page) -> None:
        page.on("request", self._on_request)
        page.on("response", self._on_response)

    def detach(self, page) -> None:
        page.remove_listener("request", self._on_request)
        page.remove_listener("response", self._on_response)

    def _on_request(self, request) -> None:
        if request.resource_type not in _SENT_TYPES:
            return
        url = request.url
        for root, inst in self._roots:
            if url.startswith(root):
                self._pending[id(request)] = len(self.sent)
                self.sent.append(RecordedRequest(app=inst.app, instance_id=inst.instance_id, path=url[len(root):],
                                                 method=request.method, body=request.post_data_buffer,
                                                 content_type=request.headers.get("content-type")))
                return

    def _on_response(self, response) -> None:
        index = self._pending.pop(id(response.request), None)
        if index is not None:
            self.sent[index] = self.sent[index].model_copy(update={"status": response.status})


def resend(requests: list[RecordedRequest], instances: list[Instance], timeout_s: float) -> list[str]:
    """Send `requests` again, in order, to `instances` (one per app), following no redirect (the browser's next
    request is in the list already). Returns 'METHOD path: answered X, was Y' for every status that differs."""
    by_app = {inst.app: inst for inst in instances}
    with httpx.Client(follow_redirects=False, verify=False, trust_env=False) as client:  # http on loopback: no CA bundle to load
        return _send(client, requests, by_app, timeout_s)


def _send(client: httpx.Client, requests: list[RecordedRequest], by_app: dict[str, Instance], timeout_s: float) -> list[str]:
    differ: list[str] = []
    for sent in requests:
        inst = by_app.get(sent.app)
        if inst is None:
            raise EnvError(f"no instance of {sent.app} to send {sent.method} {sent.path} to")
        path = sent.path.replace(sent.instance_id, inst.instance_id)
        body = sent.body.replace(sent.instance_id.encode(), inst.instance_id.encode()) if sent.body else None
        headers = {"content-type": sent.content_type} if sent.content_type else {}
        try:
            answer = client.request(sent.method, inst.url + path, content=body, headers=headers, timeout=timeout_s)
        except httpx.HTTPError as err:
            raise EnvError(f"resending {sent.method} {path} to {sent.app}: {err}") from err
        if sent.status is not None and answer.status_code != sent.status:
            differ.append(f"{sent.method} {sent.path}: answered {answer.status_code}, was {sent.status}")
    return differ

