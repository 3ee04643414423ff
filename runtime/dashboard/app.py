"""The dashboard app: FastAPI routes over a `TrajectoryView`, HTML pages for people and `/api/...` JSON for agents.

Every page's state is in its URL (run, agent, grouping, status filter, the attempts compared), so a
link can be shared. JSON endpoints are documented in docs/dashboard.md.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from runtime.store import AttemptRecord, TrajectoryStore

from .data import GroupBy, TrajectoryView, rate_rows, run_of, status_of
from .events import attempt_events, row_error

__all__ = ["create_app"]

_TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
_GROUPS: tuple[GroupBy, ...] = ("capability", "app", "family", "difficulty")
AXTREE_EXCERPT = 40  # lines of the accessibility tree shown per step


def _attempt_json(a: AttemptRecord) -> dict:
    task = a.info.get("task") or {}
    o = a.outcome
    return {"id": a.id, "task_id": a.task_id, "agent": a.agent, "model": a.model, "run": run_of(a), "status": status_of(a),
            "reward": o.reward if o else None, "success": o.success if o else None, "verdicts": o.verdicts if o else {},
            "error": o.error if o else None, "family": task.get("family"), "difficulty": task.get("difficulty"),
            "capabilities": task.get("capabilities") or [], "apps": task.get("apps") or [], "timings": a.timings,
            "started_at": a.started_at.isoformat(), "finished_at": a.finished_at.isoformat() if a.finished_at else None}


def _overall(agent: str, attempts: list[AttemptRecord]) -> dict:
    statuses = [status_of(a) for a in attempts]
    scored = statuses.count("success") + statuses.count("failure")
    return {"agent": agent, "attempts": len(attempts), "scored": scored, "successes": statuses.count("success"),
            "success_rate": round(statuses.count("success") / scored, 3) if scored else 0.0, "env_errors": statuses.count("env_error")}


def _criteria(a: AttemptRecord) -> list[dict]:
    """The task's criteria with this attempt's verdicts (system criteria the task does not list come last)."""
    verdicts = a.outcome.verdicts if a.outcome else {}
    listed = (a.info.get("task") or {}).get("criteria") or []
    rows = [{**c, "passed": verdicts.get(c["id"])} for c in listed]
    known = {c["id"] for c in listed}
    rows += [{"id": k, "description": "(system criterion)", "weight": None, "required": True, "passed": v}
             for k, v in verdicts.items() if k not in known]
    return rows


def create_app(store_url: str | None = None, view: TrajectoryView | None = None) -> FastAPI:
    """The dashboard over the store at `store_url` (default: $GYMFACTORY_HOME/trajectories.db), or over `view`."""
    view = view or TrajectoryView(TrajectoryStore(store_url))
    app = FastAPI(title="gymfactory dashboard", docs_url="/api/docs", openapi_url="/api/openapi.json")

    def get_attempt(attempt_id: int) -> AttemptRecord:
        a = view.attempt(attempt_id)
        if a is None:
            raise HTTPException(404, f"no attempt {attempt_id}")
        return a

    def page(request: Request, name: str, **context) -> HTMLResponse:
        return _TEMPLATES.TemplateResponse(request, name, context)

    # ---- pages ---------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def runs_page(request: Request):
        return page(request, "runs.html", runs=view.runs())

    @app.get("/run", response_class=HTMLResponse)
    def run_page(request: Request, run: str, agent: str | None = None, by: GroupBy = "capability", key: str | None = None,
                 status: str | None = None):
        agent, key, status = agent or None, key or None, status or None  # an empty form field means "any"
        everything = view.attempts(run=run)
        agents = list(dict.fromkeys(a.agent for a in everything))
        chosen = view.attempts(run=run, agent=agent, group=(by, key) if key else None)
        tasks = {}
        for a in chosen:
            t = tasks.setdefault(a.task_id, {"task_id": a.task_id, "family": (a.info.get("task") or {}).get("family"),
                                             "success": 0, "failure": 0, "env_error": 0, "other": 0})
            s = status_of(a)
            t[s if s in t else "other"] += 1
        rows = [t for t in tasks.values() if status is None or t.get(status)]
        return page(request, "run.html", run=run, agent=agent, agents=agents, by=by, key=key, status=status, groups=_GROUPS,
                    agent_rows=[_overall(g, [a for a in everything if a.agent == g]) for g in agents],
                    breakdown=rate_rows(view.attempts(run=run, agent=agent), by), tasks=rows)

    @app.get("/task", response_class=HTMLResponse)
    def task_page(request: Request, task: str, run: str | None = None, status: str | None = None):
        run, status = run or None, status or None
        attempts = view.attempts(run=run, task_id=task, status=status)
        if not attempts and status is None:
            raise HTTPException(404, f"no attempts of task {task}")
        failed = next((a for a in attempts if status_of(a) == "failure"), None)
        passed = next((a for a in view.attempts(task_id=task, status="success")), None)
        card = (attempts[0].info.get("task") if attempts else None) or {}
        return page(request, "task.html", task=task, run=run, status=status, card=card,
                    attempts=[_attempt_json(a) for a in attempts], failed=failed, passed=passed)

    @app.get("/attempt/{attempt_id}", response_class=HTMLResponse)
    def attempt_page(request: Request, attempt_id: int):
        a = get_attempt(attempt_id)
        steps = view.steps(a.id)
        events = attempt_events(a, steps)
        return page(request, "attempt.html", a=_attempt_json(a), card=a.info.get("task") or {}, criteria=_criteria(a),
                    steps=_step_rows(a, steps), events=events, diff=view.final_diff(a))

    @app.get("/compare", response_class=HTMLResponse)
    def compare_page(request: Request, a: int, b: int):
        left, right = get_attempt(a), get_attempt(b)
        sides = [{"a": _attempt_json(x), "criteria": _criteria(x), "steps": _step_rows(x, view.steps(x.id))} for x in (left, right)]
        return page(request, "compare.html", sides=sides, rows=max(len(s["steps"]) for s in sides))

    def _step_rows(a: AttemptRecord, steps) -> list[dict]:
        return [{"index": s.index, "url": s.url, "action": s.action, "error": row_error(steps, k), "latency_s": s.latency_s,
                 "raw_output": s.raw_output, "screenshot": f"/attempt/{a.id}/screenshot/{k}" if s.screenshot else None,
                 "axtree": "\n".join(s.axtree.splitlines()[:AXTREE_EXCERPT]), "axtree_lines": len(s.axtree.splitlines())}
                for k, s in enumerate(steps)]

    @app.get("/attempt/{attempt_id}/screenshot/{step}")
    def screenshot(attempt_id: int, step: int):
        a = get_attempt(attempt_id)
        steps = view.steps(a.id)
        if not 0 <= step < len(steps) or not steps[step].screenshot:
            raise HTTPException(404, f"attempt {attempt_id} step {step} has no screenshot")
        data = view.screenshot(a, steps[step].screenshot)
        if data is None:
            raise HTTPException(404, f"screenshot {steps[step].screenshot} is not in the object store")
        return Response(data, media_type="image/png")

    # ---- diagnosis API -------------------------------------------------------------------------
    @app.get("/api/runs")
    def api_runs():
        return [r.model_dump() for r in view.runs()]

    @app.get("/api/attempts")
    def api_attempts(run: str | None = None, agent: str | None = None, task: str | None = None, status: str | None = None,
                     by: GroupBy | None = None, key: str | None = None):
        """Attempts by outcome: filtered, and counted per status."""
        chosen = view.attempts(run=run, agent=agent, task_id=task, status=status, group=(by, key) if by and key else None)
        counts: dict[str, int] = {}
        for a in chosen:
            counts[status_of(a)] = counts.get(status_of(a), 0) + 1
        return {"counts": counts, "attempts": [_attempt_json(a) for a in chosen]}

    @app.get("/api/breakdown")
    def api_breakdown(run: str | None = None, agent: str | None = None, by: GroupBy = "capability"):
        """Success by app, family, difficulty, capability or task over scored attempts; env errors beside."""
        return [r.model_dump() for r in rate_rows(view.attempts(run=run, agent=agent), by)]

    @app.get("/api/criteria")
    def api_criteria(run: str | None = None, agent: str | None = None, task: str | None = None):
        """Criteria failure rates, worst first."""
        return view.criteria_rates(view.attempts(run=run, agent=agent, task_id=task))

    @app.get("/api/events")
    def api_events(run: str | None = None, agent: str | None = None, status: str = Query("failure")):
        """Step-level events of every attempt with this status (default: failures)."""
        return [e.model_dump() for a in view.attempts(run=run, agent=agent, status=status) for e in attempt_events(a, view.steps(a.id))]

    @app.get("/api/attempts/{attempt_id}")
    def api_attempt(attempt_id: int):
        a = get_attempt(attempt_id)
        return {**_attempt_json(a), "criteria": _criteria(a), "instruction": (a.info.get("task") or {}).get("instruction")}

    @app.get("/api/attempts/{attempt_id}/steps")
    def api_steps(attempt_id: int):
        steps = view.steps(get_attempt(attempt_id).id)
        return [{**s.model_dump(), "error": row_error(steps, k)} for k, s in enumerate(steps)]  # each action's own error

    @app.get("/api/attempts/{attempt_id}/events")
    def api_attempt_events(attempt_id: int):
        a = get_attempt(attempt_id)
        return [e.model_dump() for e in attempt_events(a, view.steps(a.id))]

    @app.get("/api/attempts/{attempt_id}/diff")
    def api_diff(attempt_id: int):
        """The attempt's final-state changes against a successful reference's (the golden's first)."""
        return view.final_diff(get_attempt(attempt_id))

    @app.get("/api/attempts/{attempt_id}/steps/{step}/prompt")
    def api_prompt(attempt_id: int, step: int):
        """The prompt window the model saw at that step, as text."""
        try:
            return JSONResponse({"step": step, "prompt": view.prompt(get_attempt(attempt_id), step)})
        except IndexError as err:
            raise HTTPException(404, str(err)) from None

    return app
