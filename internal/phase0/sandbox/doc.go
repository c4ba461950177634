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
// reach the hypervisor's host through AF_VSOCK; write outside its
// directory; use the network), to take over a process of the sandbox
// that lacks its limits (trace, signal or replace it), or to exhaust the
// machine (fork or memory bombs, memory no process holds, processes that
// outlive their test, getting the server OOM-killed). The sandbox must
// keep the host and the server safe and every verdict honest. It does not
// defend against kernel or CPython memory-corruption exploits beyond what
// namespaces, an unprivileged uid, no capabilities, no_new_privs and the
// seccomp filter give.
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
//   - --as-pid-1: the interpreter running the harness is the sandbox's
//     PID 1. bwrap installs no init of its own (which would run as the
//     program's uid, dumpable, without the rlimits), so every process in
//     the sandbox descends from the harness and has its limits.
//   - a seccomp filter (seccomp.go, built with
//     github.com/elastic/go-seccomp-bpf), loaded into PID 1 before the
//     interpreter starts: ptrace, process_vm_readv/writev, pidfd_getfd,
//     kcmp, perf_event_open, bpf, userfaultfd, the keyrings, io_uring,
//     SysV IPC, POSIX message queues and memfd_secret fail with EPERM;
//     socket and socketpair with any family but AF_UNIX, AF_INET and
//     AF_INET6 (AF_VSOCK, AF_NETLINK, AF_PACKET...) with EAFNOSUPPORT;
//     x32 calls and every call of another architecture (int 0x80, a
//     32-bit executable) with ENOSYS. Each test process adds a second
//     filter before the program runs: memfd_create fails with EPERM.
//   - a root of its own (a read-only tmpfs) holding only the interpreter
//     and what it loads (rootview.go), read-only: its executable, its
//     standard library (sysconfig's stdlib and lib-dynload), the shared
//     libraries the dynamic loader loads for it and every extension
//     module (DT_NEEDED, recursively, as the loader searches without an
//     ld.so.cache), the C.UTF-8 locale where glibc has no built-in one,
//     and the symbolic links on the way to each (/lib64, libffi.so.8...);
//     then a private /proc, /dev/null, /dev/zero and /dev/urandom (bound
//     one by one), and /tmp, an empty tmpfs of WorkDirBytes (64 MiB), the
//     working directory and the only writable place. No /etc, /usr/share,
//     other binaries or libraries, /run, /var, /home, /root, /sys,
//     /dev/shm, no checkout, data folder or socket: the network namespace
//     has only a down loopback, abstract Unix sockets belong to it, and no
//     socket file of the host is in the tree. Third-party packages are
//     not importable; the whole standard library is.
//   - --clearenv and PATH, HOME and TMPDIR (/tmp), LANG=C.UTF-8,
//     PYTHONDONTWRITEBYTECODE=1, PYTHONHASHSEED=0.
//
// Inside, a harness (harness.py, embedded; read by a one-line bootstrap
// from its request pipe) runs one forked child per test, which keeps the
// cost of a test at a fork (2–4 ms) rather than a fresh interpreter. The
// harness, PID 1, first reads its config and raises its oom_score_adj to
// 500, then makes itself undumpable (prctl PR_SET_DUMPABLE 0), so a test
// process, though of the same uid, can neither ptrace it nor open its
// /proc/<pid>/fd, mem or environ; as PID 1 of its PID namespace with no
// signal handler (SIGINT is reset), it receives no signal a test process
// sends, SIGKILL and SIGSTOP included. It sets the program's rlimits on
// itself (below), drops the working directory from its import path, and
// runs LiveCodeBench's import preamble once; its ready report carries its
// pid, uid, rlimits, seccomp mode, no_new_privs and capabilities, and Go
// runs no program unless it is PID 1 with exactly those limits and the
// filter. On the first test it compiles the program (compiling runs none
// of it), so each test process starts from the compiled code and its own
// copy-on-write copy of the preamble's globals. While a test runs, the
// harness reaps the orphans that die (a zombie would count against the
// process limit); after it, it kills every process the test left
// (kill(-1) from PID 1). Go drives it over two pipes (protocol.go): it
// sends the program, then one test's input at a time, and reads back
// exactly one length-prefixed frame per test holding the test process's
// exit status, its standard output and the tail of its standard error. Go
// decodes frames strictly; anything malformed, unexpected or late is a
// runtime error or a timeout, never a pass.
//
// Each test child, before any of the program runs, puts the test's three
// fresh memfds on descriptors 0, 1 and 2 and closes every other
// descriptor (the pipes to Go are gone), restores Python's SIGINT
// handler, lowers its own RLIMIT_CPU to the per-test limit, sets
// RLIMIT_FSIZE, raises its oom_score_adj to 1000 and adds the program's
// seccomp filter. The program then runs in the child:
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
//     MaxProcs plus the sandbox's own 2 processes, and a CPU quota of
//     CPUs cores. bwrap reports its child's pid on --info-fd and then,
//     having set up the mounts, waits on --block-fd before it executes the
//     interpreter: Go writes that pid into the cgroups and only then
//     releases it, so no program code runs outside them.
//   - cgroup v2 (a cgroup2 mount, or Options.CgroupParent, offering memory
//     and pids): the same limits (memory.max, memory.swap.max 0, pids.max,
//     cpu.max) on a sub-cgroup into which bwrap is cloned atomically
//     (SysProcAttr.CgroupFD).
//   - no usable cgroup (no root, no delegation): rlimits whose product is
//     bounded, FallbackProcs (8) processes of 2·MemoryBytes/FallbackProcs
//     (256 MiB) address space each, 2 GiB at most, plus the /tmp tmpfs.
//
// Cgroups are named triage-sandbox-<pid>.<start>-<random>-<n> after the
// process that makes them; New removes those whose process is gone (after
// a kill -9, which leaves them), killing whatever is left in them, and
// never a live process's.
//
// In every case the harness, PID 1, sets on itself before it compiles any
// of the program (limits.init): RLIMIT_AS (MemoryBytes per process, which
// turns most allocation failures into MemoryError), RLIMIT_NPROC (counted
// in the sandbox's user namespace), RLIMIT_CPU (the total time limit),
// RLIMIT_NOFILE (64) and RLIMIT_CORE 0, which every process of the
// sandbox inherits; each test process lowers RLIMIT_CPU to the per-test
// limit and sets RLIMIT_FSIZE (16 MiB, which also caps its output).
// Memory that no RLIMIT_AS weighs or that outlives the program's
// processes is refused: SysV shared memory, message queues and
// semaphores and POSIX message queues (seccomp; the IPC namespace's
// shmmax and the like cannot be lowered instead, as bwrap maps no uid 0
// in the user namespace owning it), memfds in test processes (seccomp),
// POSIX shared memory (no /dev/shm). The per-test (6 s, LiveCodeBench's)
// and per-program (60 s) wall-time limits are enforced by Go, which then
// kills everything: bwrap (whose death kills the sandbox's PID 1 through
// --die-with-parent), PID 1 itself through a pidfd (the kernel then kills
// the whole PID namespace), and whatever is in the cgroup (cgroup.kill on
// v2); it returns once all are dead and the cgroup is removed.
//
// The kernel's OOM killer takes test processes first (oom_score_adj
// 1000), then the harness (500), and the process running the sandboxes
// last: New lowers its own oom_score_adj to -500, or, without
// CAP_SYS_RESOURCE, as far as it may (to 0 from above); Isolation says
// what it did.
//
// # Interpreter
//
// By default /usr/bin/python3, else /usr/local/bin/python3, else python3 on
// PATH; a pyenv or asdf shim is resolved to the real executable (asking it
// for sys.executable and its standard library with the caller's
// environment), which the sandbox runs directly, in the root view worked
// out from it. It needs the standard library the harness and the preamble
// use (json, ctypes, decimal, statistics: Debian's python3, not only
// python3-minimal), readable by the sandbox's host uid. New checks all
// this by running a trivial program through the whole sandbox.
//
// # Cost
//
// Measured on a shared 2-core machine: see docs/sandbox.md for
// BenchmarkCodePool against the earlier implementation.
//
// # Residual risks
//
// The kernel is shared: a kernel exploit reachable from an unprivileged
// process in fresh namespaces through a system call the filter allows
// (it is a deny-list) would escape. The program can read its
// interpreter, standard library and shared libraries (world-readable
// system files). Without a cgroup, kernel memory a program's processes
// cause (pipe and socket buffers, page tables) is bounded only by the
// kernel's per-user limits and RLIMIT_NOFILE, not by the 2 GiB, and the
// server's cgroup or container must leave room for 2 GiB plus /tmp. Where
// the server cannot lower its oom_score_adj below the harness's 500 (it
// runs at 500 or more, e.g. as a BestEffort pod), the OOM killer may take
// it before a harness (Isolation.ServerOOMAtRisk; triage warns). A fork
// bomb uses its CPU quota (one core) until its time limit.
package sandbox
