"""An app from outside the repository — one folder, with its own projection and families — gets tasks
synthesized and validated with no edit to factory/, runtime/ or any registry (issue #13).

The app is written into a temporary folder here, the way an outside author would write it from
docs/apps.md, and made visible only through `GYMFACTORY_APP_PATH`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from factory.tasks.families import FAMILIES
from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, validate_tasks
from factory.worlds.seeds import PROJECTIONS
from mocked_apps.registry import available
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore

FILES = {
    "__init__.py": '"""Memos: an app written outside gymfactory."""\n',
    "manifest.py": '''
        from mocked_apps.kit import AppManifest, PageSpec

        MANIFEST = AppManifest(name="memos", title="Memos", category="productivity",
                               description="Short memos about the documents of a world.",
                               pages=(PageSpec(path="/", title="All memos"),))
    ''',
    "models.py": '''
        from pydantic import NaiveDatetime
        from sqlmodel import Field, SQLModel


        class Memo(SQLModel, table=True):
            id: int | None = Field(default=None, primary_key=True)
            title: str = Field(min_length=1)
            body: str = ""
            pinned: bool = False
            written_at: NaiveDatetime
    ''',
    "routes.py": '''
        from fastapi import APIRouter
        from sqlmodel import select

        from mocked_apps.kit import GymDep

        from .models import Memo

        router = APIRouter()


        @router.get("/")
        def index(gym: GymDep):
            return gym.render("index.html", memos=gym.db.exec(select(Memo).order_by(Memo.pinned.desc(), Memo.id)).all())


        @router.get("/memo/{memo_id}")
        def show(gym: GymDep, memo_id: int):
            return gym.render("memo.html", memo=gym.get(Memo, memo_id))


        @router.post("/memo/{memo_id}/pin")
        def pin(gym: GymDep, memo_id: int):
            memo = gym.get(Memo, memo_id)
            memo.pinned = not memo.pinned
            return gym.done(f"/memo/{memo_id}")
    ''',
    "seed.json": '{"clock": "2026-03-02T09:00:00", "seed": {"memo": [{"id": 1, "title": "Hello", "written_at": "2026-03-01T09:00:00"}]}}\n',
    "templates/layout.html": '''
        {% extends "kit/base.html" %}
        {% import "kit/macros.html" as kit %}
        {% block nav %}{{ kit.navlink(url('/'), 'All memos', current_path) }}{% endblock %}
    ''',
    "templates/index.html": '''
        {% extends "layout.html" %}
        {% block content %}<h1>All memos</h1><ul>
        {% for m in memos %}<li><a href="{{ url('/memo/%d' % m.id) }}">{{ m.title }}</a></li>{% endfor %}
        </ul>{% endblock %}
    ''',
    "templates/memo.html": '''
        {% extends "layout.html" %}
        {% block content %}<h1>{{ memo.title }}</h1>
        {{ kit.post_button(url('/memo/%d/pin' % memo.id), 'Unpin' if memo.pinned else 'Pin', 'secondary') }}
        <p>{{ memo.body }}</p>{% endblock %}
    ''',
    "projection.py": '''
        """World -> memos: one memo per document of the world."""


        def project(world):
            return {"memo": [{"id": i + 1, "title": d.name, "body": d.text[:200], "written_at": d.modified.isoformat()}
                             for i, d in enumerate(sorted(world.documents, key=lambda d: d.id))]}
    ''',
    "recipes.py": '''
        def open_memo(title):
            return f"env.click({title!r}, role='link')"
    ''',
    "families.py": '''
        from collections import Counter

        from contracts.family import Family, pick, say, solve_source
        from contracts.task import Criterion

        from .recipes import open_memo


        class PinMemo(Family):
            name = "memos.pin"
            apps = ("memos",)
            description = "Pin the memo about a document."
            difficulty = "easy"
            capabilities = ("navigate",)
            verifier_template = """
        def verify(final):
            ids = [m["id"] for m in final.initial_state["memos"]["memo"] if m["title"] == {{ title|py }}]
            after = {m["id"]: m for m in final.state["memos"]["memo"]}
            return {"pinned": bool(ids) and after[ids[0]]["pinned"] is True}
        """

            def requirements(self, world, rng):
                counts = Counter(d.name for d in world.documents)
                doc = pick(rng, sorted(d.name for d in world.documents if counts[d.name] == 1))
                if doc is None:
                    return None
                return self._req(say(rng, world, "Pin the memo '{title}'.", title=doc), {"title": doc},
                                 [Criterion(id="pinned", description=f"The memo '{doc}' is pinned.")])

            def golden(self, req):
                return solve_source(open_memo(req.answer_context["title"]), "env.click('Pin', role='button')")


        FAMILIES = (PinMemo(),)
    ''',
}


@pytest.fixture(scope="module")
def outside_app(tmp_path_factory):
    """The app folder, outside the repository, on GYMFACTORY_APP_PATH."""
    root = tmp_path_factory.mktemp("outside") / "apps"
    for rel, text in FILES.items():
        path = root / "memos" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_APP_PATH", str(root))
    mp.setenv("GYMFACTORY_HOME", str(tmp_path_factory.mktemp("gymhome")))
    yield root / "memos"
    mp.undo()


def test_the_app_is_discovered_with_its_projection_and_families(outside_app):
    repo = Path(__file__).resolve().parents[2]
    assert not outside_app.is_relative_to(repo)
    assert available()["memos"] == str(outside_app)
    assert "memos" in PROJECTIONS and "memos.pin" in FAMILIES


def test_its_tasks_are_synthesized_and_validated(outside_app, tmp_path):
    tasks = synthesize(SynthConfig(n=2, families=("memos.pin",), personas=("alex",), scenarios=("month_end",), seed=1))
    assert len(tasks) == 2 and all(t.apps == ("memos",) and t.seed["memos"]["memo"] for t in tasks)
    with EnvironmentManager(screenshots=ObjectStore(tmp_path / "shots")) as manager:
        results = validate_tasks(tasks, manager, ValidationConfig(verifier_timeout_s=5.0, golden_timeout_s=60.0))
    assert [r.accepted for r in results] == [True, True], [(r.reason, r.detail) for r in results]
    assert all(r.verdicts["run1.golden"] == {"pinned": True} for r in results)
