"""The docker backend: each app server runs in its own container, on a loopback port of this host.

The warm pool, instance handling and the browser are the local backend's (one Chromium on this host);
only where an app server runs changes. Containers use host networking bound to 127.0.0.1, so the
browser reaches them as it reaches local servers and nothing is published beyond loopback. Each runs
as an unprivileged uid with a read-only root filesystem, no capabilities, and its instance files on
a tmpfs that goes with the container. The image is built offline from this machine's own files
(`runtime.backends.image`); the admin token reaches the server on its standard input, never in its
command line or environment (`docker inspect` shows neither).

    backend = DockerBackend(docker_host="unix:///run/docker.sock")   # default: DOCKER_HOST or the system socket
    manager = EnvironmentManager(backend=backend)
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path

import docker

from contracts.errors import InputError
from mocked_apps.kit import AdminClient, AppServerError
from mocked_apps.kit.process import free_port
from mocked_apps.registry import resolve

from .image import AppImage, ImageBuildError, build_image
from .local import LocalBackend, _safe

__all__ = ["AppContainer", "DockerBackend", "DockerBackendError", "DockerUnavailable"]

LABEL = "gymfactory.app-server"


class DockerBackendError(AppServerError):
    """The Docker daemon refused or failed to run an app server's container; the message carries its answer."""


class DockerUnavailable(InputError):
    """The docker backend cannot open: no daemon answers where it was told to look, or the app image cannot be built."""


class AppContainer:
    """One app server in a container: the same start / alive / restart / stop / kill surface as `AppServer`."""

    def __init__(self, client: docker.DockerClient, image: AppImage, app: str, token: str | None = None):
        self.client, self.image, self.app = client, image, app
        self.token = token or secrets.token_hex(16)
        self.data_dir: Path | None = None  # instance files live on the container's tmpfs
        self.port: int | None = None
        self.container = None
        self.admin: AdminClient | None = None
        self._exited = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        """The server's process id on this host (the container's first process)."""
        if self.container is None:
            return None
        self.container.reload()
        return self.container.attrs["State"]["Pid"] or None

    def start(self, timeout: float = 60.0) -> "AppContainer":
        ref = resolve(self.app)
        mounts = {ref: {"bind": ref, "mode": "ro"}} if Path(ref).is_dir() else {}  # an app folder is seen at its own path
        self.port = free_port()
        command = [self.image.python, "-m", "mocked_apps.kit", "--app", ref, "--port", str(self.port), "--data", "/data"]
        try:
            api = self.client.api  # low-level: only it attaches stdin once (closed after the token)
            host = api.create_host_config(network_mode="host", binds=mounts, read_only=True, cap_drop=["ALL"],
                                          security_opt=["no-new-privileges"], tmpfs={"/tmp": "mode=1777", "/data": "mode=1777"})
            created = api.create_container(self.image.tag, command=command, environment=self.image.env, stdin_open=True,
                                           detach=False, labels={LABEL: self.app}, host_config=host,  # attached: StdinOnce
                                           name=f"gym-{_safe(self.app)[-30:]}-{secrets.token_hex(4)}")
            self.container = self.client.containers.get(created["Id"])
            stdin = self.client.api.attach_socket(self.container.id, params={"stdin": 1, "stream": 1})
            self._exited = threading.Event()
            self.container.start()
            threading.Thread(target=self._watch, args=(self.container, self._exited), name=f"gym-watch-{self.app[-20:]}",
                             daemon=True).start()
            raw = getattr(stdin, "_sock", stdin)
            raw.sendall(f"{self.token}\n".encode())  # the token travels on stdin, as for a local server
            raw.close()
        except docker.errors.DockerException as err:
            self.stop()
            raise DockerBackendError(f"app server {self.app}: docker: {err}") from err
        admin = AdminClient(self.url, self.token)
        if admin.wait_until_up(self.alive, timeout):
            self.admin = admin
            return self
        admin.close()
        if not self.alive():
            out = self.output()
            self.stop()
            raise DockerBackendError(f"app server {self.app} exited in its container:\n{out}")
        out = self.output()
        self.stop()
        raise DockerBackendError(f"app server {self.app} did not answer within {timeout:.0f}s in its container:\n{out}")

    def alive(self) -> bool:
        """Whether the server's container still runs: a flag its watcher clears, so asking costs no daemon call."""
        return self.container is not None and not self._exited.is_set()

    @staticmethod
    def _watch(container, exited: threading.Event) -> None:
        """Block on the daemon's wait for the container to exit (crash, kill, OOM or stop), then say so."""
        try:
            container.wait(timeout=None)
        except (docker.errors.DockerException, OSError):
            pass  # the daemon went away: the server is unreachable either way
        exited.set()

    def output(self) -> str:
        """What the server printed (its last 4 KB)."""
        if self.container is None:
            return ""
        try:
            return self.container.logs(tail=200).decode(errors="replace")[-4000:]
        except docker.errors.DockerException:
            return ""

    def kill(self) -> None:
        """Kill the server abruptly (fault tests); the container stays until `stop`."""
        if self.container is not None and self.alive():
            self.container.kill()
            self.container.wait(timeout=30)
            self._exited.set()

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s) and remove its container."""
        if self.admin:
            self.admin.close()
            self.admin = None
        if self.container is not None:
            try:
                self.container.remove(force=not self._stop_gracefully())
            except docker.errors.NotFound:
                pass
            self.container = None

    def _stop_gracefully(self) -> bool:
        try:
            self.container.stop(timeout=10)
            return True
        except docker.errors.DockerException:
            return False

    def restart(self, timeout: float = 60.0) -> "AppContainer":
        """A fresh container (all instances are gone; callers re-create what they need)."""
        self.stop()
        return self.start(timeout)


class DockerBackend(LocalBackend):
    """App servers in containers of an image built offline from this machine; the pool and browser as the local backend.

    Construction connects to the daemon and makes sure the image is there: built on the first use of a
    daemon and after any change of the code or the environment (10-25 s on 2 cores); otherwise only the
    files are listed and compared (a few seconds for the first backend of a process, then well under one).
    """

    def __init__(self, pool_size: int = 4, docker_host: str | None = None, admin_timeout: float = 10.0):
        """`docker_host`: the daemon's URL (`unix:///path/docker.sock`); default `DOCKER_HOST` or the system socket."""
        super().__init__(pool_size=pool_size, admin_timeout=admin_timeout)
        try:
            self.client = docker.DockerClient(base_url=docker_host) if docker_host else docker.from_env()
            self.client.ping()
        except docker.errors.DockerException as err:
            raise DockerUnavailable(f"docker backend: no Docker daemon at {docker_host or 'DOCKER_HOST / the system socket'}: {err}") from err
        try:  # now, not in a session's first reset: a build takes seconds to tens of seconds, past a reset's deadline
            self.image: AppImage = build_image(self.client)
        except ImageBuildError as err:
            self.client.close()
            raise DockerUnavailable(f"docker backend: {err}") from err

    def _start_server(self, app: str, data_dir: Path) -> AppContainer:
        return AppContainer(self.client, self.image, app).start()

    def close(self) -> None:
        super().close()
        self.client.close()
