"""The checker's verdicts: one `LawResult` per law of Contract 1, the coverage reached, gathered in a `CheckReport`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Group
from rich.table import Table
from rich.text import Text

Verdict = Literal["pass", "fail", "not run", "skip"]

LAWS: dict[str, str] = {
    "starts": "the app server starts and answers /_gym/health",
    "default_seed": "the app's own seed.json creates an instance",
    "admin_token": "every /_gym/ call needs the admin token (401 without or wrong)",
    "instance_ids": "instance ids carry >= 128 random bits; unknown instance -> 404",
    "bad_seed": "a seed for an unknown table -> 422 and no new instance",
    "get_readonly": "GETs never change state (page loads, links, GET forms); two dumps in a row are equal",
    "console": "every page renders without console errors, desktop and phone",
    "links": "every same-origin GET link of every page reached answers below 400 (each fetched once over plain HTTP)",
    "content": "pages read like the service: no lorem ipsum, catch phrases, CSS colour names or word salad",
    "browser_storage": "the app writes no browser storage (localStorage, sessionStorage, IndexedDB, cookies)",
    "determinism": "same seed + clock + actions -> same state dump",
    "isolation": "changes in one instance never show in another",
    "reset": "reset restores the initial dump and every page's text",
    "dead_controls": "every clickable control changes state or page, at desktop and phone size",
    "ui_state": "no table is written only by controls that change no displayed data (a saved sort or view preference)",
}
"""Law id -> what it demands, in the order the report lists them (the first failure is the one to fix)."""


class LawResult(BaseModel):
    """The verdict on one law, with the evidence a person needs to reproduce it."""

    model_config = ConfigDict(frozen=True)

    law: str = Field(description="Law id, a key of LAWS.")
    verdict: Verdict = Field(
        description="pass; fail; 'not run' (the law was due but had nothing to judge, e.g. no page rendered: a failure too); "
        "skip (not reached: an earlier law stopped the check)."
    )
    evidence: str = Field(default="", description="What was observed: the failing call, page or control, or what passed.")
    cause: str = Field(default="", description="'ExceptionType: message' when an exception (the app's or the server's) is behind a failure.")
    seconds: float = Field(default=0.0, description="Wall time spent checking this law.")

    @property
    def failed(self) -> bool:
        return self.verdict in ("fail", "not run")

    def headline(self) -> str:
        """One line for a FAIL summary: the evidence's first line, and the exception behind it if any."""
        first = self.evidence.strip().splitlines()[0] if self.evidence.strip() else self.verdict
        return f"{first} ({self.cause})" if self.cause and self.cause not in first else first


class Coverage(BaseModel):
    """What the checker reached at one viewport: pages, controls and forms exercised of those found."""

    model_config = ConfigDict(frozen=True)

    viewport: str = Field(description="'desktop 1280x800' or 'phone 390x844'.")
    pages: int = Field(default=0, description="Pages loaded at this viewport.")
    controls_found: int = Field(default=0, description="Distinct controls (page pattern, role, name) seen at this viewport.")
    controls_exercised: int = Field(default=0, description="Of those, clicked here or (links) opened.")
    controls_sampled: int = Field(default=0, description="Judged by an exercised look-alike of the same family or link pattern.")
    controls_unchecked: int = Field(default=0, description="Left unjudged when the time budget ran out.")
    forms_found: int = Field(default=0, description="Distinct forms (method, action pattern), GET forms included.")
    forms_exercised: int = Field(default=0, description="Of those, filled and submitted at this viewport.")

    def line(self) -> str:
        return (
            f"{self.viewport}: {self.pages} pages; controls {self.controls_exercised} exercised + {self.controls_sampled} "
            f"by look-alike of {self.controls_found} found ({self.controls_unchecked} unchecked); "
            f"forms {self.forms_exercised} of {self.forms_found} submitted"
        )


class CheckReport(BaseModel):
    """Every law's verdict for one app, and the coverage behind them."""

    model_config = ConfigDict(frozen=True)

    app: str = Field(description="The app's registry name (from its manifest) or the reference given.")
    ref: str = Field(description="The reference the checker was given: a name or a package folder.")
    laws: tuple[LawResult, ...] = Field(description="One result per law, in LAWS order.")
    coverage: tuple[Coverage, ...] = Field(default=(), description="Per viewport, what the browser laws reached.")
    seconds: float = Field(description="Wall time of the whole check.")
    variant: int = Field(default=0, ge=0, description="The appearance variant its instances were in (0: as drawn).")

    @property
    def ok(self) -> bool:
        """Every law passed: a law that failed, could not run, or was never reached fails the app."""
        return all(r.verdict == "pass" for r in self.laws)

    @property
    def failures(self) -> list[LawResult]:
        return [r for r in self.laws if r.failed]

    @property
    def first_failure(self) -> LawResult | None:
        """The failure to fix first: the first law that failed, else the first one that could not run."""
        return next((r for r in self.laws if r.verdict == "fail"), None) or next(iter(self.failures), None)

    def result(self, law: str) -> LawResult:
        return next(r for r in self.laws if r.law == law)

    def fail_line(self) -> str:
        """'APP: law LAW — what failed (Exception: message)', or '' when every law passed."""
        law = self.first_failure
        app = f"{self.app} (variant {self.variant})" if self.variant else self.app
        return f"{app}: law {law.law} — {law.headline()}" if law else ""


def ordered(app: str, ref: str, results: dict[str, LawResult], seconds: float, coverage: tuple[Coverage, ...] = (),
            variant: int = 0) -> CheckReport:
    """A report listing `results` in LAWS order; laws never reached are `skip`."""
    laws = tuple(results.get(law) or LawResult(law=law, verdict="skip", evidence="not reached") for law in LAWS)
    return CheckReport(app=app, ref=ref, laws=laws, coverage=coverage, seconds=round(seconds, 2), variant=variant)


_STYLE = {"pass": "[green]pass[/green]", "fail": "[bold red]FAIL[/bold red]", "not run": "[bold red]not run[/bold red]", "skip": "[yellow]skip[/yellow]"}


def render(report: CheckReport) -> Group:
    """A rich table (law, verdict, evidence, seconds) and the coverage lines under it."""
    verdict = "[green]all laws pass[/green]" if report.ok else f"[red]{len(report.failures)} law(s) fail[/red]"
    shown = f"{report.app} variant {report.variant}" if report.variant else report.app
    table = Table(title=f"{shown} ({report.ref}) — {verdict} in {report.seconds:.1f}s", show_lines=True)
    table.add_column("law", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("evidence", overflow="fold")
    table.add_column("s", justify="right", no_wrap=True)
    for r in report.laws:
        evidence = r.evidence + (f"\n{r.cause}" if r.cause and r.cause not in r.evidence else "")
        table.add_row(r.law, _STYLE[r.verdict], Text(evidence), f"{r.seconds:.2f}")
    lines = [Text(f"coverage {c.line()}") for c in report.coverage]
    return Group(table, *lines)
