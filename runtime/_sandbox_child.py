"""The sandbox child: run as `python -s -S -B -P -c <this file's text>`, never imported by the project.

It runs inside bubblewrap (see sandbox.py), reads one job line from stdin, freezes the wall clock at the
job's `clock` (the task's virtual time) when it has one, confines itself further
(rlimits; a network namespace when unconfined as root; the scratch folder as cwd; an audit hook that
ends the process on network use, subprocesses, reads of files other than the standard library, or
writes outside the scratch folder), runs the job's entry function, and writes JSON lines on its protocol pipe:
`{"t": "call", ...}` (a request the parent answers on stdin), then one `{"t": "result", "value"}`
or `{"t": "error", "kind", "error"}`. User prints go to stderr, never onto the protocol.
"""

import _thread
import json
import os
import sys

_FORBIDDEN_EXIT = 3
_NETWORK_EVENTS = ("socket.", "urllib.", "http.client.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.")
_PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
     "pty.spawn", "os.startfile", "os.kill", "os.killpg", "signal.pthread_kill", "resource.setrlimit",
     "resource.prlimit", "sys.remote_exec", "webbrowser.open", "sqlite3.enable_load_extension",
     "sqlite3.load_extension", "gc.get_objects", "gc.get_referrers", "gc.get_referents"}
)
# Modules that start processes, call C freely, or write files without an "open" audit event.
_BLOCKED_IMPORTS = frozenset(
    {"subprocess", "_posixsubprocess", "ctypes", "_ctypes", "multiprocessing", "_multiprocessing", "pty",
     "sqlite3", "_sqlite3", "dbm", "_dbm", "_gdbm", "_posixshmem", "readline", "cffi", "_cffi_backend"}
)
# Events whose leading path arguments are written to (event -> how many leading args are paths).
_WRITE_PATH_EVENTS = {
    "os.remove": 1, "os.rmdir": 1, "os.mkdir": 1, "os.rename": 2, "os.link": 2, "os.symlink": 2,
    "os.chmod": 1, "os.chown": 1, "os.truncate": 1, "os.utime": 1, "os.setxattr": 1,
    "os.removexattr": 1, "os.chflags": 1, "os.lchflags": 1, "os.mkfifo": 1, "os.mknod": 1,
    "shutil.rmtree": 1, "shutil.chown": 1, "sqlite3.connect": 1,
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def _confine(limits, scratch):
    """Resource limits, then (as root) a private network namespace with no interfaces up."""
    import resource

    mem = int(limits["memory_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    cpu = max(1, int(limits["cpu_s"] + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    fsize = int(limits["file_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    netns = False
    if os.geteuid() == 0 and limits.get("netns", True):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        netns = libc.unshare(0x40000000) == 0  # CLONE_NEWNET
        for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
            del sys.modules[name]
    os.chdir(scratch)
    return netns


def _outside(path, dir_fd=None, _root="/", _realpath=os.path.realpath, _fspath=os.fspath):
    """Whether `path` (str, bytes, path-like or fd) lies outside the scratch folder `_root`."""
    if isinstance(path, int):
        return False
    try:
        path = _fspath(path)
    except TypeError:
        return True
    if isinstance(path, bytes):
        path = path.decode("utf-8", "surrogateescape")
    if path in (":memory:", "", "/dev/null"):
        return False
    if dir_fd is not None and not path.startswith("/"):
        return True
    full = _realpath(path)
    return not (full == _root or full.startswith(_root + "/"))


def _unreadable(path, _roots=(), _outside=_outside):
    """Whether `path` lies outside every folder the child may read (scratch, the stdlib, time zones)."""
    for root in _roots:
        if not _outside(path, None, root):
            return False
    return True


def _refuse(what, _fd=-1, _write=os.write, _exit=os._exit, _dumps=json.dumps):
    """Tell the parent which operation was forbidden, then end the process (uncatchable)."""
    try:
        _write(_fd, (_dumps({"t": "error", "kind": "forbidden", "error": "forbidden: " + what[:500]}) + "\n").encode())
    finally:
        _exit(_FORBIDDEN_EXIT)


def _hook(event, args, _outside=_outside, _unreadable=_unreadable, _refuse=_refuse, _net=_NETWORK_EVENTS, _proc=_PROCESS_EVENTS,
          _paths=tuple(_WRITE_PATH_EVENTS.items()), _imports=_BLOCKED_IMPORTS, _flags=_WRITE_FLAGS, _guarded=()):
    """The audit hook: state lives in defaults, whose replacement is itself refused."""
    if event == "open":
        path, mode = args[0], args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else 0
        writing = (isinstance(flags, int) and flags & _flags) or (isinstance(mode, str) and any(c in mode for c in "wax+"))
        if writing and _outside(path):
            _refuse("write to %r outside the scratch folder" % (path,))
        if _unreadable(path):
            _refuse("read of %r: a verifier reads its `final` argument, not files" % (path,))
    elif event in ("os.listdir", "os.scandir") and args and args[0] is not None and _unreadable(args[0]):
        _refuse("listing of %r: a verifier reads its `final` argument, not files" % (args[0],))
    elif event.startswith(_net):
        _refuse("network access (%s %r)" % (event, args[1:3] if len(args) > 1 else args))
    elif event in _proc:
        _refuse(event)
    elif event.startswith("ctypes."):
        _refuse("ctypes (%s)" % event)
    elif event == "import":
        if any(part in _imports for part in args[0].split(".")):  # every part: `a._posixsubprocess` is refused too
            _refuse("import of %s" % args[0])
        if args[1] is not None and not _outside(args[1]):
            _refuse("import of %s from the scratch folder" % args[0])
    elif event in ("object.__setattr__", "object.__delattr__") and any(args[0] is f for f in _guarded):
        _refuse("tampering with the sandbox (%s)" % args[1])
    else:
        for name, count in _paths:
            if event == name:
                for path in args[:count]:
                    if path is not None and _outside(path):
                        _refuse("%s on %r outside the scratch folder" % (event, path))


def _install_hook(scratch, proto_fd):
    """Bind the scratch folder and protocol fd into the hook's defaults, then install it."""
    root = os.path.realpath(scratch)
    _outside.__defaults__ = (None, root) + _outside.__defaults__[2:]
    readable = [root, "/dev/null", "/dev/urandom", "/usr/share/zoneinfo"]
    readable += [os.path.realpath(entry) for entry in sys.path if entry]
    _unreadable.__defaults__ = (tuple(readable),) + _unreadable.__defaults__[1:]
    _refuse.__defaults__ = (proto_fd,) + _refuse.__defaults__[1:]
    _hook.__defaults__ = _hook.__defaults__[:-1] + ((_hook, _outside, _unreadable, _refuse),)
    sys.addaudithook(_hook)


def _freeze_clock(clock):
    """Every wall-clock reading returns `clock` (ISO-8601; naive means UTC): datetime's now/today/utcnow,
    date.today, time.time(_ns), and the time functions that default to now. Monotonic clocks keep running."""
    import datetime
    import time

    real_date, real_datetime, utc = datetime.date, datetime.datetime, datetime.timezone.utc
    aware = real_datetime.fromisoformat(clock)
    aware = aware.replace(tzinfo=utc) if aware.tzinfo is None else aware
    stamp = aware.timestamp()
    local = real_datetime.fromtimestamp(stamp)  # the sandbox's TZ is UTC: the clock as written

    class _Real(type):  # isinstance/issubclass answer as for the real classes
        def __instancecheck__(cls, obj):
            return isinstance(obj, cls._real)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, cls._real)

    class date(real_date, metaclass=_Real):
        _real = real_date

        @classmethod
        def today(cls):
            return real_date(local.year, local.month, local.day)

    class datetime_(real_datetime, metaclass=_Real):
        _real = real_datetime

        @classmethod
        def now(cls, tz=None):
            return local if tz is None else real_datetime.fromtimestamp(stamp, tz)

        @classmethod
        def today(cls):
            return local

        @classmethod
        def utcnow(cls):
            return real_datetime.fromtimestamp(stamp, utc).replace(tzinfo=None)

    datetime_.__name__ = datetime_.__qualname__ = "datetime"
    datetime.date, datetime.datetime = date, datetime_

    def at_clock(fn):
        return lambda secs=None: fn(stamp if secs is None else secs)

    real_localtime = time.localtime
    time.time, time.time_ns = (lambda: stamp), (lambda: int(stamp * 1_000_000_000))
    time.localtime, time.gmtime, time.ctime = at_clock(real_localtime), at_clock(time.gmtime), at_clock(time.ctime)
    time.asctime = (lambda t=None, _f=time.asctime: _f(real_localtime(stamp) if t is None else t))
    time.strftime = (lambda fmt, t=None, _f=time.strftime: _f(fmt, real_localtime(stamp) if t is None else t))


class _Remote:
    """The entry function's argument: the job's data as attributes, other methods answered by the parent."""

    def __init__(self, data, call):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_call", call)

    def __getattr__(self, name):
        data = object.__getattribute__(self, "_data")
        if name in data:
            return data[name]
        call = object.__getattribute__(self, "_call")
        if call is None or name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: call(name, args, kwargs)

    def __getitem__(self, key):
        return object.__getattribute__(self, "_data")[key]

    def __setattr__(self, name, value):
        raise AttributeError("read-only")


class RemoteError(Exception):
    """The parent refused a call; the message says why."""


def _main():
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_fd = os.dup(1)
    os.dup2(2, 1)  # prints go to stderr, never onto the protocol
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    job = json.loads(proto_in.readline())
    scratch, source, filename = job["scratch"], job["source"], job["filename"]

    def send(message):
        data = (json.dumps(message) + "\n").encode()
        while data:
            data = data[os.write(proto_fd, data):]

    lock = _thread.allocate_lock()  # one request in flight: threads in the untrusted code take turns

    def call(name, args, kwargs):
        with lock:
            send({"t": "call", "name": name, "args": list(args), "kwargs": kwargs})
            reply = json.loads(proto_in.readline())
        if not reply["ok"]:
            raise RemoteError(reply["error"])
        return reply["value"]

    _confine(job["limits"], scratch)
    if job.get("clock"):
        _freeze_clock(job["clock"])
    if job["limits"].get("audit", True):
        _install_hook(scratch, proto_fd)
    remote = call if job["remote"] else None
    namespace = {"__name__": "__sandbox__", "__builtins__": __builtins__, "RemoteError": RemoteError}
    try:
        import linecache

        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), namespace)
        entry = namespace.get(job["entry"])
        if not callable(entry):
            send({"t": "error", "kind": "bad_output", "error": "source defines no function %s()" % job["entry"]})
            return
        if job["repeat"] == 1:
            value = entry(_Remote(job["arg"] or {}, remote))
        else:  # each call gets its own copy of the data, so one call's mutations cannot leak into the next
            value = [entry(_Remote(json.loads(json.dumps(job["arg"] or {})), remote)) for _ in range(job["repeat"])]
    except MemoryError:
        namespace.clear()
        send({"t": "error", "kind": "memory", "error": "MemoryError: memory limit reached"})
        return
    except BaseException as exc:  # the untrusted code's failure is data for the parent
        import traceback

        lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
        text = "".join(line for line in lines if not line.startswith('  File "<string>"'))
        send({"t": "error", "kind": "crash", "error": text[-4000:]})
        return
    try:
        send({"t": "result", "value": value})
    except (TypeError, ValueError) as exc:
        send({"t": "error", "kind": "bad_output", "error": "result is not JSON data: %s" % exc})


_main()
