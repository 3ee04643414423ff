"""The embedded default backend: app servers as local processes, a warm instance pool, one Chromium."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from mocked_apps.kit import AdminClient, AdminError, AppServer, AppServerError

from .base import Backend, EnvError, Instance, PageSetup, TaskSetupError
from .chromium import ChromiumHost, ChromiumPage


def pool_key(seed: dict | None, clock: str | None) -> str:
    """Instances are interchangeable when they start from the same (seed, clock)."""
    return hashlib.sha256(json.dumps([seed, clock], sort_keys=True, default=str).encode()).hexdigest()[:24]


@dataclass
class _AppSlot:
    """One app type: its server, the admin client, and ready instances by pool key."""

    server: AppServer
    admin: AdminClient
    title: str
    icon: str
    generation: int = 0
    ready: dict[str, list[str]] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    dumps: dict[str, dict] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class LocalBackend(Backend):
    """Starts one app server per app type on a free loopback port and one headless Chromium."""

    def __init__(self, pool_size: int = 4, data_dir: Path | None = None, admin_timeout: float = 10.0):
        """`data_dir` holds each app's instance files; without one a `/tmp/gym-apps-*` folder is made and `close` removes it."""
        self.pool_size = pool_size
        self._own_data = data_dir is None
        self.data_dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="gym-apps-"))
        self.admin_timeout = admin_timeout
        self._slots: dict[str, _AppSlot] = {}
        self._starting: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._browser: ChromiumHost | None = None
        self._releaser = ThreadPoolExecutor(max_workers=2, thread_name_prefix="gym-release")
        self.restarts = 0

    # ---- app servers -----------------------------------------------------------------
    def server(self, app: str) -> AppServer:
        """The running server of `app`, started on first use and restarted if it died."""
        return self._slot(app).server

    def _slot(self, app: str) -> _AppSlot:
        slot = self._slots.get(app)
        if slot is None:
            with self._lock:
                starting = self._starting.setdefault(app, threading.Lock())
            with starting:  # one start per app; other apps' sessions are not held up meanwhile
                slot = self._slots.get(app)
                if slot is None:
                    data = self.data_dir / _safe(app)
                    try:
                        server = self._start_server(app, data)
                    except AppServerError as err:
                        raise EnvError(f"app server {app}: {err}") from err
                    slot = self._slots[app] = self._new_slot(server)
        if not slot.server.alive():
            self._restart(slot)
        return slot

    def _start_server(self, app: str, data_dir: Path) -> AppServer:
        """A started server of `app`: a local process here; other backends start it elsewhere (a container)."""
        return AppServer(app, data_dir=data_dir).start()

    def _new_slot(self, server: AppServer) -> _AppSlot:
        admin = AdminClient(server.url, server.token, timeout=self.admin_timeout)
        manifest = admin.manifest()
        return _AppSlot(server=server, admin=admin, title=manifest.get("title", server.app), icon=manifest.get("icon", ""))

    def _restart(self, slot: _AppSlot) -> None:
        with slot.lock:
            if slot.server.alive():
                return  # another thread restarted it first
            if self._own_data and slot.server.data_dir is not None:
                shutil.rmtree(slot.server.data_dir, ignore_errors=True)  # the dead server's instances are gone with it
            try:
                slot.server.restart()
            except AppServerError as err:
                raise EnvError(f"app server {slot.server.app} cannot restart: {err}") from err
            slot.admin.close()
            slot.admin = AdminClient(slot.server.url, slot.server.token, timeout=self.admin_timeout)
            slot.generation += 1
            slot.ready.clear()
            slot.keys.clear()
            slot.dumps.clear()
            self.restarts += 1

    def warm(self, app: str, seed: dict | None = None, clock: str | None = None, count: int | None = None) -> None:
        """Pre-create ready instances of `app` in state (seed, clock) so that `acquire` only hands them out."""
        slot = self._slot(app)
        key = pool_key(seed, clock)
        want = self.pool_size if count is None else count
        with slot.lock:
            missing = want - len(slot.ready.get(key, []))
        for _ in range(max(missing, 0)):
            iid = self._create(slot, key, seed, clock)
            with slot.lock:
                slot.ready.setdefault(key, []).append(iid)

    def warm_for(self, tasks, count: int | None = None) -> None:
        """Warm the pool for every (app, seed, clock) these tasks will reset to (e.g. `count` = attempts per task)."""
        for task in tasks:
            for app in task.apps:
                self.warm(app, task.app_seed(app), task.clock, count)

    # ---- Backend ---------------------------------------------------------------------
    def acquire(self, app: str, seed: dict | None, clock: str | None, timeout: float, held: Instance | None = None) -> Instance:
        slot = self._slot(app)
        key = pool_key(seed, clock)
        with slot.lock:
            if held is not None and held.app == app and held.generation == slot.generation and slot.keys.get(held.instance_id) == key:
                return held  # still the (seed, clock) it was taken for, on the server that made it
            ready = slot.ready.get(key)
            iid = ready.pop() if ready else None
            generation = slot.generation
        if held is not None:
            self.release(held)
        if iid is None:
            iid = self._create(slot, key, seed, clock)
        initial = slot.dumps.get(key)
        if initial is None:  # same (seed, clock) -> same dump (Contract 1), so one dump per pool key is enough
            initial = slot.dumps[key] = self._admin(slot, "state", lambda admin: admin.state(iid))
        return Instance(
            app=app, instance_id=iid, url=f"{slot.server.url}/i/{iid}/", title=slot.title, icon=slot.icon,
            generation=generation, initial_state=initial,
        )

    def release(self, instance: Instance) -> None:
        """Reset the instance back into the pool in the background; the caller does not wait for it."""
        self._releaser.submit(self._release, instance)

    def _release(self, instance: Instance) -> None:
        slot = self._slots.get(instance.app)
        if slot is None or slot.generation != instance.generation or not slot.server.alive():
            return  # its server restarted: the instance is gone with it
        with slot.lock:
            key = slot.keys.get(instance.instance_id)
            keep = key is not None and len(slot.ready.get(key, [])) < self.pool_size
        try:
            if keep:
                slot.admin.reset(instance.instance_id)
            else:
                slot.admin.delete(instance.instance_id)
        except (AdminError, httpx.HTTPError):
            return  # the server died meanwhile; it is restarted on the next acquire
        with slot.lock:
            if keep and slot.generation == instance.generation:
                slot.ready.setdefault(key, []).append(instance.instance_id)
            elif not keep:
                slot.keys.pop(instance.instance_id, None)

    def state(self, instance: Instance, timeout: float) -> dict[str, list[dict]]:
        slot = self._slots.get(instance.app)
        if slot is None or slot.generation != instance.generation or not slot.server.alive():
            raise EnvError(f"app server {instance.app} died during the attempt")
        return self._admin(slot, "state", lambda admin: admin.state(instance.instance_id))

    def open_page(self, setup: PageSetup, timeout: float) -> ChromiumPage:
        return self._host().open_page(setup, timeout)

    def warm_browser(self, form_factor: str = "desktop", count: int = 4) -> None:
        """Pre-open `count` browser contexts for single-app sessions of `form_factor`."""
        self._host().prewarm(PageSetup(form_factor=form_factor), count)

    def _host(self) -> ChromiumHost:
        with self._lock:
            if self._browser is None:
                self._browser = ChromiumHost()
            return self._browser

    @property
    def browser(self) -> ChromiumHost | None:
        return self._browser

    def close(self) -> None:
        self._releaser.shutdown(wait=True)
        with self._lock:
            slots, self._slots = list(self._slots.values()), {}
            host, self._browser = self._browser, None
        for slot in slots:
            slot.admin.close()
            slot.server.stop()
        if host is not None:
            host.close()
        if self._own_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    # ---- helpers ---------------------------------------------------------------------
    def _create(self, slot: _AppSlot, key: str, seed: dict | None, clock: str | None) -> str:
        iid = self._admin(slot, "create", lambda admin: admin.create(seed, clock))["instance_id"]
        with slot.lock:
            slot.keys[iid] = key
        return iid

    def _admin(self, slot: _AppSlot, call: str, fn):
        try:
            return fn(slot.admin)
        except AdminError as err:
            if err.status == 422:
                raise TaskSetupError(f"app {slot.server.app}: bad seed: {err.detail}") from err
            raise EnvError(f"app server {slot.server.app}: {call} failed: {err}") from err
        except httpx.HTTPError as err:
            raise EnvError(f"app server {slot.server.app} unreachable ({call}): {err}") from err


def _safe(app: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in app)[-60:]
