"""The notes app over real HTTP and a real browser: Explore by channel, likes, comments, follows, collections
(collect, a new one, duplicates refused, remove), search by place and hashtag, posting a note; the projection;
the collection verifier against the cheap ways to look done."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from contracts.scoring import Final
from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.notes")


@pytest.fixture
def notes(server):
    with Client(server) as instance:
        yield instance


def _note(state, title):
    return next(n for n in state["notepost"] if n["title"] == title)


def test_explore_search_like_comment_follow(notes):
    state = notes.state()
    food = notes.get("/", channel="food").text
    assert "Best flat white in Portland" in food and "Beginner 5K plan that worked" not in food
    assert "Best flat white in Portland" in notes.get("/search", q="Little Fern").text  # by place
    assert "Where I buy my plants" in notes.get("/search", q="#plants").text
    flat = _note(state, "Best flat white in Portland")
    page = notes.get(f"/n/{flat['id']}").text
    assert "Little Fern Coffee" in page and "14 Market Street, Portland" in page
    notes.post(f"/n/{flat['id']}/like")
    assert _note(notes.state(), flat["title"])["liked"] is True and flat["title"] in notes.get("/me", tab="liked").text
    before = notes.state()
    assert notes.post(f"/n/{flat['id']}/comment", body=" ") == f"/n/{flat['id']}?error=empty&body=+"
    assert notes.state() == before
    notes.post(f"/n/{flat['id']}/comment", body="Going  on Saturday")
    mine = notes.state()["notecomment"][-1]
    assert (mine["note_id"], mine["author_id"], mine["body"]) == (flat["id"], 1, "Going on Saturday")
    lily = flat["author_id"]
    following = [a["following"] for a in state["author"] if a["id"] == lily][0]
    notes.post(f"/u/{lily}/follow")
    assert [a["following"] for a in notes.state()["author"] if a["id"] == lily] == [not following]
    notes.post(f"/u/{lily}/follow")
    assert [a["following"] for a in notes.state()["author"] if a["id"] == lily] == [following]
    assert notes.post("/u/1/follow") == "/u/1?notice=That+is+you"


def test_collections(notes):
    state = notes.state()
    yoga = _note(state, "Yoga studio with drop-in classes")
    assert notes.post(f"/n/{yoga['id']}/collect", board="1") == f"/n/{yoga['id']}?notice=Collected+to+Weekend+ideas"
    assert notes.post(f"/n/{yoga['id']}/collect", board="1") == f"/n/{yoga['id']}?notice=Already+in+Weekend+ideas"
    before = notes.state()
    assert "error=You+already+have" in notes.post(f"/n/{yoga['id']}/collect", board="new", name=" weekend  IDEAS ")
    assert "error=Name+the+collection" in notes.post(f"/n/{yoga['id']}/collect", board="new", name="")
    assert "error=Choose+a+collection" in notes.post(f"/n/{yoga['id']}/collect", board="99")
    assert notes.state() == before
    notes.post(f"/n/{yoga['id']}/collect", board="new", name="Fit  March")
    after = notes.state()
    board = after["board"][-1]
    assert board["name"] == "Fit March" and [(c["note_id"], c["board_id"]) for c in after["collect"][-2:]] == [(yoga["id"], 1), (yoga["id"], board["id"])]
    assert "Yoga studio with drop-in classes" in notes.get(f"/board/{board['id']}").text
    notes.post(f"/board/{board['id']}/remove/{yoga['id']}")
    assert len(notes.state()["collect"]) == len(after["collect"]) - 1
    assert notes.post("/boards", name="Fit march") == "/me?tab=collections&error=You+already+have+a+collection+with+this+name.&name=Fit+march"
    assert notes.post("/boards", name="Secret", private="1").startswith("/board/")
    assert notes.state()["board"][-1]["private"] is True


def test_post_a_note(notes):
    before = notes.state()
    bad = notes.http.post("/post", data={"images": "12", "title": "", "place_address": "1 Main St"})
    assert bad.status_code == 422 and "Give your note a title" in bad.text and "Name the place at this address." in bad.text
    assert notes.state() == before
    where = notes.post("/post", images="3", title="Rooftop bar", body="Sunset spritz", tags="#Drinks #city, drinks", place="Skyline Terrace",
                       place_address="400 Summit Avenue")
    note = notes.state()["notepost"][-1]
    assert where == f"/n/{note['id']}?notice=Your+note+is+posted"
    assert (note["author_id"], note["images"], note["tags"], note["place"]) == (1, 3, "drinks,city", "Skyline Terrace")
    assert "Rooftop bar" in notes.get("/me").text


def test_main_flow_in_a_real_browser_at_both_sizes(notes):
    with browser_pages() as pages:
        for (form_factor, page), title in zip(pages, ("Where I buy my plants", "The bookshop with a cat")):
            page.goto(notes.url("/"))
            page.get_by_label("Search notes").fill(title)
            page.keyboard.press("Enter")
            page.get_by_role("link", name=title, exact=True).click()
            page.get_by_role("button", name="Like", exact=True).click()
            page.get_by_role("link", name="Collect", exact=True).click()
            page.get_by_label("New collection").check()
            page.get_by_label("Collection name").fill(f"From {form_factor}")
            page.get_by_role("button", name="Save to collection").click()
            assert f"Collected to From {form_factor}" in page.inner_text("main"), form_factor
    assert pages.errors == []
    state = notes.state()
    assert [b["name"] for b in state["board"][-2:]] == ["From desktop", "From mobile"]


def _world():
    from contracts.world import Organisation, Person, Persona, Scenario, World

    persona = Persona(id="p", name="Rosa Delgado", email="rosa@db.example", role="owner", company="Delgado Bakery", domain="db.example", city="San Antonio")
    people = (Person(id="u", name="Rosa Delgado", email="rosa@db.example", org="o1", role="owner"),
              Person(id="c1", name="Åke Berg", email="ake@db.example", org="o1", role="designer"))
    return World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=datetime(2026, 4, 6, 9)), user="u",
                 organisations=(Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),), people=people)


def test_projection_places_are_in_the_personas_city():
    from mocked_apps.notes.projection import project

    world = _world()
    rows = project(world)
    assert rows["author"][0]["name"] == "Rosa Delgado" and ("Åke Berg", "akeberg", True) in [(a["name"], a["handle"], a["following"]) for a in rows["author"]]
    places = [n["place_address"] for n in rows["notepost"] if n["place"]]
    assert places and all(p.endswith("San Antonio") for p in places)
    assert all(n["posted_at"] < "2026-04-06T09:00:00" for n in rows["notepost"]) and project(world) == rows


def test_new_collection_verifier_refuses_the_shortcuts():
    """Collecting into an old collection, only one of the two notes, or everything fails; the exact collects pass."""
    from mocked_apps.notes.families import NewCollection
    from mocked_apps.notes.projection import project

    world = _world()
    family = NewCollection()
    req = family.requirements(world, random.Random(1))
    ctx, initial = req.answer_context, project(world)
    source = family.verifier(req)
    scope: dict = {}
    exec(compile(source, "verifier", "exec"), scope)

    def final(board_name, note_ids):
        board = {"id": 9, "name": board_name, "private": False, "created_at": "2026-04-06T09:00:00"}
        rows = [{"id": 50 + i, "note_id": n, "board_id": 9, "saved_at": "2026-04-06T09:00:00"} for i, n in enumerate(note_ids)]
        after = dict(initial, board=initial["board"] + [board], collect=initial["collect"] + rows)
        return scope["verify"](Final(state={"notes": after}, initial_state={"notes": initial}, answer=None))

    everything = [n["id"] for n in initial["notepost"]]
    assert all(final(ctx["board"], ctx["note_ids"]).values())
    assert not final("Weekend ideas", ctx["note_ids"])["collection"]
    assert not final(ctx["board"], ctx["note_ids"][:1])["collected"]
    assert not final(ctx["board"], everything)["only_these"]
    assert not any(scope["verify"](Final(state={"notes": initial}, initial_state={"notes": initial}, answer=None)).values())
