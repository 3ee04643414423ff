"""The mail app over real HTTP and a real Chromium: flows change exactly the state they should."""

from __future__ import annotations

import re
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


def test_default_seed_is_a_believable_mailbox(mail):
    state = mail.state()
    assert 25 <= len(state["thread"]) <= 35 and 40 <= len(state["message"]) <= 60
    assert {t["folder"] for t in state["thread"]} == {"inbox", "sent", "drafts", "archive", "trash"}
    files = {a["filename"]: a["message_id"] for a in state["attachment"]}
    senders = _by_id(state["message"])
    assert senders[files["INV-2041.pdf"]]["sender_email"] == "jordan@brightlineprint.example"
    assert senders[files["INV-88213.pdf"]]["sender_email"] == "billing@cloudnest.example"
    assert senders[files["INV-3307.pdf"]]["sender_email"] == "sam@greenleafcatering.example"
    assert any(not m["read"] for m in state["message"]) and any(t["starred"] for t in state["thread"])
    assert {lb["name"] for lb in state["label"]} >= {"Finance", "Clients"}


def test_get_pages_change_nothing_but_declared_view_state(mail):
    """Opening a thread reads it (`message.read`, declared view state); no GET changes anything else."""
    before = mail.state()
    pages = ["/", "/folder/starred", "/folder/sent", "/folder/drafts", "/folder/archive", "/folder/trash",
             "/thread/20", "/thread/30", "/thread/8", "/compose", "/compose?draft=49", "/thread/18/reply",
             "/thread/20/reply-all", "/thread/23/forward", "/search?q=invoice", "/search", "/labels", "/label/2",
             "/contacts"]
    for path in pages:
        response = mail.http.get(path)
        assert response.status_code == 200, path
    after = mail.state()
    assert without_view_state(after, MANIFEST.view_state) == without_view_state(before, MANIFEST.view_state)
    unread_before = [m["id"] for m in before["message"] if m["thread_id"] == 20 and not m["read"]]
    assert unread_before, "the seed must have an unread message in thread 20"
    assert all(m["read"] for m in _messages(after, 20) if not m["is_draft"]), "opening a thread marks it read"
    changed = {(b["id"], k) for b, a in zip(before["message"], after["message"]) for k in b if a[k] != b[k]}
    assert changed and {k for _, k in changed} == {"read"}
    assert mail.http.get("/folder/spam").status_code == 404
    assert mail.http.get("/thread/999").status_code == 404


def test_inbox_shows_unread_in_bold_and_counts(mail):
    html = mail.http.get("/").text
    row = re.search(r'<li class="row unread">(?:(?!</li>).)*INV-88213(?:(?!</li>).)*</li>', html, re.S)
    assert row, "the unread CloudNest invoice is not an unread row"
    assert re.search(r'<li class="row">(?:(?!</li>).)*Lunch on Friday\?', html, re.S)
    unread_inbox = {m["thread_id"] for m in mail.state()["message"] if not m["read"]} & set(mail.thread_ids("/"))
    assert f'Inbox <span class="badge">{len(unread_inbox)}</span>' in html


def test_compose_and_send_lands_in_sent(mail):
    response = mail.post("/send", to="marcus.chen@northwind.example", cc="elena.rossi@northwind.example",
                         subject="Green Leaf invoice", body="Hi Marcus, the INV-3307 invoice is attached.",
                         attach="INV-3307.pdf", intent="send")
    thread_id = int(re.search(r"/thread/(\d+)", response.headers["location"]).group(1))
    state = mail.state()
    thread = _by_id(state["thread"])[thread_id]
    assert thread == {"id": thread_id, "subject": "Green Leaf invoice", "folder": "sent", "starred": False}
    (msg,) = _messages(state, thread_id)
    assert msg["sender_email"] == ME and msg["sender_name"] == "Alex Morgan"
    assert (msg["to"], msg["cc"]) == ("marcus.chen@northwind.example", "elena.rossi@northwind.example")
    assert msg["sent_at"] == "2026-03-02 09:00:00.000000", "sent at the instance's virtual clock"
    assert msg["read"] is True and msg["is_draft"] is False
    assert _files(state, msg["id"]) == [("INV-3307.pdf", 88)]
    assert mail.thread_ids("/folder/sent")[0] == thread_id
    assert thread_id not in mail.thread_ids("/")
    second = mail.post("/send", to="tom.becker@northwind.example", subject="Display quote", body="Any news?")
    later = int(re.search(r"/thread/(\d+)", second.headers["location"]).group(1))
    (msg2,) = _messages(mail.state(), later)
    assert msg2["sent_at"] > msg["sent_at"], "sending must advance the clock"


def test_send_rejects_bad_recipients_without_changing_state(mail):
    before = mail.state()
    for to in ("", "not-an-address"):
        response = mail.http.post("/send", data={"to": to, "subject": "x", "body": "y"})
        assert response.status_code == 422 and 'role="alert"' in response.text
    assert mail.http.post("/send", data={"to": ME, "attach": "nope.pdf"}).status_code == 422
    assert mail.state() == before


def test_reply_and_reply_all_keep_the_thread(mail):
    form = mail.http.get("/thread/18/reply").text
    assert 'value="jordan@brightlineprint.example"' in form and 'value="Re: Invoice INV-2041 from Brightline Print Co"' in form
    mail.post("/send", to="jordan@brightlineprint.example", subject="Re: Invoice INV-2041 from Brightline Print Co",
              body="Payment is scheduled for March 10.", thread_id="18")
    state = mail.state()
    msgs = _messages(state, 18)
    assert len(msgs) == 4 and msgs[-1]["body"] == "Payment is scheduled for March 10." and msgs[-1]["sender_email"] == ME
    assert _by_id(state["thread"])[18]["folder"] == "inbox"
    assert 18 in mail.thread_ids("/folder/sent") and 18 in mail.thread_ids("/")

    everyone = mail.http.get("/thread/20/reply-all").text
    to = re.search(r'id="to" name="to"[^>]*value="([^"]*)"', everyone).group(1)
    cc = re.search(r'id="cc" name="cc"[^>]*value="([^"]*)"', everyone).group(1)
    assert to == "dana@harbourfoods.example, elena.rossi@northwind.example" and cc == ""


def test_forward_carries_the_threads_attachments(mail):
    form = mail.http.get("/thread/23/forward").text
    kept = re.findall(r'name="keep" value="([^"]+)" checked', form)
    assert kept == ["HF-landing-drafts-v1.pdf", "HF-landing-mobile-v1.png"]
    assert "---------- Forwarded message ---------" in form
    response = mail.post("/send", to="dana@harbourfoods.example", subject="Fwd: Design drafts for the Harbour Foods landing page",
                         body="Dana, the drafts ahead of Thursday.", keep=kept, attach="HF-moodboard.pdf")
    thread_id = int(re.search(r"/thread/(\d+)", response.headers["location"]).group(1))
    assert thread_id != 23
    state = mail.state()
    (msg,) = _messages(state, thread_id)
    assert _files(state, msg["id"]) == [("HF-landing-drafts-v1.pdf", 3650), ("HF-landing-mobile-v1.png", 920), ("HF-moodboard.pdf", 4120)]
    assert len(_messages(state, 23)) == 3


def test_move_archive_label_trash_restore_and_delete_forever(mail):
    mail.post("/thread/13/archive")
    assert _by_id(mail.state()["thread"])[13]["folder"] == "archive"
    assert 13 in mail.thread_ids("/folder/archive") and 13 not in mail.thread_ids("/")
    mail.post("/thread/13/move", target="folder:inbox")
    mail.post("/thread/24/move", target="label:Clients")
    state = mail.state()
    assert _by_id(state["thread"])[13]["folder"] == "inbox" and _by_id(state["thread"])[24]["folder"] == "archive"
    assert {"thread_id": 24, "label": "Clients"} in state["thread_label"]
    assert 24 in mail.thread_ids("/label/1")
    mail.post("/thread/24/labels/remove", label="Clients")
    mail.post("/thread/24/labels", label="Finance")
    assert [tl["label"] for tl in mail.state()["thread_label"] if tl["thread_id"] == 24] == ["Finance"]

    mail.post("/thread/28/trash")
    assert 28 in mail.thread_ids("/folder/trash")
    mail.post("/thread/28/restore")
    assert _by_id(mail.state()["thread"])[28]["folder"] == "inbox"
    assert mail.http.post("/thread/28/delete-forever").status_code == 422
    mail.post("/thread/18/trash")
    mail.post("/thread/18/delete-forever")
    state = mail.state()
    assert 18 not in _by_id(state["thread"]) and not _messages(state, 18)
    assert "INV-2041.pdf" not in {a["filename"] for a in state["attachment"]}
    assert all(tl["thread_id"] != 18 for tl in state["thread_label"])
    mail.post("/folder/trash/empty")
    assert mail.thread_ids("/folder/trash") == [] and all(t["folder"] != "trash" for t in mail.state()["thread"])


def test_search_by_sender_subject_body_and_operators(mail):
    assert set(mail.thread_ids("/search", q="Jordan Blake")) == {10, 18}
    assert set(mail.thread_ids("/search", q="from:jordan@brightlineprint.example")) == {10, 18}
    assert mail.thread_ids("/search", q="subject:\"Expense reports\"") == [26]
    assert mail.thread_ids("/search", q="Canela") == [21]
    assert mail.thread_ids("/search", q="INV-88213.pdf") == [29]
    assert set(mail.thread_ids("/search", q="label:Finance is:unread")) == {22, 26, 29}
    assert mail.thread_ids("/search", q="zebra crossing") == []
    assert "No messages matched" in mail.http.get("/search", params={"q": "zebra"}).text


def test_mark_read_unread_and_star(mail):
    mail.post("/thread/20/read")
    assert all(m["read"] for m in _messages(mail.state(), 20))
    mail.post("/thread/20/unread")
    flags = [m["read"] for m in _messages(mail.state(), 20)]
    assert flags == [True, True, False]
    mail.post("/thread/13/star", back="/folder/starred")
    assert _by_id(mail.state()["thread"])[13]["starred"] is True and 13 in mail.thread_ids("/folder/starred")
    response = mail.post("/thread/13/star", back="/search?q=lunch")
    assert response.headers["location"].endswith("/search?notice=Star+removed.&q=lunch")
    assert _by_id(mail.state()["thread"])[13]["starred"] is False


def test_drafts_save_edit_send_and_discard(mail):
    response = mail.post("/send", to="sara.lind@northwind.example", subject="Font licence", body="Use Canela", intent="save")
    draft_id = int(re.search(r"draft=(\d+)", response.headers["location"]).group(1))
    state = mail.state()
    draft = _by_id(state["message"])[draft_id]
    assert draft["is_draft"] is True and _by_id(state["thread"])[draft["thread_id"]]["folder"] == "drafts"
    assert draft["thread_id"] in mail.thread_ids("/folder/drafts")
    assert 'value="Font licence"' in mail.http.get("/compose", params={"draft": draft_id}).text
    mail.post("/send", to="sara.lind@northwind.example", subject="Font licence", body="Yes, we have a Canela licence.",
              draft_id=str(draft_id), attach="Onboarding-checklist.pdf")
    state = mail.state()
    sent = _by_id(state["message"])[draft_id]
    assert sent["is_draft"] is False and sent["body"] == "Yes, we have a Canela licence."
    assert _by_id(state["thread"])[sent["thread_id"]]["folder"] == "sent"
    assert _files(state, draft_id) == [("Onboarding-checklist.pdf", 96)]

    mail.post("/draft/49/discard")
    state = mail.state()
    assert 30 not in _by_id(state["thread"]) and 49 not in _by_id(state["message"])


def test_labels_and_contacts(mail):
    mail.post("/labels", name="Harbour Foods")
    label = next(lb for lb in mail.state()["label"] if lb["name"] == "Harbour Foods")
    mail.post("/thread/20/labels", label="Harbour Foods")
    assert 20 in mail.thread_ids(f"/label/{label['id']}")
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


def test_browser_inbox_both_sizes_and_reply_through_the_ui(server):
    from playwright.sync_api import sync_playwright

    from mocked_apps.kit.browser import context_options, launch_chromium

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
                        page.get_by_role("link", name="Invoice INV-2041 from Brightline Print Co").click()
                        page.get_by_role("link", name="Reply", exact=True).click()
                        page.get_by_label("Body").fill("Thanks Jordan, payment goes out on March 10.")
                        page.get_by_role("button", name="Send", exact=True).click()
                        assert page.get_by_role("status").inner_text() == "Message sent."
                        assert page.get_by_text("payment goes out on March 10").is_visible()
                    else:
                        page.get_by_role("link", name="Harbour Foods kickoff meeting").click()  # opening it reads it
                        page.get_by_role("button", name="Mark as unread").click()  # back to the inbox, unread there
                        assert page.get_by_role("status").inner_text() == "Conversation marked as unread."
                    context.close()
            finally:
                browser.close()
        state = server.admin.state(iid)
        last = _messages(state, 18)[-1]
        assert last["sender_email"] == ME and last["to"] == "jordan@brightlineprint.example"
        assert last["body"] == "Thanks Jordan, payment goes out on March 10."
        assert not all(m["read"] for m in _messages(state, 20) if not m["is_draft"])  # marked unread again
        assert errors == []
    finally:
        server.admin.delete(iid)


# ---- as a new user tries it: opening reads, attachments open, forms show field errors --------------------------
LUNCH = "Invoice INV-3307 – team lunch on Feb 24"  # thread 22: unread, carries INV-3307.pdf


def test_browser_opening_a_thread_reads_it_and_its_attachment_opens(server):
    from mocked_apps.kit.testing import Client, browser_pages

    with Client(server) as app, browser_pages(("desktop",)) as pages:
        for _, page in pages:
            page.goto(app.url("/"))
            row = page.locator("li.row").filter(has=page.get_by_role("link", name=LUNCH, exact=True))
            assert "unread" in row.get_attribute("class")
            page.get_by_role("link", name=LUNCH, exact=True).click()
            assert all(m["read"] for m in _messages(app.state(), 22))  # the GET of the thread read it
            page.get_by_role("link", name="INV-3307.pdf", exact=True).click()
            preview = page.get_by_role("article", name="Preview of INV-3307.pdf").inner_text()
            assert "INVOICE INV-3307" in preview and "Total due (USD): 560.50" in preview
            with page.expect_download() as download:
                page.get_by_role("link", name="Download INV-3307.pdf").click()
            assert download.value.suggested_filename == "INV-3307.pdf"
            assert Path(download.value.path()).read_bytes().startswith(b"%PDF-1.4")
            page.get_by_role("link", name="Inbox").click()
            row = page.locator("li.row").filter(has=page.get_by_role("link", name=LUNCH, exact=True))
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
