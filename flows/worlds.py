"""Flow: build the worlds (integrity-checked) and save them as JSON."""

from __future__ import annotations

import time

from prefect import flow

from factory.tasks.synthesize import worlds

from .artifacts import link, table
from .config import PipelineConfig
from .workdir import Workdir


@flow(name="worlds", log_prints=True)
def worlds_flow(config: PipelineConfig) -> dict:
    """The pool's first worlds (generated personas x the catalogue, or fixture personas x scenarios x seeds) -> worlds/<id>.json."""
    wd, started = Workdir(config.out), time.monotonic()
    synth = config.synth
    inputs = [synth.personas, synth.scenarios, synth.worlds_per_pair, synth.seed, synth.n]
    if (done := wd.done("worlds", inputs)) is not None:
        print(f"worlds: already built ({done['worlds']}), skipping")
        return done
    rows = []
    for w in worlds(synth, limit=-(-synth.n // synth.tasks_per_world)):  # the worlds synthesis draws from first
        wd.path("worlds", f"{w.id}.json").write_text(w.model_dump_json(indent=1))
        rows.append({"world": w.id, "scenario": w.scenario.id, "locale": w.persona.locale, "people": len(w.people), "invoices": len(w.invoices),
                     "meetings": len(w.meetings), "messages": len(w.messages), "transactions": len(w.transactions)})
    table("worlds", rows, "Worlds built for this run")
    link("worlds-folder", wd.path("worlds", "x").parent, "World JSON files")
    return wd.finish("worlds", inputs, {"worlds": len(rows)}, time.monotonic() - started)
