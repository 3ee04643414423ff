"""`AdminClient`: the admin API of one app server, as Python calls."""

from __future__ import annotations

import time
from typing import Any, Callable

import httpx

from .server import TOKEN_HEADER


class AdminError(RuntimeError):
    """The app server answered an admin call with an error; carries status and detail."""

    def __init__(self, status: int, detail: str):
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class AdminClient:
    """Create, reset, dump and delete instances on an app server at `base_url`."""

    def __init__(self, base_url: str, token: str, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.http = httpx.Client(base_url=self.base_url, headers={TOKEN_HEADER: token}, timeout=timeout)

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        response = self.http.request(method, path, **kw)
        if response.status_code >= 400:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise AdminError(response.status_code, str(detail))
        return response.json()

    def health(self) -> dict:
        return self._call("GET", "/_gym/health")

    def wait_until_up(self, alive: Callable[[], bool], timeout: float) -> bool:
        """Poll the health endpoint until it answers 200 (True), `alive()` turns false or `timeout` passes (False).

        One client for every poll: a new httpx client builds an SSL context (about 25 ms of CPU), and a
        server takes dozens of polls to come up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and alive():
            try:
                if self.http.get("/_gym/health", timeout=1).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        return False

    def manifest(self) -> dict:
        return self._call("GET", "/_gym/manifest")

    def create(self, seed: dict | None = None, clock: str | None = None) -> dict:
        """New instance; returns `{"instance_id", "url"}` (url relative to the server)."""
        return self._call("POST", "/_gym/instances", json={"seed": seed, "clock": clock})

    def reset(self, instance_id: str) -> None:
        self._call("POST", f"/_gym/instances/{instance_id}/reset")

    def state(self, instance_id: str) -> dict[str, list[dict]]:
        return self._call("GET", f"/_gym/instances/{instance_id}/state")

    def delete(self, instance_id: str) -> None:
        self._call("DELETE", f"/_gym/instances/{instance_id}")

    def close(self) -> None:
        self.http.close()
