"""Publish a run's dataset to object storage (`gymfactory publish RUN --repo ORG/NAME --to s3://bucket/prefix`).

The same export as for the Hub (`flows.publish.stage`: parquet files and the card, in the Hub layout),
copied under `<url>/<org>--<name>/` of any store `runtime.objectstore` opens: an S3-compatible server
(endpoint and credentials from the standard AWS variables), another fsspec URL, or a folder. Data files
of an older export under that prefix are removed, so the folder there always loads as one dataset.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from runtime.objectstore import ObjectStore

from .publish import PublishConfig, stage

__all__ = ["ObjectsPublished", "publish_objects"]

_DATA = re.compile(r"/data/[^/]+\.parquet$")


class ObjectsPublished(BaseModel):
    """Where the dataset went and what changed there."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(description="The dataset's folder in the store (an fsspec URL).")
    written: tuple[str, ...] = Field(description="Keys written, below the store's root.")
    deleted: tuple[str, ...] = Field(description="Data files of an older export removed.")


def publish_objects(config: PublishConfig, url: str) -> ObjectsPublished:
    """Export the run's dataset and copy it below `url`; returns the keys written and removed."""
    folder = stage(config)
    store = ObjectStore(url)
    prefix = config.repo.replace("/", "--")
    before = store.keys(prefix)
    written = store.put_tree(folder, prefix)
    stale = tuple(k for k in before if _DATA.search(k) and k not in written)
    for key in stale:
        store.delete(key)
    return ObjectsPublished(url=store.full_url(prefix), written=tuple(written), deleted=stale)
