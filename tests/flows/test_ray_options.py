"""`--runner ray` through `gymfactory run` and the Prefect UI: a missing or dead cluster address is one line before
anything starts, and the pipeline deployment's form has the same two fields as the command."""

from __future__ import annotations

import socket

import pytest
from prefect.utilities.callables import parameter_schema
from pydantic import ValidationError
from typer.testing import CliRunner

from flows.config import PipelineConfig
from flows.pipeline import pipeline
from gymfactory.cli import build


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


@pytest.mark.parametrize("extra, says", [
    ([], "--runner ray: needs --ray-address HOST:PORT"),
    (["--ray-address", "nonsense"], "--ray-address nonsense: expected HOST:PORT"),
    (["--ray-address", f"127.0.0.1:{_closed_port()}"], "no Ray cluster answers there"),
])
def test_a_bad_ray_address_is_one_line_before_anything_starts(tmp_path, extra, says):
    result = CliRunner().invoke(build(), ["run", "--out", str(tmp_path / "run"), "--runner", "ray", *extra])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0]
    assert not (tmp_path / "run").exists()  # nothing started


def test_the_pipeline_form_has_the_runner_and_its_address():
    schema = parameter_schema(pipeline).model_dump()
    fields = schema["definitions"]["PipelineConfig"]["properties"]
    assert fields["runner"]["enum"] == ["local", "ray"] and fields["runner"]["default"] == "local"
    assert "ray start --head" in fields["ray_address"]["description"]
    with pytest.raises(ValidationError, match="needs --ray-address"):  # the form refuses what the command refuses
        PipelineConfig(runner="ray")
    assert PipelineConfig(runner="ray", ray_address="10.0.0.5:6379").ray_address == "10.0.0.5:6379"
