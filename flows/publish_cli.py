"""`gymfactory publish RUN --repo ORG/NAME`: a run's dataset to the Hugging Face Hub (`flows.publish`)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from .dataset_columns import SplitOptions
from .publish import PublishConfig, publish as run_publish
from .publish_objects import publish_objects


def publish(
    run: Path = typer.Argument(..., help="A `gymfactory run` output folder."),
    repo: str = typer.Option(..., "--repo", help="Dataset repo id, ORG/NAME."),
    private: bool = typer.Option(False, "--private", help="Create the repo private."),
    revision: str | None = typer.Option(None, "--revision", help="Tag for this publication (default gymfactory-<fingerprint>)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Export and compare with the Hub; write nothing there."),
    holdout_by: str = typer.Option("none", "--holdout-by", help="Held-out split by 'app', 'family' or 'none'."),
    holdout: list[str] = typer.Option([], "--holdout", help="Apps or families to hold out (default: ~20% by name hash)."),
    to: str | None = typer.Option(None, "--to", help="Copy the dataset to object storage (s3://bucket/prefix, any fsspec URL "
                                  "or a folder) under <org>--<name>/, instead of the Hub."),
    objects_url: str | None = typer.Option(None, "--objects-url", help="The run's object store, if it was given one with "
                                           "`gymfactory run --objects-url` (default: RUN/objects)."),
) -> None:
    """Export RUN's tasks as a dataset and publish it: create the repo, commit what changed, tag the revision."""
    from pydantic import ValidationError

    from contracts.errors import InputError

    try:
        config = PublishConfig(run=run, repo=repo, private=private, revision=revision, dry_run=dry_run,
                               split=SplitOptions(by=holdout_by, heldout=tuple(holdout)), objects_url=objects_url)
    except ValidationError as err:
        raise InputError(f"publish: {err.errors()[0]['loc'][-1]}: {err.errors()[0]['msg']}") from None
    if to is not None:
        if dry_run:
            raise InputError("publish: --dry-run compares with the Hub; it does not combine with --to")
        done = publish_objects(config, to)
        Console().print(f"{config.repo}: {len(done.written)} files written to {done.url}, {len(done.deleted)} old data files removed")
        return
    result = run_publish(config)
    console = Console()
    verb = "would upload" if result.dry_run else "uploaded"
    console.print(f"{result.repo} ({result.url}): {verb} {len(result.uploaded)} files, deleted {len(result.deleted)}; "
                  f"{'new commit' if result.new_commit else 'no new commit'} {result.commit or '-'}; tag {result.tag}"
                  f"{' (created)' if result.tagged else ''}; folder {result.folder}")


def register(root: typer.Typer) -> None:
    root.command("publish")(publish)
