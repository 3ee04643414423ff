"""Publish a run's dataset to the Hugging Face Hub (or any server speaking its API) through `huggingface_hub`.

Each step looks at the Hub first and does only what is missing, so publishing is idempotent (the same
content makes no new commit and no new tag) and resumable (a rerun after an interruption finishes the
steps that did not happen): create the dataset repo, commit the files that differ (README card and
parquet files; data files of an older export are deleted in the same commit), tag the commit.
The token comes from `HF_TOKEN` or the `huggingface_hub` login (`hf auth login`); the server from
`HF_ENDPOINT` (default the public Hub).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from prefect import flow
from prefect.artifacts import create_link_artifact
from pydantic import BaseModel, ConfigDict, Field

from contracts.taskfiles import load_tasks
from contracts.errors import InputError

from .artifacts import table
from .dataset import ExportOptions, export
from .dataset_columns import SplitOptions
from .run_evidence import gather, objects_of

_DATA_FILE = re.compile(r"^data/(\w+)-([0-9a-f]{12})-\d{5}-of-\d{5}\.parquet$")


class PublishConfig(BaseModel):
    """`gymfactory publish RUN --repo ORG/NAME`; the CLI and the Prefect flow read this model."""

    model_config = ConfigDict(frozen=True)

    run: Path = Field(description="A `gymfactory run` output folder (its tasks/final.jsonl or reviewed.jsonl).")
    repo: str = Field(pattern=r"^[\w.-]+/[\w.-]+$", description="Dataset repo id, ORG/NAME.")
    private: bool = Field(default=False, description="Create the repo private (an existing repo keeps its visibility).")
    revision: str | None = Field(default=None, description="Tag for this publication; default 'gymfactory-<content fingerprint>'.")
    dry_run: bool = Field(default=False, description="Export and compare with the Hub, write nothing there.")
    split: SplitOptions = Field(default_factory=SplitOptions, description="Held-out apps or families.")
    license: str = Field(default="cc-by-4.0", description="Licence of the data, written in the card.")
    objects_url: str | None = Field(default=None, description="The run's object store, where its demonstrations' screenshots "
                                    "are read from: the `--objects-url` the run was given; default the run folder's objects/.")


class PublishResult(BaseModel):
    """What publishing did (or, on a dry run, would do)."""

    model_config = ConfigDict(frozen=True)

    repo: str
    url: str
    folder: str = Field(description="The exported dataset folder that was (or would be) uploaded.")
    tag: str
    dry_run: bool
    created_repo: bool = Field(description="The repo did not exist before.")
    uploaded: tuple[str, ...] = Field(description="Files added or changed by the commit.")
    deleted: tuple[str, ...] = Field(description="Data files of an older export removed by the commit.")
    commit: str | None = Field(description="The commit the tag names (None on a dry run of a new repo).")
    new_commit: bool
    tagged: bool = Field(description="The tag was created now (False: it already named this commit).")


class PublishError(InputError):
    """Publishing cannot go on for a reason the user fixes (no token, no tasks, a tag naming other content)."""


def stage(config: PublishConfig) -> Path:
    """Export the run's tasks and evidence into `RUN/publish/<org>--<name>/`, the card loading from the repo id, the
    demonstrations' screenshots embedded from the run's object store: the folder is complete as it is uploaded."""
    tasks_dir = config.run / "tasks"
    source = next((p for p in (tasks_dir / "final.jsonl", tasks_dir / "reviewed.jsonl") if p.is_file()), None)
    if source is None:
        raise PublishError(f"{config.run} has no tasks/final.jsonl or tasks/reviewed.jsonl; run `gymfactory run --out {config.run}` first")
    tasks = load_tasks(source) if source.stat().st_size else []
    if not tasks:
        raise PublishError(f"{source} holds no tasks: nothing to publish")
    folder = config.run / "publish" / config.repo.replace("/", "--")
    return export(tasks, folder, evidence=gather(config.run),
                  options=ExportOptions(split=config.split, source=config.repo, license=config.license,
                                        reproduce=_run_command(config.run)),
                  objects=objects_of(config.run, config.objects_url), run=config.run)


def _run_command(run: Path) -> str:
    """The command that made the run, as the run's own dataset card states it ('' if unknown): never a path of this machine."""
    card = run / "dataset" / "README.md"
    found = re.search(r"^## Reproduce\n\n`([^`\n]*)`", card.read_text(), re.M) if card.is_file() else None
    return found.group(1) if found else ""


def publish(config: PublishConfig) -> PublishResult:
    """Stage the dataset, then bring the Hub repo to it: repo, one commit of what differs, the tag."""
    import httpx2  # huggingface_hub's HTTP client
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, get_token
    from huggingface_hub.errors import RepositoryNotFoundError
    from huggingface_hub.utils.sha import git_hash

    folder = stage(config)
    local = {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    fingerprint = next(m.group(2) for p in local if (m := _DATA_FILE.match(p)))
    tag = config.revision or f"gymfactory-{fingerprint}"
    if not config.dry_run and get_token() is None:
        raise PublishError("no Hugging Face token: set HF_TOKEN, or log in with `hf auth login`")
    api = HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None)  # read now, not at import: tests and flows set it late
    try:
        head = api.repo_info(config.repo, repo_type="dataset").sha
        remote = {f.path: f.blob_id for f in api.list_repo_tree(config.repo, recursive=True, repo_type="dataset")
                  if hasattr(f, "blob_id")}
    except RepositoryNotFoundError:
        head, remote = None, {}
    except (OSError, httpx2.TransportError) as err:  # offline (HF_HUB_OFFLINE raises a ConnectionError) or unreachable
        raise PublishError(f"cannot reach the Hub at {api.endpoint} ({type(err).__name__}: {err}); the dataset is exported "
                           f"in {folder}; set HF_ENDPOINT, or copy it with --to FOLDER_OR_URL") from None
    upload = tuple(p for p, data in local.items() if remote.get(p) != git_hash(data))
    delete = tuple(p for p in sorted(remote) if _DATA_FILE.match(p) and p not in local)
    url = f"{api.endpoint}/datasets/{config.repo}"
    if config.dry_run:
        return PublishResult(repo=config.repo, url=url, folder=str(folder), tag=tag, dry_run=True, created_repo=head is None,
                             uploaded=upload, deleted=delete, commit=head, new_commit=bool(upload or delete), tagged=False)
    created = head is None
    if created:
        api.create_repo(config.repo, repo_type="dataset", private=config.private, exist_ok=True)
        head = api.repo_info(config.repo, repo_type="dataset").sha
    if upload or delete:
        operations = [CommitOperationAdd(path_in_repo=p, path_or_fileobj=local[p]) for p in upload]
        operations += [CommitOperationDelete(path_in_repo=p) for p in delete]
        info = api.create_commit(config.repo, operations, repo_type="dataset", parent_commit=head,
                                 commit_message=f"gymfactory dataset {fingerprint} ({len(upload)} files changed, {len(delete)} deleted)")
        head = info.oid
    tags = {t.name: t.target_commit for t in api.list_repo_refs(config.repo, repo_type="dataset").tags}
    if tag in tags and tags[tag] != head:
        raise PublishError(f"tag {tag!r} of {config.repo} already names commit {tags[tag][:12]}, not this content "
                           f"({head[:12]}); choose another --revision")
    if tag not in tags:
        api.create_tag(config.repo, tag=tag, revision=head, repo_type="dataset",
                       tag_message=f"gymfactory dataset {fingerprint} from {config.run.name}")
    return PublishResult(repo=config.repo, url=url, folder=str(folder), tag=tag, dry_run=False, created_repo=created,
                         uploaded=upload, deleted=delete, commit=head, new_commit=bool(upload or delete), tagged=tag not in tags)


@flow(name="publish-dataset", log_prints=True)
def publish_flow(config: PublishConfig) -> dict:
    """Publish a run's dataset to the Hub from the Prefect UI; the same steps as `gymfactory publish`."""
    started = time.monotonic()
    result = publish(config)
    table("publish-files", [{"file": p, "change": "uploaded"} for p in result.uploaded]
          + [{"file": p, "change": "deleted"} for p in result.deleted], f"Files changed on {config.repo}")
    create_link_artifact(key="published-dataset", link=f"{result.url}/tree/{result.tag}", link_text=f"{config.repo}@{result.tag}",
                         description="The published dataset at its tag")
    print(f"publish: {config.repo} tag {result.tag} commit {result.commit} "
          f"({'new commit' if result.new_commit else 'no change'}, {time.monotonic() - started:.1f} s)")
    return result.model_dump(mode="json")
