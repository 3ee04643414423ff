"""Bounded retries with exponential backoff for HTTP providers, and SDK errors as ProviderError."""

from __future__ import annotations

import json
import time
from typing import Callable, TypeVar

from factory.providers.base import ProviderError

R = TypeVar("R")
_RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
_MAX_WAIT_S = 8.0
T = TypeVar("T")


class BadReply(ValueError):
    """An HTTP 200 reply of the wrong shape (no choices, no content list...): retried like a 5xx."""


def call_with_retries(
    provider: str,
    call: Callable[[], R],
    *,
    read: Callable[[R], T],
    timeout_error: type[Exception],
    connection_error: type[Exception],
    status_error: type[Exception],
    retries: int,
    backoff_s: float,
) -> T:
    """`read(call())`, retried on 429/5xx, connection errors and unusable replies; every failure ends as ProviderError.

    An unusable reply is a body that is not JSON (garbage, truncated) or that `read` rejects with
    BadReply (the wrong shape); it is retried like a 5xx and ends as reason `bad_reply`. Waits
    `backoff_s * 2**attempt` (or the server's Retry-After), at most 8 s; a response marked
    `x-should-retry: false` is not retried.
    """
    attempt = 0
    while True:
        try:
            return read(call())
        except (json.JSONDecodeError, BadReply) as exc:  # the SDKs parse the body of a 200 reply without checking it
            reason, retryable, failure, wait = "bad_reply", True, exc, None
        except timeout_error as exc:
            raise ProviderError(provider, "timeout", str(exc)) from exc
        except status_error as exc:
            status = getattr(exc, "status_code", 0)
            headers = getattr(getattr(exc, "response", None), "headers", {}) or {}
            reason, failure = f"http_{status}", exc
            retryable = status in _RETRY_STATUS and headers.get("x-should-retry") != "false"
            wait = _retry_after(headers)
        except connection_error as exc:
            reason, retryable, failure, wait = "connection", True, exc, None
        if not retryable or attempt >= retries:
            raise ProviderError(provider, reason, f"{failure} (after {attempt + 1} attempts)") from failure
        time.sleep(min(_MAX_WAIT_S, wait if wait is not None else backoff_s * 2**attempt))
        attempt += 1


def _retry_after(headers) -> float | None:
    """The server's Retry-After in seconds, when it sent a number."""
    try:
        return max(0.0, float(headers.get("retry-after")))
    except (TypeError, ValueError):
        return None
