"""The mail app over real HTTP and a real Chromium: flows change exactly the state they should."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer
from mocked_apps.kit.viewstate import without_view_state
from mocked_apps.mail.manifest import MANIFEST

ME = "alex.morgan@northwind.example"
SHOTS = Path("/tmp/gf")


@pytest.fixture(scope="module")
def server():
    with AppServer("mocked_apps.mail") as srv:
        yield srv


@pytest.fixture
def mail(server):
    """A fresh default-seed instance: (http client rooted at the instance, admin helpers)."""
    inst = server.admin.create()
    iid = inst["instance_id"]
    with httpx.Client(base_url=f"{server.url}/i/{iid}", follow_redirects=False, timeout=30) as http:
        yield _Mail(http, lambda: server.admin.state(iid))
    server.admin.delete(iid)


class _Mail:
    def __init__(self, http: httpx.Client, state):
        self.http = http
        self.state = state

    def post(self, path: str, **data) -> httpx.Response:
        response = self.http.post(path, data=data)
        assert response.status_code == 303, (path, response.status_code, response.text[:500])
        return response

    def thread_ids(self, path: str, **params) -> list[int]:
        html = self.http.get(path, params=params).text
        return [int(i) for i in re.findall(r'class="open" href="/i/[0-9a-f]+/thread/(\d+)"', html)]


def _by_id(rows: list[dict]) -> dict[int, dict]:
    return {r["id"]: r for r in rows}


def _messages(state: dict, thread_id: int) -> list[dict]:
    return [m for m in state["message"] if m["thread_id"] == thread_id]


def _files(state: dict, message_id: int) -> list[tuple[str, int]]:
    return [(a["filename"], a["size_kb"]) for a in state["attachment"] if a["message_id"] == message_id]


def _thread(state: dict, subject: str) -> dict:
    (thread,) = [t for t in state["thread"] if t["subject"] == subject]
    return thread


def _invoices(state: dict, unread: bool) -> list[tuple[dict, dict, dict]]:
    """(thread, message, attachment) of every inbox invoice thread, read or unread as asked, oldest first."""
    threads, messages = _by_id(state["thread"]), _by_id(state["message"])
    found = []
    for a in state["attachment"]:
        msg = messages[a["message_id"]]
        thread = threads[msg["thread_id"]]
        if a["content"].startswith("INVOICE") and thread["folder"] == "inbox" and (not msg["read"]) == unread:
            found.append((thread, msg, a))
    return found


def _folder(state: dict, folder: str) -> list[dict]:
    return [t for t in state["thread"] if t["folder"] == folder]


@pytest.fixture(scope="module")
def seed(server) -> dict:
    """The default seed's state, read from a fresh instance: what the tests pick their threads from."""
    inst = server.admin.create()
    try:
        return server.admin.state(inst["instance_id"])
    finally:
        server.admin.delete(inst["instance_id"])


def _lunch(seed: dict) -> dict:
    """The colleagues' three-message lunch thread: starred, its last message unread, sent to two people."""
    return _thread(seed, "Lunch on Friday?")


def test_default_seed_is_a_believable_mailbox(seed):
    assert 20 <= len(seed["thread"]) <= 35 and 25 <= len(seed["message"]) <= 60
    assert {t["folder"] for t in seed["thread"]} == {"inbox", "sent", "drafts", "archive", "trash"}
    senders = _by_id(seed["message"])
    for _, msg, attachment in _invoices(seed, unread=True) + _invoices(seed, unread=False):
        number = attachment["filename"].removesuffix(".pdf")
        assert number in msg["subject"] and f"INVOICE {number}" in attachment["content"]
        assert senders[msg["id"]]["sender_email"].split("@")[1] != ME.split("@")[1], "invoices come from vendors"
    assert any(not m["read"] for m in seed["message"]) and any(t["starred"] for t in seed["thread"])
    assert {lb["name"] for lb in seed["label"]} >= {"Finance", "Clients", "Newsletters"}
    assert any(m["is_draft"] for m in seed["message"])


def test_get_pages_change_nothing_but_declared_view_state(mail, seed):
    """Opening a thread reads it (`message.read`, declared view state); no GET changes anything else."""
    before = mail.state()
    lunch, (invoice, _, _) = _lunch(seed)["id"], _invoices(seed, unread=True)[0]
    draft = next(m for m in seed["message"] if m["is_draft"])
    trashed = _folder(seed, "trash")[0]["id"]
    pages = ["/", "/folder/starred", "/folder/sent", "/folder/drafts", "/folder/archive", "/folder/trash",
             f"/thread/{lunch}", f"/thread/{draft['thread_id']}", f"/thread/{trashed}", "/compose",
             f"/compose?draft={draft['id']}", f"/thread/{invoice['id']}/reply", f"/thread/{lunch}/reply-all",
             f"/thread/{invoice['id']}/forward", "/search?q=invoice", "/search", "/labels", "/label/2", "/contacts"]
    for path in pages:
        response = mail.http.get(path)
        assert response.status_code == 200, path
    after = mail.state()
    assert without_view_state(after, MANIFEST.view_state) == without_view_state(before, MANIFEST.view_state)
    assert [m for m in _messages(before, lunch) if not m["read"]], "the seed must have an unread lunch message"
    assert all(m["read"] for m in _messages(after, lunch) if not m["is_draft"]), "opening a thread marks it read"
    changed = {(b["id"], k) for b, a in zip(before["message"], after["message"]) for k in b if a[k] != b[k]}
    assert changed and {k for _, k in changed} == {"read"}
    assert mail.http.get("/folder/spam").status_code == 404
    assert mail.http.get("/thread/999").status_code == 404


def test_inbox_shows_unread_in_bold_and_counts(mail, seed):
    html = mail.http.get("/").text
    (_, _, unread), read = _invoices(seed, unread=True)[0], _thread(seed, _read_inbox_subject(seed))
    number = re.escape(unread["filename"].removesuffix(".pdf"))
    row = re.search(rf'<li class="row unread">(?:(?!</li>).)*{number}(?:(?!</li>).)*</li>', html, re.S)
    assert row, "the unread invoice is not an unread row"
    assert re.search(rf'<li class="row">(?:(?!</li>).)*{re.escape(escape(read["subject"]))}', html, re.S)
    unread_inbox = {m["thread_id"] for m in mail.state()["message"] if not m["read"]} & set(mail.thread_ids("/"))
    assert f'Inbox <span class="badge">{len(unread_inbox)}</span>' in html


def _read_inbox_subject(seed: dict) -> str:
    """The subject of an inbox thread whose messages are all read, with a subject that no other thread has."""
    subjects = [t["subject"] for t in seed["thread"]]
    return next(t["subject"] for t in _folder(seed, "inbox") if subjects.count(t["subject"]) == 1
                and all(m["read"] for m in _messages(seed, t["id"])))


def _colleagues(seed: dict) -> list[str]:
    return [c["email"] for c in seed["contact"] if c["email"].endswith("@" + ME.split("@")[1])]


def test_compose_and_send_lands_in_sent(mail, seed):
    _, _, invoice = _invoices(seed, unread=True)[0]
    first, second = _colleagues(seed)[:2]
    response = mail.post("/send", to=first, cc=second, subject="Vendor invoice",
                         body="Hi, the invoice is attached.", attach=invoice["filename"], intent="send")
    thread_id = int(re.search(r"/thread/(\d+)", response.headers["location"]).group(1))
    state = mail.state()
    thread = _by_id(state["thread"])[thread_id]
    assert thread == {"id": thread_id, "subject": "Vendor invoice", "folder": "sent", "starred": False}
    (msg,) = _messages(state, thread_id)
    assert msg["sender_email"] == ME and msg["sender_name"] == "Alex Morgan"
    assert (msg["to"], msg["cc"]) == (first, second)
    assert msg["sent_at"] == "2026-03-02 09:00:00.000000", "sent at the instance's virtual clock"
    assert msg["read"] is True and msg["is_draft"] is False
    assert _files(state, msg["id"]) == [(invoice["filename"], invoice["size_kb"])]
    assert mail.thread_ids("/folder/sent")[0] == thread_id
    assert thread_id not in mail.thread_ids("/")
    again = mail.post("/send", to=second, subject="Display quote", body="Any news?")
    later = int(re.search(r"/thread/(\d+)", again.headers["location"]).group(1))
    (msg2,) = _messages(mail.state(), later)
    assert msg2["sent_at"] > msg["sent_at"], "sending must advance the clock"


def test_send_rejects_bad_recipients_without_changing_state(mail):
    before = mail.state()
    for to in ("", "not-an-address"):
        response = mail.http.post("/send", data={"to": to, "subject": "x", "body": "y"})
        assert response.status_code == 422 and 'role="alert"' in response.text
    assert mail.http.post("/send", data={"to": ME, "attach": "nope.pdf"}).status_code == 422
    assert mail.state() == before


def test_reply_and_reply_all_keep_the_thread(mail, seed):
    thread, msg, _ = _invoices(seed, unread=True)[0]
    form = mail.http.get(f"/thread/{thread['id']}/reply").text
    assert f'value="{msg["sender_email"]}"' in form and f'value="Re: {escape(thread["subject"])}"' in form
    mail.post("/send", to=msg["sender_email"], subject=f"Re: {thread['subject']}",
              body="Payment is scheduled for March 10.", thread_id=str(thread["id"]))
    state = mail.state()
    msgs = _messages(state, thread["id"])
    assert len(msgs) == len(_messages(seed, thread["id"])) + 1
    assert msgs[-1]["body"] == "Payment is scheduled for March 10." and msgs[-1]["sender_email"] == ME
    assert _by_id(state["thread"])[thread["id"]]["folder"] == "inbox"
    assert thread["id"] in mail.thread_ids("/folder/sent") and thread["id"] in mail.thread_ids("/")

    lunch = _messages(seed, _lunch(seed)["id"])
    everyone = mail.http.get(f"/thread/{_lunch(seed)['id']}/reply-all").text
    to = re.search(r'id="to" name="to"[^>]*value="([^"]*)"', everyone).group(1)
    cc = re.search(r'id="cc" name="cc"[^>]*value="([^"]*)"', everyone).group(1)
    others = [a for a in lunch[-1]["to"].split(", ") if a != ME]
    assert to == ", ".join([lunch[-1]["sender_email"], *others]) and len(others) == 1 and cc == ""


def test_forward_carries_the_threads_attachments(mail, seed):
    (thread, msg, invoice), (_, _, other) = _invoices(seed, unread=True)[:2]
    form = mail.http.get(f"/thread/{thread['id']}/forward").text
    kept = re.findall(r'name="keep" value="([^"]+)" checked', form)
    assert kept == [invoice["filename"]]
    assert "---------- Forwarded message ---------" in form
    colleague = _colleagues(seed)[0]
    response = mail.post("/send", to=colleague, subject=f"Fwd: {thread['subject']}",
                         body="For the month-end close.", keep=kept, attach=other["filename"])
    thread_id = int(re.search(r"/thread/(\d+)", response.headers["location"]).group(1))
    assert thread_id != thread["id"]
    state = mail.state()
    (sent,) = _messages(state, thread_id)
    assert _files(state, sent["id"]) == [(invoice["filename"], invoice["size_kb"]), (other["filename"], other["size_kb"])]
    assert len(_messages(state, thread["id"])) == len(_messages(seed, thread["id"]))


def test_move_archive_label_trash_restore_and_delete_forever(mail, seed):
    inbox = _thread(seed, _read_inbox_subject(seed))["id"]
    archived = _folder(seed, "archive")[0]["id"]
    mail.post(f"/thread/{inbox}/archive")
    assert _by_id(mail.state()["thread"])[inbox]["folder"] == "archive"
    assert inbox in mail.thread_ids("/folder/archive") and inbox not in mail.thread_ids("/")
    mail.post(f"/thread/{inbox}/move", target="folder:inbox")
    mail.post(f"/thread/{archived}/move", target="label:Clients")
    state = mail.state()
    assert _by_id(state["thread"])[inbox]["folder"] == "inbox" and _by_id(state["thread"])[archived]["folder"] == "archive"
    assert {"thread_id": archived, "label": "Clients"} in state["thread_label"]
    clients = next(lb["id"] for lb in state["label"] if lb["name"] == "Clients")
    assert archived in mail.thread_ids(f"/label/{clients}")
    mail.post(f"/thread/{archived}/labels/remove", label="Clients")
    mail.post(f"/thread/{archived}/labels", label="Finance")
    assert {tl["label"] for tl in mail.state()["thread_label"] if tl["thread_id"] == archived} == {"Newsletters", "Finance"}

    mail.post(f"/thread/{inbox}/trash")
    assert inbox in mail.thread_ids("/folder/trash")
    mail.post(f"/thread/{inbox}/restore")
    assert _by_id(mail.state()["thread"])[inbox]["folder"] == "inbox"
    assert mail.http.post(f"/thread/{inbox}/delete-forever").status_code == 422
    invoice_thread, _, invoice = _invoices(seed, unread=True)[0]
    mail.post(f"/thread/{invoice_thread['id']}/trash")
    mail.post(f"/thread/{invoice_thread['id']}/delete-forever")
    state = mail.state()
    assert invoice_thread["id"] not in _by_id(state["thread"]) and not _messages(state, invoice_thread["id"])
    assert invoice["filename"] not in {a["filename"] for a in state["attachment"]}
    assert all(tl["thread_id"] != invoice_thread["id"] for tl in state["thread_label"])
    mail.post("/folder/trash/empty")
    assert mail.thread_ids("/folder/trash") == [] and all(t["folder"] != "trash" for t in mail.state()["thread"])


def test_search_by_sender_subject_body_and_operators(mail, seed):
    thread, msg, invoice = _invoices(seed, unread=True)[0]
    live = [t["id"] for t in seed["thread"] if t["folder"] != "trash"]
    from_sender = {m["thread_id"] for m in seed["message"] if m["sender_email"] == msg["sender_email"]} & set(live)
    assert len(from_sender) >= 1
    assert set(mail.thread_ids("/search", q=msg["sender_name"])) >= from_sender
    assert set(mail.thread_ids("/search", q=f"from:{msg['sender_email']}")) == from_sender
    lunch = _lunch(seed)["id"]
    assert mail.thread_ids("/search", q='subject:"Lunch on Friday"') == [lunch]
    assert mail.thread_ids("/search", q="book a table") == [lunch], "the body of the lunch thread's last message"
    assert mail.thread_ids("/search", q=invoice["filename"]) == [thread["id"]]
    finance = {tl["thread_id"] for tl in seed["thread_label"] if tl["label"] == "Finance"}
    unread = {m["thread_id"] for m in seed["message"] if not m["read"]}
    assert finance & unread and set(mail.thread_ids("/search", q="label:Finance is:unread")) == finance & unread & set(live)
    assert mail.thread_ids("/search", q="zebra crossing") == []
    assert "No messages matched" in mail.http.get("/search", params={"q": "zebra"}).text


def test_mark_read_unread_and_star(mail, seed):
    lunch, plain = _lunch(seed)["id"], _thread(seed, _read_inbox_subject(seed))["id"]
    mail.post(f"/thread/{lunch}/read")
    assert all(m["read"] for m in _messages(mail.state(), lunch))
    mail.post(f"/thread/{lunch}/unread")
    flags = [m["read"] for m in _messages(mail.state(), lunch)]
    assert flags == [True, True, False]
    assert _by_id(seed["thread"])[plain]["starred"] is False
    mail.post(f"/thread/{plain}/star", back="/folder/starred")
    assert _by_id(mail.state()["thread"])[plain]["starred"] is True and plain in mail.thread_ids("/folder/starred")
    response = mail.post(f"/thread/{plain}/star", back="/search?q=lunch")
    assert response.headers["location"].endswith("/search?notice=Star+removed.&q=lunch")
    assert _by_id(mail.state()["thread"])[plain]["starred"] is False


def test_drafts_save_edit_send_and_discard(mail, seed):
    colleague = _colleagues(seed)[0]
    _, _, invoice = _invoices(seed, unread=True)[0]
    response = mail.post("/send", to=colleague, subject="Font licence", body="Use Canela", intent="save")
    draft_id = int(re.search(r"draft=(\d+)", response.headers["location"]).group(1))
    state = mail.state()
    draft = _by_id(state["message"])[draft_id]
    assert draft["is_draft"] is True and _by_id(state["thread"])[draft["thread_id"]]["folder"] == "drafts"
    assert draft["thread_id"] in mail.thread_ids("/folder/drafts")
    assert 'value="Font licence"' in mail.http.get("/compose", params={"draft": draft_id}).text
    mail.post("/send", to=colleague, subject="Font licence", body="Yes, we have a Canela licence.",
              draft_id=str(draft_id), attach=invoice["filename"])
    state = mail.state()
    sent = _by_id(state["message"])[draft_id]
    assert sent["is_draft"] is False and sent["body"] == "Yes, we have a Canela licence."
    assert _by_id(state["thread"])[sent["thread_id"]]["folder"] == "sent"
    assert _files(state, draft_id) == [(invoice["filename"], invoice["size_kb"])]

    old = next(m for m in seed["message"] if m["is_draft"])
    mail.post(f"/draft/{old['id']}/discard")
    state = mail.state()
    assert old["thread_id"] not in _by_id(state["thread"]) and old["id"] not in _by_id(state["message"])


def test_labels_and_contacts(mail, seed):
    lunch = _lunch(seed)["id"]
    mail.post("/labels", name="Harbour Foods")
    label = next(lb for lb in mail.state()["label"] if lb["name"] == "Harbour Foods")
    mail.post(f"/thread/{lunch}/labels", label="Harbour Foods")
    assert lunch in mail.thread_ids(f"/label/{label['id']}")
    mail.post(f"/labels/{label['id']}/delete")
    state = mail.state()
    assert "Harbour Foods" not in {lb["name"] for lb in state["label"]}
    assert all(tl["label"] != "Harbour Foods" for tl in state["thread_label"])
    mail.post("/contacts", name="Lena Ortiz", email="lena@harbourfoods.example", organization="Harbour Foods")
    assert any(c["email"] == "lena@harbourfoods.example" for c in mail.state()["contact"])
    assert 'value="lena@harbourfoods.example"' in mail.http.get("/compose", params={"to": "lena@harbourfoods.example"}).text


def test_pages_render_for_a_sparse_world_seed(server):
    """A world may seed only some tables; every page still renders and sending still works."""
    seed = {"_identity": [{"name": "Kim Lee", "email": "kim@acme.example", "company": "Acme"}],
            "thread": [{"id": 1, "subject": "Hello", "folder": "spam-ish"}],
            "message": [{"id": 1, "thread_id": 1, "sender_email": "x@y.example", "body": "Hi", "sent_at": "2026-01-02T10:00:00"}]}
    inst = server.admin.create(seed, "2026-01-05T08:00:00")
    try:
        with httpx.Client(base_url=server.url + inst["url"].rstrip("/"), timeout=30) as http:
            for path in ("/", "/folder/sent", "/thread/1", "/compose", "/search?q=hello", "/labels", "/contacts"):
                assert http.get(path).status_code == 200, path
            assert "Hello" in http.get("/search", params={"q": "hello"}).text
            http.post("/send", data={"to": "x@y.example", "subject": "Hi back", "body": "Hey", "thread_id": "1"})
        (reply,) = [m for m in server.admin.state(inst["instance_id"])["message"] if m["id"] == 2]
        assert (reply["sender_name"], reply["sent_at"]) == ("Kim Lee", "2026-01-05 08:00:00.000000")
    finally:
        server.admin.delete(inst["instance_id"])


def test_browser_inbox_both_sizes_and_reply_through_the_ui(server, seed):
    from playwright.sync_api import sync_playwright

    from mocked_apps.kit.browser import context_options, launch_chromium

    invoice, msg, _ = _invoices(seed, unread=True)[0]
    lunch = _lunch(seed)
    first = msg["sender_name"].split()[0]
    inst = server.admin.create()
    iid = inst["instance_id"]
    start = f"{server.url}/i/{iid}/"
    errors: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            try:
                for form_factor in ("desktop", "mobile"):
                    context = browser.new_context(**context_options(form_factor))
                    page = context.new_page()
                    page.on("console", lambda m: errors.append(f"{form_factor}: {m.text}") if m.type == "error" else None)
                    page.on("pageerror", lambda e: errors.append(f"{form_factor}: {e}"))
                    page.goto(start)
                    assert page.get_by_role("heading", name="Inbox").is_visible()
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"mail-{form_factor}.png"))
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= page.viewport_size["width"], f"{form_factor}: page scrolls sideways ({width}px)"
                    if form_factor == "desktop":
                        page.get_by_role("link", name=invoice["subject"], exact=True).click()
                        page.get_by_role("link", name="Reply", exact=True).click()
                        page.get_by_label("Body").fill(f"Thanks {first}, payment goes out on March 10.")
                        page.get_by_role("button", name="Send", exact=True).click()
                        assert page.get_by_role("status").inner_text() == "Message sent."
                        assert page.get_by_text("payment goes out on March 10").is_visible()
                    else:
                        page.get_by_role("link", name=lunch["subject"], exact=True).click()  # opening it reads it
                        page.get_by_role("button", name="Mark as unread").click()  # back to the inbox, unread there
                        assert page.get_by_role("status").inner_text() == "Conversation marked as unread."
                    context.close()
            finally:
                browser.close()
        state = server.admin.state(iid)
        last = _messages(state, invoice["id"])[-1]
        assert last["sender_email"] == ME and last["to"] == msg["sender_email"]
        assert last["body"] == f"Thanks {first}, payment goes out on March 10."
        assert not all(m["read"] for m in _messages(state, lunch["id"]) if not m["is_draft"])  # marked unread again
        assert errors == []
    finally:
        server.admin.delete(iid)


# ---- as a new user tries it: opening reads, attachments open, forms show field errors --------------------------
def test_browser_opening_a_thread_reads_it_and_its_attachment_opens(server, seed):
    from mocked_apps.kit.testing import Client, browser_pages

    thread, _, invoice = _invoices(seed, unread=True)[0]
    subject, filename = thread["subject"], invoice["filename"]
    total = invoice["content"].splitlines()[-1]
    assert total.startswith("Total due (USD): ")

    with Client(server) as app, browser_pages(("desktop",)) as pages:
        for _, page in pages:
            page.goto(app.url("/"))
            row = page.locator("li.row").filter(has=page.get_by_role("link", name=subject, exact=True))
            assert "unread" in row.get_attribute("class")
            page.get_by_role("link", name=subject, exact=True).click()
            assert all(m["read"] for m in _messages(app.state(), thread["id"]))  # the GET of the thread read it
            page.get_by_role("link", name=filename, exact=True).click()
            preview = page.get_by_role("article", name=f"Preview of {filename}").inner_text()
            assert f"INVOICE {filename.removesuffix('.pdf')}" in preview and total in preview
            with page.expect_download() as download:
                page.get_by_role("link", name=f"Download {filename}").click()
            assert download.value.suggested_filename == filename
            assert Path(download.value.path()).read_bytes().startswith(b"%PDF-1.4")
            page.get_by_role("link", name="Inbox").click()
            row = page.locator("li.row").filter(has=page.get_by_role("link", name=subject, exact=True))
            assert "unread" not in row.get_attribute("class")
        assert pages.errors == []


def test_forms_refuse_with_field_errors_and_write_nothing(mail):
    before = mail.state()
    for path, data, field in [("/labels", {"name": "Finance"}, "name"), ("/labels", {"name": "  "}, "name"),
                              ("/contacts", {"name": "Lena", "email": "not-an-address"}, "email"),
                              ("/contacts", {"name": "", "email": "lena@x.example"}, "name"),
                              ("/send", {"to": "", "subject": "Hi"}, "to"), ("/send", {"to": ME, "cc": "bad@"}, "cc")]:
        response = mail.http.post(path, data=data)
        assert response.status_code == 422, (path, data)
        assert f'id="{field}-error" role="alert"' in response.text and f'aria-describedby="{field}-error"' in response.text
        typed = next((v for v in data.values() if v.strip()), "")
        assert f'value="{typed}"' in response.text, (path, "what was typed is kept")
    assert mail.state() == before


def test_projection_adds_everyday_mail_from_any_worlds_own_people():
    """The newsletters, notices, lunch thread and draft come from the world's people, organisations and clock,
    the same world gives the same rows, and a kind is left out where the world lacks the people it needs."""
    from datetime import datetime

    from contracts.world import Organisation, Person, Persona, Scenario, World
    from mocked_apps.mail.projection import project

    persona = Persona(id="p", name="Rosa Delgado", email="rosa@db.example", role="owner", company="Delgado Bakery",
                      domain="db.example")
    orgs = (Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),
            Organisation(id="o2", name="Mill & Sons", kind="vendor", domain="mill.example", category="flour"),
            Organisation(id="o3", name="Harbour Foods", kind="client", domain="hf.example"))
    people = (Person(id="u", name="Rosa Delgado", email="rosa@db.example", org="o1", role="owner"),
              Person(id="c1", name="Ines Paz", email="ines@db.example", org="o1", role="baker"),
              Person(id="c2", name="Tomas Ruiz", email="tomas@db.example", org="o1", role="driver"),
              Person(id="k", name="Dana Whitfield", email="dana@hf.example", org="o3", role="buyer"))
    clock = datetime(2026, 4, 6, 9)
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=clock),
                  user="u", organisations=orgs, people=people)
    rows = project(world)
    assert project(world) == rows
    senders = {m["sender_email"] for m in rows["message"]}
    assert senders == {"news@mill.example", "no-reply@db.example", "ines@db.example", "tomas@db.example",
                       "rosa@db.example", "events@mill.example"}, "one vendor: one newsletter; no documents: no share"
    assert all(m["sent_at"] < clock.isoformat() for m in rows["message"])
    (draft,) = [m for m in rows["message"] if m["is_draft"]]
    assert draft["to"] == "dana@hf.example" and "Harbour Foods" in draft["subject"]
    assert {t["folder"] for t in rows["thread"]} == {"inbox", "archive", "drafts", "trash"}
    assert {tl["label"] for tl in rows["thread_label"]} <= {lb["name"] for lb in rows["label"]}
    alone = world.model_copy(update={"people": people[:1], "organisations": orgs[:1]})
    assert {m["sender_email"] for m in project(alone)["message"]} == {"no-reply@db.example"}


def test_browser_to_takes_name_and_address_and_shows_a_bad_one(server, seed):
    """`Name <email>` in To, as Calendar's guests take it, is sent (an HTML email input refused it without a word);
    a name without an address is refused with an error on the page."""
    from playwright.sync_api import expect

    from mocked_apps.kit.testing import Client, browser_pages

    first = _colleagues(seed)[0]
    name = next(c["name"] for c in seed["contact"] if c["email"] == first)
    with Client(server) as app, browser_pages(("desktop",)) as pages:
        for _, page in pages:
            page.goto(app.url("/compose"))
            page.get_by_label("To").fill(name)
            page.get_by_label("Subject").fill("Named recipient")
            page.get_by_role("button", name="Send", exact=True).click()
            # the send is a form post: wait for the page it leads to (is_visible() does not wait, and lost that race under load)
            expect(page.get_by_role("alert").filter(has_text=f"Not a valid email address: {name}")).to_be_visible()
            page.get_by_label("To").fill(f"{name} <{first}>")
            page.get_by_role("button", name="Send", exact=True).click()
            assert page.get_by_role("status").inner_text() == "Message sent."
        (sent,) = [m for m in app.state()["message"] if m["subject"] == "Named recipient"]
        assert sent["to"] == first
        assert [e for e in pages.errors if "status of 422" not in e] == []  # the refusal's own 422, nothing else
