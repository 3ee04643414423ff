"""A spec's escape hatch and its signed-in user: an extension folder adds a custom page (its own route, template and
POST) beside the archetypes, in a server process of its own; a custom page the spec cannot serve is refused; a compiled
app shows the world persona it is projected for (not a fixed name), and its default seed signs in the default one."""

from __future__ import annotations

import pytest

from factory.worlds.builder import build_world
from mocked_apps.kit import AppServer
from mocked_apps.kit.compiler import projection
from mocked_apps.kit.process import HostedAppServer
from mocked_apps.kit.spec import SpecError, read_spec
from mocked_apps.kit.testing import Client

SPEC = """name: shelfnote
title: Shelfnote
category: library
description: Books to read - and a reading-goal page the spec cannot express.
extension: ext
entities:
  book:
    title: title
    fields:
      title: {sample: title, unique: true}
      pages: {type: int, sample: [80, 600]}
    states: [unread, read]
    transitions:
      finish: {from: [unread], to: read, label: Mark as read}
    create: [title, pages]
    rows: 6
pages:
  - {archetype: table, entity: book, title: Books}
  - {archetype: custom, path: /goal, title: Reading goal}
"""

ROUTES = '''
from sqlmodel import select

from mocked_apps.kit.archetypes.common import render
from mocked_apps.kit.context import GymDep


def mount(app, router):
    book = app.model("book")

    @router.get("/goal")
    def goal(gym: GymDep):
        rows = gym.db.exec(select(book)).all()
        read = sum(r.pages or 0 for r in rows if r.status == "read")
        return render(app, gym, "goal.html", "Reading goal", read=read, left=[r for r in rows if r.status == "unread"])

    @router.post("/goal/finish-all")
    def finish_all(gym: GymDep):
        for r in gym.db.exec(select(book).where(book.status == "unread")).all():
            r.status = "read"
            gym.db.add(r)
        return gym.done("/goal", notice="All books read")
'''

TEMPLATE = """{% extends "arch/layout.html" %}
{% block content %}<h1>{{ page_heading }}</h1><p id="read">{{ read }} pages read</p>
<ul>{% for r in left %}<li>{{ r.title }}</li>{% endfor %}</ul>
<form method="post" action="{{ url('/goal/finish-all') }}"><button type="submit">Mark all as read</button></form>{% endblock %}
"""


@pytest.fixture(scope="module")
def shelfnote(tmp_path_factory):
    root = tmp_path_factory.mktemp("shelfnote")
    (root / "ext" / "templates").mkdir(parents=True)
    (root / "shelfnote.yaml").write_text(SPEC)
    (root / "ext" / "routes.py").write_text(ROUTES)
    (root / "ext" / "templates" / "goal.html").write_text(TEMPLATE)
    return root / "shelfnote.yaml"


@pytest.fixture(scope="module")
def server(shelfnote):
    server = AppServer(str(shelfnote))
    assert not isinstance(server, HostedAppServer)  # an extension's code never runs in the shared host
    with server:
        yield server


def test_an_extension_adds_a_custom_page_beside_the_archetypes(server):
    with Client(server) as app:
        home = app.get("/").text
        assert 'aria-label="Reading goal"' in home and "Alex Morgan" in home  # in the nav; the default seed's user
        before = app.get("/goal").text
        rows = app.state()["book"]
        unread = [r for r in rows if r["status"] == "unread"]
        assert f"{sum(r['pages'] for r in rows if r['status'] == 'read')} pages read" in before
        assert unread and all(r["title"] in before for r in unread)
        assert app.post("/goal/finish-all") == "/goal?notice=All+books+read"
        assert {r["status"] for r in app.state()["book"]} == {"read"}
        assert app.get("/book").status_code == 200  # the archetypes' pages are still there


def test_custom_pages_need_the_extension_and_a_path_of_their_own(tmp_path, shelfnote):
    cases = {
        SPEC.replace("extension: ext\n", ""): "set `extension: FOLDER`",
        SPEC.replace("path: /goal, ", ""): "give it a `path` and a `title`",
        SPEC.replace("path: /goal", "path: /book/goal"): "under a route the archetypes own",
    }
    for text, says in cases.items():
        (tmp_path / "bad.yaml").write_text(text.replace("name: shelfnote", "name: bad"))
        with pytest.raises(SpecError, match=says.replace("`", ".").replace("(", ".").replace(")", ".")):
            read_spec(tmp_path / "bad.yaml")
    (tmp_path / "noext.yaml").write_text(SPEC.replace("name: shelfnote", "name: noext"))
    from mocked_apps.kit.compiler import load_spec_package

    with pytest.raises(SpecError, match="no ext/routes.py"):
        load_spec_package(str(tmp_path / "noext.yaml"))


def test_a_compiled_app_shows_the_persona_of_its_world(shelfnote, server):
    spec = read_spec(shelfnote)
    rosa = build_world("rosa", "month_end", 0)
    seed = projection(spec)(rosa)
    assert seed["_identity"] == [{"name": rosa.persona.name, "email": rosa.persona.email, "company": rosa.persona.company}]
    with Client(server, seed=seed, clock=rosa.scenario.clock.isoformat()) as app:
        page = app.get("/book").text
        assert rosa.persona.name in page and "Alex Morgan" not in page
        assert ">RD<" in page  # the avatar's initials
        assert "_identity" not in app.state()  # who is signed in is not app state


def test_a_changed_spec_or_extension_compiles_afresh(tmp_path):
    """A long-lived process (the shared host, a synthesis session) never serves a spec's old version."""
    import os

    from mocked_apps.kit.compiler import load_spec_package

    (tmp_path / "ext" / "templates").mkdir(parents=True)
    (tmp_path / "ext" / "routes.py").write_text("def mount(app, router):\n    pass\n")
    spec = tmp_path / "shelfnote.yaml"
    spec.write_text(SPEC)
    first = load_spec_package(str(spec))
    assert load_spec_package(str(spec)) is first
    (tmp_path / "ext" / "templates" / "goal.html").write_text(TEMPLATE)
    second = load_spec_package(str(spec))
    assert second is not first and second.template_dirs == (tmp_path / "ext" / "templates",)
    spec.write_text(SPEC.replace("title: Shelfnote", "title: Shelf Notes"))
    os.utime(spec, ns=(spec.stat().st_atime_ns, spec.stat().st_mtime_ns + 10**9))
    assert load_spec_package(str(spec)).manifest.title == "Shelf Notes"
