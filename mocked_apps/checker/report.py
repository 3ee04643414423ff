"""The checker's verdicts: one `LawResult` per law of Contract 1, gathered in a `CheckReport`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rich.table import Table

Verdict = Literal["pass", "fail", "skip"]

LAWS: dict[str, str] = {
    "starts": "the app server starts and answers /_gym/health",
    "admin_token": "every /_gym/ call needs the admin token (401 without or wrong)",
    "instance_ids": "instance ids carry >= 128 random bits; unknown instance -> 404",
    "bad_seed": "a seed for an unknown table -> 422 and no new instance",
    "get_readonly": "GETs never change state; two dumps in a row are equal",
    "console": "every page renders without console errors, desktop and phone",
    "determinism": "same seed + clock + actions -> same state dump",
    "isolation": "changes in one instance never show in another",
    "reset": "reset restores the initial dump and every page's text",
    "dead_controls": "every clickable control changes state or page",
}
"""Law id -> what it demands, in the order the report lists them (the first failure is the one to fix)."""


class LawResult(BaseModel):
    """The verdict on one law, with the evidence a person needs to reproduce it."""

    model_config = ConfigDict(frozen=True)

    law: str = Field(description="Law id, a key of LAWS.")
    verdict: Verdict = Field(description="pass, fail, or skip (could not be checked because an earlier step failed).")
    evidence: str = Field(default="", description="What was observed: the failing call, page or control, or what passed.")
    seconds: float = Field(default=0.0, description="Wall time spent checking this law.")


class CheckReport(BaseModel):
    """Every law's verdict for one app."""

    model_config = ConfigDict(frozen=True)

    app: str = Field(description="The app's registry name (from its manifest) or the reference given.")
    ref: str = Field(description="The reference the checker was given: a name or a package folder.")
    laws: tuple[LawResult, ...] = Field(description="One result per law, in LAWS order.")
    seconds: float = Field(description="Wall time of the whole check.")

    @property
    def ok(self) -> bool:
        return all(r.verdict != "fail" for r in self.laws)

    @property
    def failures(self) -> list[LawResult]:
        return [r for r in self.laws if r.verdict == "fail"]

    @property
    def first_failure(self) -> LawResult | None:
        return next(iter(self.failures), None)

    def result(self, law: str) -> LawResult:
        return next(r for r in self.laws if r.law == law)


def ordered(app: str, ref: str, results: dict[str, LawResult], seconds: float) -> CheckReport:
    """A report listing `results` in LAWS order; laws never reached are `skip`."""
    laws = tuple(results.get(law) or LawResult(law=law, verdict="skip", evidence="not reached") for law in LAWS)
    return CheckReport(app=app, ref=ref, laws=laws, seconds=round(seconds, 2))


_STYLE = {"pass": "[green]pass[/green]", "fail": "[bold red]FAIL[/bold red]", "skip": "[yellow]skip[/yellow]"}


def render(report: CheckReport) -> Table:
    """A rich table: law, verdict, evidence, seconds."""
    verdict = "[green]all laws pass[/green]" if report.ok else f"[red]{len(report.failures)} law(s) fail[/red]"
    table = Table(title=f"{report.app} ({report.ref}) — {verdict} in {report.seconds:.1f}s", show_lines=True)
    table.add_column("law", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("evidence", overflow="fold")
    table.add_column("s", justify="right", no_wrap=True)
    for r in report.laws:
        table.add_row(r.law, _STYLE[r.verdict], r.evidence, f"{r.seconds:.2f}")
    return table
