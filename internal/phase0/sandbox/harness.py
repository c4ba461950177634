# TRIAGE code sandbox harness; see doc.go. bubblewrap runs the interpreter
# with a one-line bootstrap that reads this file from fd 3 and executes it
# with `requests`, a buffered reader of fd 3, in its globals.
#
#   fd 3, from Go: one JSON config line, then one line per test,
#         {"i": k, "input": "..."}, each sent once the previous result is in.
#   fd 4, to Go:   frames, a 4-byte big-endian length and one JSON object.
#
# The harness is the sandbox's PID 1 (bwrap --as-pid-1): there is no other
# init, and it sets the program's rlimits on itself before it compiles
# any of the program, so every process in the sandbox has them. It never
# receives an expected output and never runs the program's code (it only
# compiles it, once): each test runs in a forked child which, before
# anything of the program runs, keeps only descriptors 0, 1 and 2 (its
# input, its output and its error stream, three fresh memfds) and lowers
# its own limits. The harness makes itself undumpable first, so a test
# process, although it has the same uid, can neither ptrace it nor open
# its /proc/<pid>/fd or /proc/<pid>/mem; and as PID 1 of its PID
# namespace with no signal handler, it receives no signal a test process
# sends. Go compares the outputs.
import base64
import ctypes
import json
import os
import resource
import signal
import sys
import time
import traceback

RESULTS = 4
ERR_TAIL = 4000

# LiveCodeBench's import preamble (lcb_runner/evaluation/testing_util.py),
# executed once; each test's process runs the program in its own
# (copy-on-write) copy of the resulting globals.
PREAMBLE = """\
from string import *
from re import *
from datetime import *
from collections import *
from heapq import *
from bisect import *
from copy import *
from math import *
from random import *
from statistics import *
from itertools import *
from functools import *
from operator import *
from io import *
from sys import *
from json import *
from builtins import *
from typing import *
import string
import re
import datetime
import collections
import heapq
import bisect
import copy
import math
import random
import statistics
import itertools
import functools
import operator
import io
import sys
import json
"""


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def send(obj):
    data = json.dumps(obj).encode()
    write_all(RESULTS, len(data).to_bytes(4, "big") + data)


PR_GET_DUMPABLE, PR_SET_DUMPABLE = 3, 4
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def seccomp_program(raw):
    """The struct sock_fprog of a raw filter (8 bytes per instruction),
    kept with its buffer; None for no filter."""
    if not raw:
        return None
    buf = ctypes.create_string_buffer(raw, len(raw))
    return SockFprog(len(raw) // 8, ctypes.addressof(buf)), buf


def add_seccomp_filter(libc, prog):
    """Adds the program's filter to this process (no_new_privs is set, so
    no privilege is needed); it is kept across fork and exec."""
    if prog is None:
        return
    fprog, _ = prog
    if libc.prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(fprog), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def make_undumpable(libc):
    """prctl(PR_SET_DUMPABLE, 0): only a process with CAP_SYS_PTRACE in
    the sandbox's user namespace (none has it) may now ptrace this one or
    open its /proc/<pid>/fd and /proc/<pid>/mem. Forked children inherit
    the flag."""
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")
    return libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0


def proc_status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            out[key] = value.strip()
    return out


RLIMITS = {
    "as": resource.RLIMIT_AS,
    "nproc": resource.RLIMIT_NPROC,
    "nofile": resource.RLIMIT_NOFILE,
    "core": resource.RLIMIT_CORE,
    "cpu": resource.RLIMIT_CPU,
}


def setup(cfg, undumpable):
    """Limits for the harness and every process it forks; then the
    environment the program sees. Returns the checks Go verifies."""
    for name, (soft, hard) in cfg["rlimits"].items():
        resource.setrlimit(RLIMITS[name], (soft, hard))
    os.environ.clear()
    os.environ.update(cfg["env"])
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    st = proc_status()
    return {
        "uid": os.getuid(),
        "pid": os.getpid(),
        "rlimits": {name: list(resource.getrlimit(r)) for name, r in RLIMITS.items()},
        "undumpable": undumpable,
        "no_new_privs": st.get("NoNewPrivs") == "1",
        "seccomp": int(st.get("Seccomp", "0")),
        "cap_eff": st.get("CapEff", ""),
        "cap_prm": st.get("CapPrm", ""),
        "cap_bnd": st.get("CapBnd", ""),
    }


def preamble_globals():
    sys.setrecursionlimit(50000)
    base = {"__builtins__": __builtins__}
    exec(PREAMBLE, base)
    base.pop("__name__", None)
    return base


def kill_strays():
    """In the sandbox's PID namespace, kill(-1) from PID 1 (the harness)
    reaches exactly the processes a test left behind. Repeat until none is
    left, reaping them (as PID 1, the harness inherits every orphan)."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            return
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        time.sleep(0.001)


def reap_until(pid):
    """Waits for the test process, reaping on the way the orphans of the
    test that die (as PID 1, the harness inherits them): a zombie would
    count against the process limits. Returns the test process's status."""
    while True:
        try:
            got, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 0
        if got == pid:
            return status


def fork():
    for _ in range(50):
        try:
            return os.fork()
        except BlockingIOError:
            # Processes of the last test may still count against the
            # process limits for a moment.
            kill_strays()
            time.sleep(0.01)
    return None


def memfd(name, data=b""):
    fd = os.memfd_create(name, 0)
    if data:
        write_all(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    return fd


def read_all(fd, limit):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks, n = [], 0
    while n <= limit:
        b = os.read(fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
        n += len(b)
    return b"".join(chunks)[: limit + 1]


def read_tail(fd, n):
    size = os.fstat(fd).st_size
    return os.pread(fd, n, max(0, size - n))


def compiled(cfg):
    """The program compiled once, on the first test (compiling runs none
    of it); None if it does not compile, and each test's process then
    compiles it again to report the error."""
    if "code" not in cfg:
        try:
            cfg["code"] = compile(cfg["program"], "solution.py", "exec")
        except Exception:
            cfg["code"] = None
    return cfg["code"]


def run_test(cfg, base, i, inp):
    compiled(cfg)
    functional = cfg["test_type"] == "functional"
    fds = (memfd("stdin", b"" if functional else inp.encode()), memfd("stdout"), memfd("stderr"))
    pid = fork()
    if pid is None:
        for fd in fds:
            os.close(fd)
        return {"ev": "result", "i": i, "status": "fork_failed"}
    if pid == 0:
        try:
            child(cfg, base, inp, fds)
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(70)
    status = reap_until(pid)
    kill_strays()
    out = read_all(fds[1], cfg["limits"]["fsize"])
    err = read_tail(fds[2], ERR_TAIL).decode("utf-8", "replace")
    for fd in fds:
        os.close(fd)
    if os.WIFSIGNALED(status):
        st, code = "signaled", os.WTERMSIG(status)
    else:
        st, code = "exited", os.WEXITSTATUS(status)
    return {"ev": "result", "i": i, "status": st, "code": code, "stdout": base64.b64encode(out).decode(), "stderr": err}


# --- Everything below runs in a test's child process. ---


def child(cfg, base, inp, fds):
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    # Nothing but the test's own streams: not the channels to Go, not the
    # memfds of other tests.
    os.closerange(3, 1 << 20)
    # As a fresh interpreter: Ctrl-C's KeyboardInterrupt (the harness, PID
    # 1, has no handler, so that no signal from a test process reaches it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    lim = cfg["limits"]
    resource.setrlimit(resource.RLIMIT_FSIZE, (lim["fsize"], lim["fsize"]))
    resource.setrlimit(resource.RLIMIT_CPU, (lim["test_cpu"], lim["test_cpu"] + 1))
    # The OOM killer (a memory cgroup's or the machine's) is to take test
    # processes first. An undumpable process's /proc/self files belong to root, so
    # the child is briefly dumpable (nothing of the program has run yet).
    libc = cfg["libc"]
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    write_oom_score_adj(cfg["oom_score_adj"]["test"])
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # The program's own filter, last: it forbids what only the harness
    # needs (memfds), so nothing of the child may need it after this.
    add_seccomp_filter(libc, cfg["seccomp"])
    sys.argv = ["solution.py"]
    if cfg["test_type"] == "functional":
        run_functional(cfg, base, inp)
    else:
        run_stdin(cfg, base)


def finish(status):
    """Ends a test process the way the interpreter would end: join
    non-daemon threads, run atexit handlers, flush, then _exit."""
    try:
        if "threading" in sys.modules:
            sys.modules["threading"]._shutdown()
    except BaseException:
        pass
    try:
        import atexit

        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.__stdout__):
        try:
            stream.flush()
        except BaseException:
            traceback.print_exc()
            status = status or 1
    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:
            pass
    os._exit(status)


def program_code(cfg):
    return cfg["code"] or compile(cfg["program"], "solution.py", "exec")


def run_stdin(cfg, base):
    """The program runs as __main__, as a fresh interpreter would run it.
    Its globals are this process's copy of the preamble's: copying them
    would touch every object (and copy its page) for nothing."""
    g = base
    g["__name__"] = "__main__"
    status = 0
    try:
        exec(program_code(cfg), g)
    except SystemExit:
        # LiveCodeBench ignores SystemExit: the output decides.
        pass
    except BaseException:
        traceback.print_exc()
        status = 1
    finish(status)


class Discard:
    """A functional test's prints go nowhere (its result is what counts)."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, s):
        return len(s)

    def writelines(self, lines):
        pass

    def flush(self):
        pass

    def isatty(self):
        return False


class Incomparable(Exception):
    """A value that no JSON value equals in Python."""


def check_comparable(v):
    """Raises Incomparable unless v is made of what a JSON document decodes
    to in Python (None, bool, int, float, str, list, dict with str keys).
    Anything else (a nested tuple, a set, an object) equals no expected
    output in LiveCodeBench's `prediction == expected`."""
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise Incomparable("the float %r" % v)
        return
    if v is None or isinstance(v, (bool, int, str)):
        return
    if isinstance(v, list):
        if set(map(type, v)) <= {int, str, bool}:
            return
        for x in v:
            check_comparable(x)
        return
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise Incomparable("a dict with a %s key" % type(k).__name__)
            check_comparable(x)
        return
    raise Incomparable("a value of type %s" % type(v).__name__)


def run_functional(cfg, base, inp):
    """The program's module-level code runs here, in the test's process;
    then Solution().<func>(*args), or the module-level function, as
    LiveCodeBench's grade_call_based calls it (a fresh instance per test).
    The result goes to fd 1 as {"result": <JSON>} or {"incomparable": ...}."""
    sys.stdout = Discard()
    status = 0
    try:
        args = [json.loads(line) for line in inp.split("\n") if line.strip()]
        g = base
        g["__name__"] = "solution"
        exec(program_code(cfg), g)
        func = cfg["func"]
        if g.get("Solution") is not None:
            method = getattr(g["Solution"](), func, None)
            if method is None:
                raise AttributeError("class Solution has no method %s" % func)
        else:
            method = g.get(func)
            if not callable(method):
                raise NameError("no class Solution and no function %s" % func)
        pred = method(*args)
        if isinstance(pred, tuple):
            pred = list(pred)
    except BaseException:
        traceback.print_exc()
        status = 1
    if status:
        finish(status)
    try:
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(0)
        check_comparable(pred)
        doc = '{"result": %s}' % json.dumps(pred)
    except Incomparable as e:
        doc = json.dumps({"incomparable": str(e)})
    except (ValueError, RecursionError) as e:
        doc = json.dumps({"incomparable": "a value JSON cannot hold (%s)" % e})
    try:
        if "threading" in sys.modules:
            sys.modules["threading"]._shutdown()
        import atexit

        atexit._run_exitfuncs()
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
        write_all(1, doc.encode())
    except BaseException:
        traceback.print_exc()
        os._exit(1)
    os._exit(0)


def write_oom_score_adj(value):
    """Raises this process's oom_score_adj (raising needs no privilege);
    /proc/self is writable only while the process is dumpable."""
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(value))
    except OSError:
        pass


def main():
    # As PID 1 of the sandbox's PID namespace, the harness receives only
    # the signals it handles: none (Python handles SIGINT by default).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        cfg = json.loads(requests.readline())  # noqa: F821 (bootstrap global)
        # The kernel's OOM killer is to take test processes first, then the
        # harness, before anything outside the sandbox (see oom.go).
        write_oom_score_adj(cfg["oom_score_adj"]["harness"])
        libc = ctypes.CDLL(None, use_errno=True)
        undumpable = make_undumpable(libc)
        cfg["libc"] = libc
        cfg["seccomp"] = seccomp_program(base64.b64decode(cfg.get("program_filter") or ""))
        checks = setup(cfg, undumpable)
        base = preamble_globals()
        import decimal  # noqa: F401 (the preamble's statistics needs it)
    except ImportError as e:
        send({"ev": "setup_failed", "error": "incomplete standard library (%s): install python3, not only python3-minimal" % e})
        os._exit(3)
    except Exception as e:
        send({"ev": "setup_failed", "error": "%s: %s" % (type(e).__name__, e)})
        os._exit(3)
    send({"ev": "ready", "python": sys.version.split()[0], "executable": sys.executable, "checks": checks})
    while True:
        line = requests.readline()  # noqa: F821
        if not line:
            os._exit(0)
        req = json.loads(line)
        send(run_test(cfg, base, req["i"], req["input"]))


main()
