"""`python -m mocked_apps.kit --app REF --port N < token`: serve one app type.

The admin token is read from the first line of standard input, never from the command line or the
environment, where any process on the machine could read it (`/proc/*/cmdline`, `/proc/*/environ`).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import tempfile
from pathlib import Path

from . import lifeline
from .package import load_package
from .server import create_server


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and run the server until it is stopped."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--app", required=True, help="registry name, module or package folder")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--data", default=None, help="folder for instance files (default: a temp folder)")
    parser.add_argument(lifeline.FLAG, action="store_true", help="stop when standard input ends after the token (the parent died)")
    args = parser.parse_args(argv)
    token = sys.stdin.buffer.readline().decode().strip()
    if len(token) < 16:
        parser.error("the admin token (16+ characters) must be the first line of standard input")
    from mocked_apps.registry import resolve

    package = load_package(resolve(args.app))
    # uvicorn re-raises SIGTERM once it has shut down: exit through Python, so the folder below is removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.stop_with_parent:
        lifeline.watch_stdin()
    own = tempfile.TemporaryDirectory(prefix=f"gym-{package.name}-") if not args.data else contextlib.nullcontext(args.data)
    with own as data:  # a folder made here is removed when the server stops
        app = create_server(package, token, Path(data))
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)



if __name__ == "__main__":
    main()
