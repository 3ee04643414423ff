"""Crafted tasks whose golden or verifier code tries an escape are rejected by validation, with the reason.

Real notes app server, real Chromium, real bubblewrap sandbox: each task would be accepted if its
code were honest (the GUI part solves it), so only the escape attempt rejects it.
"""

from __future__ import annotations

import pytest

from factory.verifiers.validate import validate_task
from tests.factory.test_validate import FAST, GOOD_GOLDEN, GOOD_VERIFIER, _task

PEEK = {
    "etc-passwd": "open('/etc/passwd').read()",
    "parent-environ": "open('/proc/%d/environ' % __import__('os').getppid()).read()",
    "task-files": "__import__('os').listdir('/tmp')",
    "admin-api": "__import__('urllib.request').request.urlopen('http://127.0.0.1:1/_gym/instances')",
}


@pytest.mark.parametrize("peek", list(PEEK), ids=list(PEEK))
def test_a_verifier_that_looks_around_is_rejected(manager, peek):
    verifier = GOOD_VERIFIER.replace("def verify(final):\n", f"def verify(final):\n    {PEEK[peek]}\n")
    result = validate_task(_task(verifier=verifier), manager, FAST)
    assert not result.accepted and result.reason == "verifier_forbidden", (result.reason, result.detail)


@pytest.mark.parametrize("peek", ["admin-api", "parent-environ"], ids=["admin-api", "parent-environ"])
def test_a_golden_that_looks_around_is_rejected(manager, peek):
    golden = GOOD_GOLDEN + f"    {PEEK[peek]}\n"
    result = validate_task(_task(golden=golden), manager, FAST)
    assert not result.accepted and result.reason == "golden_forbidden", (result.reason, result.detail)


def test_a_golden_whose_shell_lists_instances_gets_nothing(manager):
    """env.shell() is the agent's confined shell: no admin API, no instance files, no other workspace."""
    golden = GOOD_GOLDEN + "    out = env.shell('ls /tmp; cat /proc/*/cmdline | tr \"\\\\0\" \" \"; ls /')\n" \
        "    assert 'gym-' not in out and 'mocked_apps' not in out and 'root' not in out.split(), out\n"
    result = validate_task(_task(golden=golden), manager, FAST)
    assert result.accepted, (result.reason, result.detail)
