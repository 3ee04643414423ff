"""The shared host: compiled apps share one server process, each with its own port, token and instances."""

from __future__ import annotations

import httpx

from mocked_apps.kit import AppServer
from mocked_apps.kit.process import HostedAppServer


def test_compiled_apps_share_one_process_and_stay_apart():
    servers = [AppServer(name).start() for name in ("pawcare", "cornerstore", "ticketbay")]
    try:
        assert all(isinstance(s, HostedAppServer) for s in servers)
        assert len({s.pid for s in servers}) == 1 and len({s.port for s in servers}) == 3
        for s in servers:
            inst = s.admin.create()
            assert httpx.get(s.url + inst["url"]).status_code == 200
            state = s.admin.state(inst["instance_id"])
            assert s.admin.health()["app"] == s.app and state
            other = next(o for o in servers if o is not s)  # another app's token opens nothing here
            assert httpx.get(f"{s.url}/_gym/instances", headers={"X-Gym-Admin-Token": other.token}).status_code == 401
        assert AppServer("bank").__class__ is AppServer  # hand-written apps keep a process of their own
    finally:
        for s in servers[:-1]:
            s.stop()
    assert servers[-1].alive() and not servers[0].alive()
    pid = servers[-1].pid
    servers[-1].kill()
    assert not servers[-1].alive()
    servers[-1].stop()
    assert pid is not None
