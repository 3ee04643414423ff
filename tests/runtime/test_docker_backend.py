"""What only the docker backend has: a hardened container per app server, an image built offline once, the daemon named
on failure. The session tests themselves run on it in test_manager.py and test_faults.py."""

from __future__ import annotations

import docker
import httpx
import pytest

from mocked_apps.kit.server import TOKEN_HEADER
from runtime.backends import make_backend
from runtime.backends.docker import LABEL, DockerBackend, DockerUnavailable
from runtime.backends.image import build_image, image_files
from tests.runtime.notes_tasks import NOTES


@pytest.fixture(scope="module")
def backend(dockerd):
    backend = make_backend("docker", docker_host=dockerd.url)  # by name, as a config selects it
    yield backend
    backend.close()


def test_app_server_runs_hardened_in_a_container_and_the_token_stays_out_of_its_config(backend, dockerd):
    server = backend.server(NOTES)
    attrs = server.container.attrs
    config, host = attrs["Config"], attrs["HostConfig"]
    assert config["Labels"][LABEL] == NOTES and config["User"] == "65534:65534"
    assert host["NetworkMode"] == "host" and host["ReadonlyRootfs"] and host["CapDrop"] == ["ALL"]
    assert server.token not in str(config["Cmd"]) + str(config["Env"]) + str(config["Entrypoint"])
    assert "--host" not in config["Cmd"]  # the kit binds 127.0.0.1 by default: loopback of this host, nothing beyond
    assert httpx.get(f"{server.url}/_gym/health", timeout=5).status_code == 401
    assert httpx.get(f"{server.url}/_gym/health", headers={TOKEN_HEADER: server.token}, timeout=5).json()["ok"] is True
    inst = backend.acquire(NOTES, None, None, 30)
    assert inst.url.startswith(server.url) and [n["title"] for n in backend.state(inst, 10)["note"]][:1] == ["Groceries"]


def test_the_image_is_built_once_per_content(backend, dockerd, tmp_path):
    client = docker.DockerClient(base_url=dockerd.url)
    try:
        files = image_files()  # fixed here: other work in this checkout may change the files meanwhile
        first = build_image(client, files)
        again = build_image(client, files)
        assert not again.built and again.tag == first.tag and again.tag in client.images.get(again.tag).tags
        assert first.built or first.tag == backend.image.tag  # the backend's own image, unless a file changed since
        (tmp_path / "extra.txt").write_text("changed")
        changed = build_image(client, {**files, "/opt/gym/project/extra.txt": tmp_path / "extra.txt"})
        assert changed.built and changed.tag != first.tag
        client.images.remove(changed.tag)
    finally:
        client.close()


def test_a_stopped_backend_leaves_no_container(dockerd):
    client = docker.DockerClient(base_url=dockerd.url)
    try:
        before = {c.id for c in client.containers.list(all=True)}
        backend = DockerBackend(docker_host=dockerd.url)
        server = backend.server(NOTES)
        assert server.container.id not in before and server.alive()
        backend.close()
        assert {c.id for c in client.containers.list(all=True)} == before and not server.alive()
    finally:
        client.close()


def test_no_daemon_is_a_typed_error_naming_it(tmp_path):
    with pytest.raises(DockerUnavailable, match="no Docker daemon at unix://"):
        DockerBackend(docker_host=f"unix://{tmp_path / 'none.sock'}")
    with pytest.raises(LookupError, match="did you mean docker"):
        make_backend("dokcer")
