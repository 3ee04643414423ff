"""A real S3-compatible server process on loopback (moto in server mode), for tests of the object store.

`moto.server` speaks the S3 REST API over HTTP, so the real clients (`s3fs` over `aiobotocore`) run
unchanged against it. `env` is what a user sets to point them at any S3-compatible endpoint: the
standard `AWS_ENDPOINT_URL` and credentials variables.

    with S3Server() as s3:
        monkeypatch.setattr(os, "environ", {**os.environ, **s3.env})
        bucket = s3.create_bucket()
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time

import httpx

__all__ = ["S3Server", "S3ServerError"]


class S3ServerError(RuntimeError):
    """The S3-compatible test server did not start; the message carries its output."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class S3Server:
    """`python -m moto.server` on a free loopback port, in its own process group."""

    def __init__(self):
        self.port: int | None = None
        self.started_s: float | None = None
        self._proc: subprocess.Popen | None = None
        self._log = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """The standard variables that point botocore (and so s3fs) at this server."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": "gym-test", "AWS_SECRET_ACCESS_KEY": "gym-test-secret",
                "AWS_DEFAULT_REGION": "us-east-1"}

    def start(self, timeout: float = 60.0) -> "S3Server":
        """Start it; whatever a failed start left running or on disk is removed before the error propagates."""
        try:
            return self._start(timeout)
        except BaseException:
            self.stop()
            raise

    def _start(self, timeout: float) -> "S3Server":
        began = time.monotonic()
        self.port = _free_port()
        self._log = tempfile.TemporaryFile()
        self._proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                      stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise S3ServerError(f"moto.server exited with {self._proc.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.endpoint}/moto-api/", timeout=1).status_code < 500:
                    self.started_s = time.monotonic() - began
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise S3ServerError(f"moto.server did not answer within {timeout:.0f}s:\n{self.output()}")

    def create_bucket(self, name: str | None = None) -> str:
        """A new empty bucket; returns its name."""
        import boto3

        name = name or f"gym-{secrets.token_hex(6)}"
        boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="gym-test", aws_secret_access_key="gym-test-secret",
                     region_name="us-east-1").create_bucket(Bucket=name)
        return name

    def output(self) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, 15)
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, 9)
                self._proc.wait()
        self._proc = None

    def __enter__(self) -> "S3Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
