"""Server tracebacks in reports: found in a log tail (even headless), cut to the app's frames, named by their exception."""

from __future__ import annotations

from mocked_apps.checker.faults import ServerLog, exception_line, tracebacks, trimmed
from mocked_apps.kit import SERVER_ERROR_MARK

_TB = """Traceback (most recent call last):
  File "/x/starlette/routing.py", line 1, in handle
    await self.app()
  File "/x/fastapi/routing.py", line 2, in app
    raw = await run()
  File "/app/routes.py", line 14, in index
    return gym.render("index.html")
  File "/app/templates/layout.html", line 3, in block 'head'
    {{ no_such_value }}
  File "/x/markupsafe/__init__.py", line 45, in escape
    return Markup(str(s))
jinja2.exceptions.UndefinedError: 'no_such_value' is undefined"""


def test_tracebacks_are_found_named_and_trimmed_to_the_last_frames():
    text = "INFO started\n" + _TB + "\nINFO more\n" + _TB.split("\n", 3)[3]  # the second lost its head in the tail
    found = tracebacks(text)
    assert len(found) == 2 and all(t.endswith("'no_such_value' is undefined") for t in found)
    assert exception_line(text) == "jinja2.exceptions.UndefinedError: 'no_such_value' is undefined"
    short = trimmed(found[0], frames=3)
    assert "starlette" not in short and '/app/routes.py' in short and short.startswith("Traceback")
    assert exception_line("no traceback here\n  indented: but no frames\nValueError: x") == ""


def test_the_server_log_reports_each_numbered_failure_once_even_when_they_repeat():
    output = ["startup\n"]
    log = ServerLog(lambda: "".join(output)[-4000:])
    assert log.new_traceback() == ""
    for n in range(1, 4):  # the same traceback three times: only the numbers tell them apart
        output.append(f"{SERVER_ERROR_MARK}{n} GET /i/abc/\n{_TB}\n")
    first = log.new_traceback()
    assert first.startswith("GET /i/abc/ (the newest of 3 failed requests)") and first.endswith("is undefined")
    assert log.new_traceback() == ""
    output.append(f"{SERVER_ERROR_MARK}4 POST /i/abc/new\n{_TB}\n")
    assert log.new_traceback().startswith("POST /i/abc/new\n")
