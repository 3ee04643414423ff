"""One real rollout store shared by the diagnosis and dashboard tests: the golden oracle and five agents with one
planted weakness each (runtime.agents.flawed), on one task per family that covers the capabilities."""

from __future__ import annotations

import pytest

from factory.tasks.synthesize import SynthConfig, synthesize

FAMILIES = ("bank.transfer_to_savings", "calendar.book_meeting", "cross.pay_invoice_from_drive", "cross.meet_everyone_on_thread",
            "mail.star_invoice_email", "calendar.rsvp_yes", "drive.invoice_due_date", "cross.reply_with_invoice_total")
PLANTED = ("search", "confirm", "date_time", "select_option", "cross_app")


@pytest.fixture(scope="session")
def planted(tmp_path_factory):
    """(store path, {agent: RolloutReport}): every agent on the same eight tasks; screenshots kept for golden and flawed-confirm."""
    from runtime.manager import EnvironmentManager
    from runtime.rollout import rollout
    from runtime.store import TrajectoryStore

    root = tmp_path_factory.mktemp("planted")
    tasks = synthesize(SynthConfig(n=len(FAMILIES), families=FAMILIES, personas=("alex",), scenarios=("month_end",), worlds_per_pair=2,
                                   tasks_per_world=len(FAMILIES), seed=1))
    assert {t.meta.family for t in tasks} == set(FAMILIES)
    store = TrajectoryStore(root / "trajectories.db")
    reports = {}
    with EnvironmentManager(screenshots=str(root / "objects")) as manager:
        for agent in ("golden", *(f"flawed-{c}" for c in PLANTED)):
            reports[agent] = rollout(tasks, agent, 1, 2, manager=manager, store=store, max_steps=30, run=f"planted-{agent}",
                                     screenshots=agent in ("golden", "flawed-confirm"))
    store.close()
    return root / "trajectories.db", reports
