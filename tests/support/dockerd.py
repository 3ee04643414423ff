"""A private Docker daemon for the docker backend's tests: its own data root (a tmpfs where it can mount one),
exec root, pidfile and socket.

It never touches the system daemon (if any) and opens no network of its own: no bridge, no iptables
rules; the containers the tests run use host networking on loopback. `stop` ends the daemon (and the
containerd it started), then removes its folders.

    with Dockerd() as daemon:
        backend = DockerBackend(docker_host=daemon.url)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["Dockerd", "DockerdUnavailable"]


class DockerdUnavailable(RuntimeError):
    """dockerd is missing or did not start; the message carries its log."""


class Dockerd:
    """`dockerd` in a temp folder, answering on a unix socket there."""

    def __init__(self):
        self.root: Path | None = None
        self.started_s: float | None = None
        self._proc: subprocess.Popen | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"unix://{self.root / 'docker.sock'}"

    def start(self, timeout: float = 60.0) -> "Dockerd":
        """Start it; whatever a failed start left running or on disk is removed before the error propagates."""
        try:
            return self._start(timeout)
        except BaseException:
            self.stop()
            raise

    def _start(self, timeout: float) -> "Dockerd":
        import docker

        binary = shutil.which("dockerd")
        if binary is None:
            raise DockerdUnavailable("no dockerd: run scripts/install.sh (it installs Debian's docker.io)")
        began = time.monotonic()
        self.root = Path(tempfile.mkdtemp(prefix="gym-dockerd-"))
        self._log = open(self.root / "log", "wb")
        (self.root / "data").mkdir()
        # images and containers in memory: imports write nothing to disk and `stop` frees it all with one umount
        self._tmpfs = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4g,mode=0711", "gym-dockerd", str(self.root / "data")],
                                     capture_output=True).returncode == 0
        self._proc = subprocess.Popen(
            [binary, "--data-root", str(self.root / "data"), "--exec-root", str(self.root / "exec"),
             "--pidfile", str(self.root / "dockerd.pid"), "-H", self.url, "--bridge=none", "--iptables=false",
             "--ip6tables=false", "--ip-forward=false", "--ip-masq=false", "--userland-proxy=false"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise DockerdUnavailable(f"dockerd exited with {self._proc.returncode}:\n{self.log()}")
            if (self.root / "docker.sock").exists():
                client = docker.DockerClient(base_url=self.url, timeout=5)
                try:
                    client.ping()
                    self.started_s = time.monotonic() - began
                    return self
                except docker.errors.DockerException:
                    pass
                finally:
                    client.close()
            time.sleep(0.1)
        self.stop()
        raise DockerdUnavailable(f"dockerd did not answer within {timeout:.0f}s:\n{self.log()}")

    def log(self) -> str:
        path = self.root / "log" if self.root else None
        return path.read_text(errors="replace")[-4000:] if path and path.is_file() else ""

    def stop(self) -> None:
        """SIGTERM (dockerd stops its containers and containerd, unmounts), SIGKILL after 30 s; then remove the folders."""
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGTERM)
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                self._proc.wait()
        self._proc = None
        if self.root is not None:
            if self._log is not None:
                self._log.close()
            for mount in self._mounts():  # the tmpfs, and what the daemon leaves mounted (the host netns handle)
                subprocess.run(["umount", "-l", mount], capture_output=True)
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def _mounts(self) -> list[str]:
        """Mount points below the daemon's folder, deepest first."""
        prefix = f"{self.root}/"
        with open("/proc/self/mounts") as table:
            points = [line.split()[1] for line in table]
        return sorted({p for p in points if p.startswith(prefix)}, key=len, reverse=True)

    def __enter__(self) -> "Dockerd":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
