# TRIAGE code sandbox harness. The Go side (sandbox.go) starts the
# interpreter in fresh namespaces with a -c bootstrap that reads this file
# from standard input. It reads a config line and then one test per line on
# fd 4, and reports on fd 3, one JSON object a line. It sets up the isolation (mounts, privileges, rlimits) before any
# untrusted code runs, then forks one child per test. See doc.go.
import io
import json
import os
import resource
import signal
import sys
import traceback

CTL = 3
TESTS = 4

# LiveCodeBench's import preamble (lcb_runner/evaluation/testing_util.py),
# executed once; every test's globals start as a copy of the result.
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

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24

MOUNT_OPT_FLAGS = {
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": MS_NOATIME,
    "nodiratime": MS_NODIRATIME,
    "relatime": MS_RELATIME,
    "strictatime": MS_STRICTATIME,
}


def send(obj):
    data = (json.dumps(obj) + "\n").encode()
    while data:
        n = os.write(CTL, data)
        data = data[n:]


def trunc(s, n=200):
    if len(s) <= n:
        return s
    return s[: n // 2] + "...(truncated)..." + s[-n // 2 :]


class SetupError(Exception):
    pass


def libc():
    import ctypes

    lib = ctypes.CDLL(None, use_errno=True)
    lib.mount.argtypes = [
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_ulong,
        ctypes.c_char_p,
    ]
    lib.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return lib


def mount(lib, source, target, fstype, flags, data):
    import ctypes

    enc = lambda s: None if s is None else s.encode()
    if lib.mount(enc(source), enc(target), enc(fstype), flags, enc(data)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "mount %s: %s" % (target, os.strerror(e)))


def unescape_mountinfo(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 3 < len(s) and s[i + 1 : i + 4].isdigit():
            out.append(chr(int(s[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def setup_mounts(cfg, iso, notes):
    """Runs as root of fresh mount, PID and network namespaces."""
    lib = libc()
    # Nothing below may propagate to the host's mount namespace.
    mount(lib, None, "/", None, MS_REC | MS_PRIVATE, None)
    with open("/proc/self/mountinfo") as f:
        mounts = []
        for line in f:
            fields = line.split()
            mounts.append((unescape_mountinfo(fields[4]), fields[5]))
    # Every mount read-only (a bind remount changes this namespace's view
    # only); device nodes such as /dev/null stay writable.
    ro_ok = True
    for point, opts in mounts:
        if point == "/proc" or point.startswith("/proc/"):
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for o in opts.split(","):
            flags |= MOUNT_OPT_FLAGS.get(o, 0)
        try:
            mount(lib, None, point, None, flags, None)
        except OSError as e:
            if point == "/":
                ro_ok = False
            notes.append("read-only remount of %s failed: %s" % (point, e.strerror))
    iso["readonly_fs"] = ro_ok
    # A /proc for the new PID namespace: the program sees only its own
    # processes.
    try:
        mount(lib, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        iso["private_proc"] = True
    except OSError as e:
        notes.append("mounting a private /proc failed: %s" % e.strerror)
    # Private tmpfs: /tmp, read-only, holding the work directory, its own
    # size-limited tmpfs and the only writable directory.
    size = cfg["work_bytes"]
    mount(lib, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    os.mkdir("/tmp/work", 0o700)
    mount(lib, "tmpfs", "/tmp/work", "tmpfs", MS_NOSUID | MS_NODEV, "size=%d,mode=0700" % size)
    if cfg.get("uid") is not None:
        os.chown("/tmp/work", cfg["uid"], cfg["gid"])
    mount(lib, None, "/tmp", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
    iso["private_tmp"] = True
    if os.path.isdir("/dev/shm"):
        try:
            mount(lib, "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=%d,mode=1777" % min(size, 16 << 20))
        except OSError as e:
            notes.append("mounting a private /dev/shm failed: %s" % e.strerror)
    os.chdir("/tmp/work")
    return lib


def drop_capabilities(lib):
    """In a user namespace: drop every capability for good."""
    import ctypes

    PR_CAPBSET_DROP = 24
    PR_SET_SECUREBITS = 28
    PR_CAP_AMBIENT = 47
    PR_CAP_AMBIENT_CLEAR_ALL = 4
    # NOROOT|NOROOT_LOCKED|NO_SETUID_FIXUP|NO_SETUID_FIXUP_LOCKED|KEEP_CAPS_LOCKED:
    # uid 0 never regains capabilities, not even through execve.
    if lib.prctl(PR_SET_SECUREBITS, 0x2F, 0, 0, 0) != 0:
        raise SetupError("prctl(PR_SET_SECUREBITS): " + os.strerror(ctypes.get_errno()))
    for cap in range(64):
        lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    hdr = Header(0x20080522, 0)
    data = (Data * 2)()
    if lib.capset(ctypes.byref(hdr), data) != 0:
        raise SetupError("capset: " + os.strerror(ctypes.get_errno()))


def no_new_privs(lib):
    if lib is None:
        lib = libc()
    PR_SET_NO_NEW_PRIVS = 38
    return lib.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0


def set_limits(lim):
    def both(res, v):
        resource.setrlimit(res, (v, v))

    both(resource.RLIMIT_CORE, 0)
    if lim.get("as"):
        both(resource.RLIMIT_AS, lim["as"])
    if lim.get("fsize"):
        both(resource.RLIMIT_FSIZE, lim["fsize"])
    if lim.get("nofile"):
        both(resource.RLIMIT_NOFILE, lim["nofile"])
    if lim.get("nproc"):
        both(resource.RLIMIT_NPROC, lim["nproc"])
    if lim.get("cpu"):
        resource.setrlimit(resource.RLIMIT_CPU, (lim["cpu"], lim["cpu"] + 1))


def setup(cfg):
    iso = {"readonly_fs": False, "private_tmp": False, "private_proc": False, "unprivileged": False, "no_new_privs": False}
    notes = []
    lib = None
    if cfg["setup"] in ("root", "userns"):
        lib = setup_mounts(cfg, iso, notes)
    else:
        os.chdir(cfg["workdir"])
    if cfg["setup"] == "userns":
        drop_capabilities(lib)
        iso["unprivileged"] = True
    if cfg.get("uid") is not None and cfg["setup"] != "userns":
        os.setgroups([])
        os.setresgid(cfg["gid"], cfg["gid"], cfg["gid"])
        os.setresuid(cfg["uid"], cfg["uid"], cfg["uid"])
        iso["unprivileged"] = True
    try:
        iso["no_new_privs"] = no_new_privs(lib)
    except Exception as e:
        notes.append("no_new_privs: %s" % e)
    set_limits(cfg["limits"])
    # The standard library must stay readable after dropping privileges
    # (an interpreter under a private home directory would not be).
    libdir = os.path.dirname(os.__file__)
    try:
        os.listdir(libdir)
        with open(os.path.join(libdir, "fractions.py"), "rb"):
            pass
    except OSError as e:
        raise SetupError("the standard library at %s is not readable by the sandbox user: %s" % (libdir, e.strerror))
    os.environ.clear()
    os.environ.update(cfg["env"])
    return iso, notes


def memfd(name):
    return os.memfd_create(name, os.MFD_CLOEXEC)


def reset_fd(fd, data=b""):
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    if data:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.lseek(fd, 0, os.SEEK_SET)


def read_fd(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
    return b"".join(chunks)


def tail_line(err_bytes):
    text = err_bytes[-4000:].decode("utf-8", "replace").strip()
    if not text:
        return ""
    return trunc(text.splitlines()[-1], 300)


def new_text_streams():
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8", errors="replace")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 1 << 16), encoding="utf-8", errors="backslashreplace")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding="utf-8", errors="backslashreplace", line_buffering=True)


def finish_child(status):
    """Ends a test child the way the interpreter would end: join non-daemon
    threads, run atexit handlers, flush, then _exit."""
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
    try:
        sys.stdout.flush()
    except BaseException:
        traceback.print_exc()
        status = status or 1
    try:
        sys.stderr.flush()
    except BaseException:
        pass
    os._exit(status)


def run_stdin_child(code, base, fds, cpu):
    inp, out, err = fds
    os.dup2(inp, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.close(CTL)
    os.close(TESTS)
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    new_text_streams()
    sys.argv = ["solution.py"]
    g = dict(base)
    g["__name__"] = "__main__"
    status = 0
    try:
        exec(code, g)
    except SystemExit:
        # LiveCodeBench ignores SystemExit: the output decides.
        pass
    except BaseException:
        traceback.print_exc()
        status = 1
    finish_child(status)


def stripped_lines(s):
    return [line.strip() for line in s.strip().split("\n")]


def compare_stdout(got, expected):
    """LiveCodeBench's grade_stdio rule: lines stripped, trailing and leading
    blank lines ignored, a line matches exactly or as whitespace-separated
    Decimal values. Returns None when equal, else a detail."""
    from decimal import Decimal

    g, e = stripped_lines(got), stripped_lines(expected)
    if g == e:
        return None

    def decimals(line):
        try:
            return [Decimal(x) for x in line.split()]
        except Exception:
            return None

    if len(g) == len(e):
        for k, (gl, el) in enumerate(zip(g, e)):
            if gl == el:
                continue
            gd, ed = decimals(gl), decimals(el)
            try:
                same = gd is not None and ed is not None and gd == ed
            except Exception:
                same = False
            if not same:
                if len(g) == 1:
                    return "expected %r, got %r" % (trunc(el, 100), trunc(gl, 100))
                return "line %d: expected %r, got %r" % (k + 1, trunc(el, 100), trunc(gl, 100))
        return None
    exp, gott = "\n".join(e), "\n".join(g)
    return "expected %d lines, got %d: expected %r, got %r" % (len(e), len(g), trunc(exp, 100), trunc(gott, 100))


def describe_status(status, err):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "timeout", "CPU time limit exceeded"
        if sig == signal.SIGXFSZ:
            return "error", "output or file size limit exceeded"
        if sig == signal.SIGSEGV:
            return "error", "segmentation fault (stack overflow?)"
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        line = tail_line(err)
        return "error", "killed by " + name + (": " + line if line else "")
    code = os.WEXITSTATUS(status)
    line = tail_line(err)
    return "error", line or ("exit status %d" % code)


def reap_strays(unprivileged):
    """After a test: kill processes the test left behind (in a PID namespace
    or as a dedicated uid, kill(-1) reaches exactly the sandbox's
    processes), and reap zombies (we may be PID 1)."""
    if unprivileged:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break


def run_functional_child(sol, func, test, res_fd, cpu):
    os.close(CTL)
    os.close(TESTS)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(null, 2)
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    new_text_streams()

    def report(status, detail=""):
        os.write(res_fd, json.dumps({"status": status, "detail": detail}).encode())
        os._exit(0)

    try:
        args = [json.loads(line) for line in test["input"].split("\n") if line.strip()]
        expected = json.loads(test["output"])
    except Exception as e:
        report("bad_test", "test case is not JSON: %s" % e)
    try:
        if sol.get("Solution") is not None:
            method = getattr(sol["Solution"](), func, None)
            if method is None:
                report("error", "class Solution has no method %s" % func)
        else:
            method = sol.get(func)
            if not callable(method):
                report("error", "no class Solution and no function %s" % func)
        pred = method(*args)
        if isinstance(pred, tuple):
            pred = list(pred)
        ok = pred == expected
    except BaseException as e:
        if isinstance(e, MemoryError):
            report("error", "MemoryError")
        report("error", trunc("%s: %s" % (type(e).__name__, e), 300))
    if ok:
        report("pass")
    try:
        got = json.dumps(pred)
    except Exception:
        got = repr(pred)
    report("wrong", "expected %r, got %r" % (trunc(test["output"].strip(), 100), trunc(got, 100)))


def fork():
    # Processes of an earlier program may still await reaping by init and
    # count against RLIMIT_NPROC for a moment.
    import time

    for _ in range(100):
        try:
            return os.fork()
        except BlockingIOError:
            reap_strays(False)
            time.sleep(0.02)
    return None


def main():
    # Standard input held only this file: from now on it is empty, so that
    # nothing the program does can consume the tests.
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    stdin = io.open(TESTS, "rb", closefd=False)
    os.set_inheritable(TESTS, False)
    os.set_inheritable(CTL, False)
    cfg = json.loads(stdin.readline())
    try:
        iso, notes = setup(cfg)
    except Exception as e:
        send({"ev": "setup_failed", "error": "%s: %s" % (type(e).__name__, e)})
        os._exit(3)
    # The preamble's modules and decimal are in Debian's libpython3-stdlib,
    # not in python3-minimal: an interpreter lacking them is unusable.
    sys.setrecursionlimit(50000)
    base = {"__builtins__": __builtins__}
    try:
        exec(PREAMBLE, base)
        import decimal  # noqa: F401 (stdin comparison)
    except ImportError as e:
        send({"ev": "setup_failed", "error": "incomplete standard library (%s): install python3, not only python3-minimal" % e})
        os._exit(3)
    base.pop("__name__", None)
    send({"ev": "ready", "iso": iso, "notes": notes, "python": sys.executable, "version": sys.version.split()[0]})
    if cfg.get("probe"):
        send({"ev": "done"})
        os._exit(0)

    # In a PID namespace or as a dedicated uid, kill(-1) reaches exactly
    # the sandbox's processes; as a plain user it would reach all of theirs.
    unprivileged = iso["unprivileged"]
    cpu = cfg["limits"].get("test_cpu")
    functional = cfg["mode"] == "functional"

    send({"ev": "start", "i": -1})
    try:
        code = compile(cfg["program"], "solution.py", "exec")
    except BaseException as e:
        send({"ev": "result", "i": 0, "status": "error", "detail": trunc("%s: %s" % (type(e).__name__, e), 300)})
        os._exit(0)
    sol = None
    if functional:
        # Module-level code runs once, in this process, as LeetCode loads a
        # submission once; each test then runs in a fork of the result.
        sol = dict(base)
        sol["__name__"] = "solution"
        null = os.open("/dev/null", os.O_RDWR)
        saved = (os.dup(1), os.dup(2))
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            exec(code, sol)
        except BaseException as e:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            send({"ev": "result", "i": 0, "status": "error", "detail": trunc("%s: %s" % (type(e).__name__, e), 300)})
            os._exit(0)
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        # The module code may have started threads or children; nothing
        # must outlive it into the tests but its definitions.
        reap_strays(unprivileged)

    fds = (memfd("stdin"), memfd("stdout"), memfd("stderr"))
    res = memfd("result")
    for i in range(cfg["ntests"]):
        line = stdin.readline()
        if not line:
            break
        test = json.loads(line)
        for fd in fds:
            reset_fd(fd)
        reset_fd(res)
        if not functional:
            reset_fd(fds[0], test["input"].encode())
        pid = fork()
        if pid is None:
            send({"ev": "result", "i": i, "status": "infra", "detail": "cannot fork a test process: the sandbox user's process limit is taken"})
            os._exit(0)
        if pid != 0:
            send({"ev": "start", "i": i})
        else:
            try:
                if functional:
                    run_functional_child(sol, cfg["func"], test, res, cpu)
                else:
                    run_stdin_child(code, base, fds, cpu)
            finally:
                os._exit(70)
        _, status = os.waitpid(pid, 0)
        reap_strays(unprivileged)
        err = read_fd(fds[2])
        if functional:
            raw = read_fd(res)
            if raw:
                r = json.loads(raw)
                st, detail = r["status"], r["detail"]
            else:
                st, detail = describe_status(status, err)
        elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            got = read_fd(fds[1]).decode("utf-8", "replace")
            detail = compare_stdout(got, test["output"])
            st = "pass" if detail is None else "wrong"
        else:
            st, detail = describe_status(status, err)
        send({"ev": "result", "i": i, "status": st, "detail": detail or ""})
        if st != "pass":
            os._exit(0)
    send({"ev": "done"})
    os._exit(0)


main()
