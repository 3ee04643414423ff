"""The admin API laws of Contract 1 (HTTP only), and what every law works on: a `Target` and its `Finding`."""

from __future__ import annotations

import math
import secrets
import string
from dataclasses import dataclass, field

import httpx
from pydantic import BaseModel, ConfigDict, Field

from mocked_apps.kit import AdminClient, AdminError, TOKEN_HEADER
from mocked_apps.kit.variant import variant_seed
from mocked_apps.kit.viewstate import without_view_state


class Finding(BaseModel):
    """A law's verdict before timing: did it hold (or could it not run), and what shows it."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    evidence: str
    ran: bool = Field(default=True, description="False: the law had nothing to judge (e.g. no page rendered), which fails it as 'not run'.")
    cause: str = Field(default="", description="'Type: message' of an exception behind a failure.")

    @classmethod
    def not_run(cls, why: str) -> "Finding":
        return cls(ok=False, ran=False, evidence=f"not run: {why}")


class ViewStateBlind(AdminClient):
    """The admin client the laws use: state dumps without the fields the app declares as view state,
    so opening a thread (which marks it read) is no write, no difference and no leak."""

    def __init__(self, base_url: str, token: str, view_state: tuple[str, ...] | list[str], variant: int = 0):
        super().__init__(base_url, token)
        self.view_state = tuple(view_state)
        self.variant = variant

    def state(self, instance_id: str) -> dict[str, list[dict]]:
        return without_view_state(super().state(instance_id), self.view_state)

    def create(self, seed: dict | None = None, clock: str | None = None) -> dict:
        """A new instance; with no seed, the app's default records in the check's appearance variant."""
        if seed is None and self.variant:
            seed = variant_seed(self.variant)
        return super().create(seed, clock)


@dataclass
class Target:
    """A running app server as the laws see it: its URL, admin client and token, and a plain client."""

    url: str
    token: str
    admin: AdminClient
    http: httpx.Client
    manifest: dict
    _status: dict[str, int] = field(default_factory=dict)

    def base(self, instance_id: str) -> str:
        return f"{self.url}/i/{instance_id}"

    def status(self, url: str) -> int:
        """HTTP status of a GET (after redirects), cached: for links the crawl did not open."""
        if url not in self._status:
            self._status[url] = self.http.get(url, follow_redirects=True).status_code
        return self._status[url]

    def remember(self, statuses: dict[str, int]) -> None:
        """Statuses of URLs already fetched (by the link sweep), so `status` need not fetch them again."""
        self._status.update(statuses)

    def instances(self) -> list[str]:
        return self.http.get(f"{self.url}/_gym/instances", headers={TOKEN_HEADER: self.token}).json()["instances"]


# ---- admin API laws (HTTP only) -------------------------------------------------------------
def admin_token(t: Target) -> Finding:
    """Every admin call answers 401 without the token and with a wrong one; pages never show the token."""
    scratch = t.admin.create()["instance_id"]
    calls = [
        ("GET", "/_gym/health"),
        ("GET", "/_gym/manifest"),
        ("GET", "/_gym/instances"),
        ("POST", "/_gym/instances"),
        ("GET", f"/_gym/instances/{scratch}/state"),
        ("POST", f"/_gym/instances/{scratch}/reset"),
        ("DELETE", f"/_gym/instances/{scratch}"),
    ]
    wrong = {TOKEN_HEADER: "wrong-" + secrets.token_hex(8)}
    for method, path in calls:
        for label, headers in (("without", {}), ("with a wrong", wrong)):
            status = t.http.request(method, t.url + path, headers=headers).status_code
            if status != 401:
                return Finding(ok=False, evidence=f"{method} {path} {label} {TOKEN_HEADER} answered {status}, not 401")
    root = t.http.get(t.base(scratch) + "/", follow_redirects=True).text
    if t.token in root:
        return Finding(ok=False, evidence="the admin token appears in the app's root page")
    t.admin.delete(scratch)
    return Finding(ok=True, evidence=f"{len(calls)} admin calls answer 401 without and with a wrong token")


def instance_ids(t: Target) -> Finding:
    """Fresh ids carry >= 128 bits and differ; an unknown id answers 404 on app pages and admin calls."""
    created = [t.admin.create() for _ in range(3)]
    ids = [c["instance_id"] for c in created]
    try:
        for c in created:
            iid = c["instance_id"]
            if _bits(iid) < 128:
                return Finding(ok=False, evidence=f"instance id {iid!r} carries about {_bits(iid):.0f} bits, under 128")
            if not c.get("url", "").startswith(f"/i/{iid}"):
                return Finding(ok=False, evidence=f"instance url {c.get('url')!r} is not under /i/{iid}/")
        if len(set(ids)) != len(ids):
            return Finding(ok=False, evidence=f"three creations gave repeated ids {ids}")
    finally:
        for iid in ids:
            t.admin.delete(iid)
    unknown = secrets.token_hex(16)
    for method, url in [
        ("GET", f"{t.base(unknown)}/"),
        ("GET", f"{t.url}/_gym/instances/{unknown}/state"),
        ("POST", f"{t.url}/_gym/instances/{unknown}/reset"),
        ("DELETE", f"{t.url}/_gym/instances/{unknown}"),
    ]:
        status = t.http.request(method, url, headers={TOKEN_HEADER: t.token}).status_code
        if status != 404:
            return Finding(ok=False, evidence=f"{method} {url.removeprefix(t.url)} for an unknown instance answered {status}, not 404")
    return Finding(ok=True, evidence=f"ids like {ids[0][:8]}… carry {_bits(ids[0]):.0f} bits; unknown instance -> 404 (app and admin)")


def _bits(instance_id: str) -> float:
    """Entropy an id could carry at most, from its length and alphabet (hex, else url-safe base64)."""
    alphabet = 16 if all(ch in string.hexdigits for ch in instance_id) else 64
    return len(instance_id) * math.log2(alphabet)


def bad_seed(t: Target) -> Finding:
    """A seed naming an unknown table (or field) answers 422 and creates nothing."""
    before = sorted(t.instances())
    table = next(iter(t.manifest.get("entities") or {}), None)
    seeds = [{"__no_such_table__": [{"id": 1}]}]
    if table:
        seeds.append({table: [{"__no_such_field__": 1}]})
    for seed in seeds:
        response = t.http.post(f"{t.url}/_gym/instances", json={"seed": seed}, headers={TOKEN_HEADER: t.token})
        if response.status_code != 422:
            return Finding(ok=False, evidence=f"seed {seed} answered {response.status_code}, not 422")
    after = sorted(t.instances())
    if after != before:
        return Finding(ok=False, evidence=f"a rejected seed still left {len(after) - len(before)} new instance(s)")
    return Finding(ok=True, evidence="unknown table and unknown field -> 422, no instance created")


def default_seed(t: Target) -> Finding:
    """The app's own seed.json (its default seed) creates an instance: every other law needs one."""
    try:
        instance_id = t.admin.create()["instance_id"]
    except AdminError as err:
        if err.status != 422:
            raise
        return Finding(
            ok=False,
            evidence=f"the app's default seed (seed.json) is rejected: {err.detail}\n"
            "fix that row of seed.json, or the model field it names (models.py)",
        )
    t.admin.delete(instance_id)
    return Finding(ok=True, evidence="seed.json creates an instance")


__all__ = ["Finding", "Target", "ViewStateBlind", "admin_token", "bad_seed", "default_seed", "instance_ids"]
