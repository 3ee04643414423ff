"""The clips app over real HTTP and a real browser: feeds and who can watch what, likes, comments, follows,
sharing to contacts and the inbox, posting and editing a video's metadata; the projection; the families'
verifiers against the cheap ways to look done."""

from __future__ import annotations

import copy
import json
import random
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from contracts.scoring import Final
from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.clips")
SEED = json.loads((Path(__file__).resolve().parents[1] / "seed.json").read_text())


@pytest.fixture
def clips(server):
    with Client(server) as instance:
        yield instance


def _video(state, title):
    return next(v for v in state["video"] if v["title"] == title)


def _creator(state, name):
    return next(c for c in state["creator"] if c["name"] == name)


def test_feeds_and_who_can_watch(server):
    seed = copy.deepcopy(SEED["seed"])
    for v in seed["video"]:
        if v["id"] in (4, 10):  # a followed colleague's and a not-followed vendor's video: friends only
            v["visibility"] = "friends"
    with Client(server, seed=seed, clock=SEED["clock"]) as app:
        state = app.state()
        foryou, following = app.get("/").text, app.get("/", tab="following").text
        assert "Lisbon in 48 hours" in foryou and "Our studio in Portland" not in foryou  # not your own in For You
        assert "Moodboard for the new brand" not in foryou and "Moodboard for the new brand" in following
        assert "Dumplings from scratch" not in following  # Chef Luo is not followed
        assert app.http.get("/v/10").status_code == 404 and app.http.get("/v/10/share").status_code == 404
        assert "Peterson Office Supplies</" not in app.get("/search", q="Behind the scenes").text
        assert "Office tour draft" in app.get("/me").text and app.http.get("/v/3/share").status_code == 200
        assert app.post("/v/3/share", to="2", message="hi") == "/v/3/share?error=private&message=hi"
        assert app.state() == state


def test_like_comment_follow(clips):
    state = clips.state()
    lisbon = _video(state, "Lisbon in 48 hours")
    assert clips.post(f"/v/{lisbon['id']}/like").startswith(f"/v/{lisbon['id']}?notice=Liked")
    assert _video(clips.state(), "Lisbon in 48 hours")["liked"] is True
    assert "Liked" in clips.get(f"/v/{lisbon['id']}").text and "Lisbon in 48 hours" in clips.get("/me", tab="liked").text
    clips.post(f"/v/{lisbon['id']}/like")
    assert _video(clips.state(), "Lisbon in 48 hours")["liked"] is False
    before = clips.state()
    assert clips.post(f"/v/{lisbon['id']}/comment", body="   ") == f"/v/{lisbon['id']}?error=empty&body=+++"
    assert clips.post(f"/v/{lisbon['id']}/comment", body="x" * 301).startswith(f"/v/{lisbon['id']}?error=long")
    assert clips.state() == before
    clips.post(f"/v/{lisbon['id']}/comment", body="  Going   there in May ")
    mine = clips.state()["videocomment"][-1]
    assert (mine["video_id"], mine["creator_id"], mine["body"]) == (lisbon["id"], 1, "Going there in May")
    assert "Going there in May" in clips.get(f"/v/{lisbon['id']}").text
    other = next(c for c in before["videocomment"] if c["creator_id"] != 1)
    assert clips.post(f"/comment/{other['id']}/delete").endswith("own+comments")
    clips.post(f"/comment/{mine['id']}/delete")
    assert len(clips.state()["videocomment"]) == len(before["videocomment"])
    luo = _creator(state, "Chef Luo")
    assert clips.post(f"/u/{luo['id']}/follow") == f"/u/{luo['id']}?notice=Following+Chef+Luo"
    assert _creator(clips.state(), "Chef Luo")["following"] is True
    assert "Dumplings from scratch" in clips.get("/", tab="following").text
    assert clips.post("/u/1/follow") == "/u/1?notice=That+is+you" and clips.state()["creator"][0]["following"] is False


def test_share_to_contacts_and_inbox(clips):
    state = clips.state()
    noodles = _video(state, "5-minute scallion noodles")
    ann, gary, luo = (_creator(state, n)["id"] for n in ("Ann Matthews", "Gary Douglas", "Chef Luo"))
    sheet = clips.get(f"/v/{noodles['id']}/share").text
    assert "Ann Matthews" in sheet and "Chef Luo" not in sheet  # only contacts
    before = clips.state()
    assert clips.post(f"/v/{noodles['id']}/share", message="lunch?") == f"/v/{noodles['id']}/share?error=nobody&message=lunch%3F"
    assert clips.post(f"/v/{noodles['id']}/share", to=str(luo)) == f"/v/{noodles['id']}/share?error=nobody"
    assert clips.state() == before
    where = clips.http.post(f"/v/{noodles['id']}/share", data={"to": [str(ann), str(gary)], "message": " Lunch   idea "})
    assert where.status_code == 303 and "Sent+to+Ann+Matthews%2C+Gary+Douglas" in where.headers["location"]
    new = clips.state()["share"][len(before["share"]):]
    assert [(s["video_id"], s["contact_id"], s["message"]) for s in new] == [(noodles["id"], ann, "Lunch idea"), (noodles["id"], gary, "Lunch idea")]
    inbox = clips.get("/inbox").text
    assert inbox.index("Ann Matthews") < inbox.index("Alexander Estes")  # newest thread first
    assert "5-minute scallion noodles" in clips.get(f"/inbox/{gary}").text


def test_post_and_edit_a_videos_metadata(clips):
    before = clips.state()
    bad = clips.http.post("/upload", data={"clip": "2", "title": " ", "visibility": "everyone"})
    assert bad.status_code == 422 and "Give your video a title." in bad.text and "Choose who can watch." in bad.text
    assert clips.state() == before
    where = clips.post("/upload", clip="2", title=" Coffee art ", caption="Third try", tags="#Coffee, latteart #coffee", visibility="friends")
    video = clips.state()["video"][-1]
    assert where == f"/v/{video['id']}?notice=Your+video+is+posted"
    assert (video["creator_id"], video["title"], video["tags"], video["visibility"], video["allow_comments"], video["duration_s"]) == (
        1, "Coffee art", "coffee,latteart", "friends", False, 32)
    assert "Friends can watch" in clips.get(f"/v/{video['id']}").text
    assert 'value="#coffee #latteart"' in clips.get(f"/v/{video['id']}/edit").text
    clips.post(f"/v/{video['id']}/edit", title="Coffee art", caption="Third try", tags="#coffee #latteart", visibility="public", allow_comments="1")
    edited = clips.state()["video"][-1]
    assert (edited["visibility"], edited["allow_comments"], edited["tags"]) == ("public", True, "coffee,latteart")
    assert "Everyone can watch" in clips.get(f"/v/{video['id']}").text
    assert clips.http.get("/v/18/edit").status_code == 404 and clips.http.post("/v/18/delete").status_code == 404
    clips.post(f"/v/{video['id']}/delete")
    assert clips.state()["video"] == before["video"]


def test_main_flow_in_a_real_browser_at_both_sizes(clips):
    with browser_pages() as pages:
        for (form_factor, page), title in zip(pages, ("Corgi meets snow", "Glaze test results")):
            page.goto(clips.url("/"))
            page.get_by_label("Search videos").fill(title.split()[0])
            page.keyboard.press("Enter")
            page.get_by_role("link", name=title, exact=True).click()
            page.get_by_role("button", name="Like", exact=True).click()
            expect(page.get_by_role("button", name="Liked", exact=True)).to_be_visible()  # waits: the liked page may still be loading
            page.get_by_role("link", name="Share", exact=True).click()
            page.get_by_label("Ann Matthews").check()
            page.get_by_label("Message").fill(f"from {form_factor}")
            page.get_by_role("button", name="Send").click()
            assert "Sent to Ann Matthews" in page.inner_text("main"), form_factor
            page.get_by_role("link", name="Post a video").click()
            page.get_by_label("Title").fill(f"Snow day {form_factor}")
            page.get_by_label("Who can watch").select_option(label="Only me")
            page.get_by_role("button", name="Post video").click()
            assert "Only me can watch" in page.inner_text("main"), form_factor
    assert pages.errors == []
    state = clips.state()
    assert [s["message"] for s in state["share"][-2:]] == ["from desktop", "from mobile"]
    assert [v["visibility"] for v in state["video"][-2:]] == ["private", "private"]


def _world():
    from contracts.world import Meeting, Organisation, Person, Persona, Scenario, World

    persona = Persona(id="p", name="Rosa Delgado", email="rosa@db.example", role="owner", company="Delgado Bakery", domain="db.example", city="San Antonio")
    people = (Person(id="u", name="Rosa Delgado", email="rosa@db.example", org="o1", role="owner"),
              Person(id="c1", name="Åke Berg", email="ake@db.example", org="o1", role="designer"),
              Person(id="c2", name="Mia Lund", email="mia@flour.example", org="o2", role="accounts"),
              Person(id="c3", name="Tomas Lund", email="tomas@flour.example", org="o2", role="accounts"))
    orgs = (Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),
            Organisation(id="o2", name="Flour Mill", kind="vendor", domain="flour.example"))
    clock = datetime(2026, 4, 6, 9)
    meeting = Meeting(id="m1", title="Flour order review", start=datetime(2026, 4, 8, 10), end=datetime(2026, 4, 8, 11),
                      location="Office", organizer="u", attendees=("c2", "c3"))
    return World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=clock), user="u",
                 organisations=orgs, people=people, meetings=(meeting,))


def test_projection_keeps_the_worlds_people():
    from mocked_apps.clips.projection import project

    world = _world()
    rows = project(world)
    me, *others = rows["creator"]
    assert (me["name"], me["email"], me["is_me"]) == ("Rosa Delgado", "rosa@db.example", True)
    contacts = [(c["name"], c["email"], c["handle"], c["following"]) for c in others if c["is_contact"]]
    assert contacts == [("Åke Berg", "ake@db.example", "ake.berg", True), ("Mia Lund", "mia@flour.example", "mia.lund", False),
                        ("Tomas Lund", "tomas@flour.example", "tomas.lund", False)]
    titles = [v["title"] for v in rows["video"]]
    assert len(set(titles)) == len(titles) and "Behind the scenes at Flour Mill (part 2)" in titles
    assert all(v["posted_at"] < "2026-04-06T09:00:00" for v in rows["video"]) and all(c["posted_at"] <= "2026-04-06T09:00:00" for c in rows["videocomment"])
    assert project(world) == rows


def _verdicts(source: str, initial: dict, after: dict) -> dict:
    scope: dict = {}
    exec(compile(source, "verifier", "exec"), scope)  # the family's own verifier code, on hand-made finals
    return scope["verify"](Final(state={"clips": after}, initial_state={"clips": initial}, answer=None))


def test_share_verifiers_refuse_the_shortcuts():
    """Sending to everyone, to one guest only, or with another message fails; the exact shares pass."""
    from mocked_apps.clips.families import ShareWithMeeting
    from mocked_apps.clips.projection import project

    world = _world()
    family = ShareWithMeeting()
    req = family.requirements(world, random.Random(0))
    ctx = req.answer_context
    assert ctx["recipients"] == ["Mia Lund", "Tomas Lund"]
    initial = project(world)
    source = family.verifier(req)

    def sent(to, message=ctx["message"], video=ctx["video_id"]):
        rows = [{"id": 100 + i, "video_id": video, "contact_id": c, "message": message, "sent_at": "2026-04-06T09:00:00"} for i, c in enumerate(to)]
        return dict(initial, share=initial["share"] + rows)

    everyone = [c["id"] for c in initial["creator"] if c["is_contact"]]
    assert all(_verdicts(source, initial, sent(ctx["recipient_ids"])).values())
    assert not _verdicts(source, initial, sent(everyone))["sent"]
    assert not _verdicts(source, initial, sent(ctx["recipient_ids"][:1]))["sent"]
    assert not _verdicts(source, initial, sent(ctx["recipient_ids"], message="hi"))["message"]
    assert not _verdicts(source, initial, sent(ctx["recipient_ids"], video=ctx["video_id"] + 1))["sent"]
    assert not any(_verdicts(source, initial, initial).values())
