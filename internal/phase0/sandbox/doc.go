// Package sandbox runs untrusted Python 3 programs against LiveCodeBench
// test cases in bubblewrap: it is the grading.CodeRunner of the code
// grader.
//
// # Threat model
//
// The program is written by the model under evaluation and may be
// hostile: it may try to pass without solving the problem (read the
// expected output from its caller's frames, the heap, other processes,
// files on the host; forge a pass on a descriptor or pipe; fool a Python
// == with an object equal to everything), to escape (reach a Unix socket
// on the host, such as PostgreSQL's, which runs commands for a superuser;
// write outside its directory; use the network), or to exhaust the
// machine (fork or memory bombs, processes that outlive their test). The
// sandbox must keep the host safe and every verdict honest. It does not
// defend against kernel or CPython memory-corruption exploits beyond what
// namespaces, an unprivileged uid, no capabilities and no_new_privs give.
//
// # Design
//
// Each program gets one bubblewrap sandbox (bwrap, Debian's package
// bubblewrap; chosen over nsjail because it is small, packaged everywhere,
// needs no setuid bit where user namespaces are allowed, and is what
// Flatpak runs on, so it is well reviewed and maintained). New fails when
// bwrap is missing, with a message saying to install it: code is never run
// with weaker isolation. bwrap gets:
//
//   - fresh user, PID, network, IPC, UTS and cgroup namespaces;
//     --disable-userns where bwrap has it (0.8.0+), so the program cannot
//     make namespaces of its own; --die-with-parent, --new-session,
//     --cap-drop ALL and uid/gid 1000 inside. As root, bwrap itself runs as
//     Options.UID (an unprivileged host uid), so the namespace never maps
//     to the host's root; otherwise as the caller.
//   - a root of its own (a read-only tmpfs) holding only /usr read-only,
//     the merged-/usr links /bin, /lib, /lib64, /sbin (or read-only binds
//     where they are directories), the interpreter's own prefix if it is
//     outside /usr, a private /proc, /dev/null, /dev/zero and /dev/urandom
//     (bound one by one), and /tmp, an empty tmpfs of WorkDirBytes (64 MiB),
//     the working directory and the only writable place. No /etc, /run,
//     /var, /home, /root, /sys, no checkout, data folder or socket: the
//     network namespace has only a down loopback, abstract Unix sockets
//     belong to it, and no socket file of the host is in the tree.
//   - --clearenv and PATH, HOME and TMPDIR (/tmp), LANG=C.UTF-8,
//     PYTHONDONTWRITEBYTECODE=1, PYTHONHASHSEED=0.
//
// Inside, a harness (harness.py, embedded; read by a one-line bootstrap
// from its request pipe) runs one forked child per test, which keeps the
// cost of a test at a fork (2–4 ms) rather than a fresh interpreter. The
// harness first makes itself undumpable (prctl PR_SET_DUMPABLE 0), so a
// test process, though of the same uid, can neither ptrace it nor open
// its /proc/<pid>/fd, mem or environ; sets the rlimits below; drops the
// working directory from its import path; and runs LiveCodeBench's import
// preamble once. On the first test it compiles the program (compiling runs
// none of it), so each test process starts from the compiled code and its
// own copy-on-write copy of the preamble's globals. Go drives it over two pipes (protocol.go): it sends the
// program, then one test's input at a time, and reads back exactly one
// length-prefixed frame per test holding the test process's exit status,
// its standard output and the tail of its standard error. Go decodes
// frames strictly; anything malformed, unexpected or late is a runtime
// error or a timeout, never a pass.
//
// Each test child, before any of the program runs, puts the test's three
// fresh memfds on descriptors 0, 1 and 2 and closes every other
// descriptor (the pipes to Go are gone), then lowers its own RLIMIT_CPU
// to the per-test limit, sets RLIMIT_FSIZE, and raises its
// oom_score_adj. The program then runs in the child:
//
//   - stdin tests: as __main__, as a fresh interpreter would run it
//     (threads are joined and atexit handlers run before it exits).
//   - functional tests: its module-level code runs in the child (never in
//     the harness), then Solution().<func_name>(*args), or the
//     module-level function, as LiveCodeBench's grade_call_based calls it
//     (with a fresh instance per test). A returned tuple becomes a list;
//     the result is written to descriptor 1 as JSON, or, for a value no
//     JSON value equals in Python (a set, a nested tuple, an object), as
//     "incomparable". Prints are discarded.
//
// The harness never holds an expected output: outputs are compared in Go
// (compare_stdin.go, compare_functional.go), outside the sandbox, so a
// program can forge nothing Go trusts as a verdict — whatever it writes is
// just its output. Comparison follows LiveCodeBench's
// lcb_runner/evaluation/testing_util.py:
//
//   - stdin: both texts are stripped (Python's str.strip whitespace), split
//     on "\n" and each line stripped; the line counts must agree, and each
//     line must be equal or, split on whitespace, parse as the same list of
//     decimal.Decimal values, compared exactly ("1.0" equals "1"; NaN equals
//     nothing; underscores and Unicode digits parse as Decimal parses them;
//     exponents beyond ±10^18 are not modelled). A program ending with
//     SystemExit is graded on its output, as LiveCodeBench does.
//   - functional: the result's JSON must == the expected JSON as Python
//     compares json.loads values: numbers by value (2 == 2.0, true == 1,
//     big integers exactly), lists and dicts element by element. Unlike
//     LiveCodeBench, an object whose __eq__ always returns True does not
//     pass, and a Decimal or Fraction result counts as incomparable.
//   - both: LiveCodeBench's import preamble (from typing import *, from
//     collections import *, math, heapq, bisect, ...; recursion limit
//     50000) is in scope. A stdin program is not wrapped in a function, so
//     `global` statements and `if __name__ == "__main__":` work as in a
//     real interpreter.
//
// Outcomes: correct (every test passes), wrong_answer, timeout (a
// wall-time limit, or RLIMIT_CPU), runtime_error (an exception, a syntax
// error, a nonzero exit or a fatal signal, MemoryError, the memory or
// output limit, a malformed report). The first failing test is in the
// detail. An error from RunTests means the tests could not be run
// (bubblewrap failed, the harness failed to start, a malformed test case).
//
// # Limits
//
// All of one program's processes together are bounded by a cgroup where
// the machine allows (cgroup.go; Isolation().Cgroup says which):
//
//   - cgroup v1 (memory and pids controllers, cpu if mounted; e.g. root on
//     a machine with the hybrid hierarchy): a cgroup per program under this
//     process's own in each hierarchy, with memory.limit_in_bytes and
//     memory.memsw.limit_in_bytes = MemoryBytes (1 GiB), pids.max =
//     MaxProcs plus the sandbox's own 3 processes, and a CPU quota of
//     CPUs cores. bwrap reports its child's pid on --info-fd and then,
//     having set up the mounts, waits on --block-fd before it forks
//     anything: Go writes that pid into the cgroups and only then releases
//     it, so no program code runs outside them.
//   - cgroup v2 (a cgroup2 mount, or Options.CgroupParent, offering memory
//     and pids): the same limits (memory.max, memory.swap.max 0, pids.max,
//     cpu.max) on a sub-cgroup into which bwrap is cloned atomically
//     (SysProcAttr.CgroupFD).
//   - no usable cgroup (no root, no delegation): rlimits whose product is
//     bounded, FallbackProcs (8) processes of 2·MemoryBytes/8 (256 MiB)
//     address space each, 2 GiB at most; shared memory (SysV, memfd) is
//     not bounded then. Isolation().Memory says so.
//
// In every case the harness sets, before any of the program runs, RLIMIT_AS
// (MemoryBytes per process, which turns most allocation failures into
// MemoryError), RLIMIT_NPROC (counted in the sandbox's user namespace),
// RLIMIT_CPU (the total time limit; each test lowers it to the per-test
// limit), RLIMIT_NOFILE (64) and RLIMIT_CORE 0; each test process sets
// RLIMIT_FSIZE (16 MiB, which also caps its output). The per-test (6 s,
// LiveCodeBench's) and per-program (60 s) wall-time limits are enforced
// by Go, which then kills everything: bwrap (whose death kills the
// sandbox's PID 1 through --die-with-parent), PID 1 itself through a
// pidfd (the kernel then kills the whole PID namespace), and whatever is
// in the cgroup (cgroup.kill on v2); it returns once all are dead and the
// cgroup is removed. After each test the harness kills every process the
// test left (kill(-1) in the PID namespace), so a daemon does not survive
// into the next test either.
//
// # Interpreter
//
// By default /usr/bin/python3, else /usr/local/bin/python3, else python3 on
// PATH; a pyenv or asdf shim is resolved to the real executable (asking it
// for sys.executable with the caller's environment), which the sandbox
// runs directly. An interpreter outside /usr gets its prefix bound
// read-only. It needs the standard library the harness and the preamble
// use (json, ctypes, decimal, statistics: Debian's python3, not only
// python3-minimal). New checks all this by running a trivial program
// through the whole sandbox.
//
// # Cost
//
// Measured on a shared 2-core machine: see docs/performance.md, "The code sandbox",
// for BenchmarkCodePool against the earlier implementation.
//
// # Residual risks
//
// The kernel is shared: a kernel exploit reachable from an unprivileged
// process in fresh namespaces (no seccomp filter is installed) would
// escape. Without a cgroup, shared memory is not bounded. The program can
// read everything under /usr (world-readable system files). A fork bomb
// uses its CPU quota (one core) until its time limit.
package sandbox
