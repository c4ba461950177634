// Package sandbox runs untrusted Python 3 programs against LiveCodeBench
// test cases: it is the grading.CodeRunner of the code grader.
//
// # Design
//
// Each program gets one harness process (harness.py, embedded; the
// interpreter runs a one-line -c bootstrap that reads it from standard
// input, which is then /dev/null). The Go side feeds it a config line and
// then one test per line on fd 4, and reads its reports (ready, start of
// test i, result of test i, done) from a pipe on fd 3. The harness first
// sets up the isolation, then runs the tests in order, one forked child per
// test, and stops at the first failure:
//
//   - stdin tests: the child gets the test's input on fd 0 and its output
//     goes to fd 1 (both memfds), and it executes the program as __main__, exactly as a fresh
//     interpreter would (threads are joined and atexit handlers run before
//     it exits). Forking an interpreter that has already started and run
//     the import preamble costs about 2 ms instead of the ~15-20 ms of a
//     fresh interpreter, and every test still starts from the same pristine
//     state.
//   - functional tests: the program's module-level code runs once in the
//     harness (as LeetCode loads a submission once); each test's child
//     then calls Solution().<func_name>(*args) or, with no class Solution,
//     the module-level function, as LiveCodeBench's grade_call_based does
//     (but with a fresh instance per test, where LiveCodeBench reuses one).
//
// Wall-time limits are enforced by the Go side: a per-test timer armed by
// the harness's "start" report, and a total timer per program; when one
// fires the whole process group (and, in the namespace modes, the PID
// namespace) is killed with SIGKILL. Nothing relies on signals reaching
// the interpreter, so a long C-level operation (10**(10**9)) times out too.
// The harness is always killed at the end, so no process outlives a
// program.
//
// Comparison follows LiveCodeBench's lcb_runner/evaluation/testing_util.py:
//
//   - stdin: both outputs are stripped, split into lines and each line
//     stripped; the line counts must agree, and each line must be equal or,
//     split on whitespace, parse as the same list of decimal.Decimal values
//     ("1.0" equals "1", no tolerance). A program ending with SystemExit
//     (exit(), sys.exit(n)) is graded on its output, as LiveCodeBench does.
//   - functional: the input is one JSON value per line (the positional
//     arguments), the expected output one JSON value; a tuple result is
//     turned into a list, and the result must == the expected value (so 2
//     equals 2.0 and true equals 1, as in Python).
//   - both: LiveCodeBench's import preamble (from typing import *, from
//     collections import *, math, heapq, bisect, ...; recursion limit
//     50000) is in scope, so `List[int]` or `gcd` work without imports.
//     Unlike LiveCodeBench, a stdin program is not wrapped in a function,
//     so `global` statements and `if __name__ == "__main__":` work as in a
//     real interpreter.
//
// Outcomes: correct (every test passes), wrong_answer, timeout (a wall-time
// limit, or RLIMIT_CPU), runtime_error (an exception, a syntax error, a
// nonzero exit or a fatal signal, MemoryError, the output limit). An error
// from RunTests means the tests could not be run (no interpreter, the
// harness failed to set up, a malformed test case).
//
// # Resource limits
//
// Go's os/exec cannot set a child's rlimits, so the harness sets them on
// itself with resource.setrlimit, soft and hard, after dropping privileges
// and before any untrusted code runs; every test process inherits them and
// cannot raise them. This needs no helper binary, no re-exec of triage, no
// shell and no race (prlimit on a started child would be). The limits:
// RLIMIT_AS (default 1 GiB per process), RLIMIT_CPU (the total time limit;
// each test process lowers it to its per-test limit), RLIMIT_FSIZE (16 MiB,
// also bounding a test's output, which goes to a memfd), RLIMIT_NPROC (32
// processes and threads), RLIMIT_NOFILE (64), RLIMIT_CORE 0. glibc's
// per-thread malloc arenas are capped (MALLOC_ARENA_MAX=2) so that threads
// do not exhaust the address space.
//
// RLIMIT_NPROC does not bind root, and counts processes per user: so when
// triage runs as root, each concurrency slot runs its programs as its own
// unprivileged uid (BaseUID + slot; by default from 2000000000, a range no
// distribution allocates, offset by the process id), never shared by two
// programs running at once. A fork bomb then saturates at 32 processes of
// that uid and dies with the program. Residual risk: RLIMIT_AS is per
// process, so 32 processes could together map 32 GiB; a cgroup memory limit
// would bound the sum but needs a delegated cgroup, which triage does not
// assume.
//
// # Isolation modes
//
// New probes the strongest mode that works here (Options.Mode forces one)
// and reports what is enforced in Isolation():
//
//   - ModeNamespaces (triage runs as root; the normal case in CI and
//     containers): fresh PID, network, mount, IPC and UTS namespaces. In
//     the mount namespace (made private first, so nothing propagates to the
//     host) every mount is remounted read-only, a fresh /proc shows only
//     the sandbox's processes, /tmp is a read-only tmpfs holding the work
//     directory /tmp/work, itself a size-limited tmpfs (64 MiB) and the only
//     writable directory, and /dev/shm is a small private tmpfs (for
//     multiprocessing). The network namespace has only a down loopback, so
//     every connection fails, to 127.0.0.1 too. The harness then drops to
//     the slot's uid (setgroups([]), setresgid, setresuid) and sets
//     no_new_privs. When the harness, PID 1 of the namespace, dies, the
//     kernel kills every process left in it, however it forked or
//     detached.
//   - ModeUserNamespaces (no root needed, where unprivileged user
//     namespaces are enabled): the same inside a new user namespace whose
//     root is the caller (or, under root, the slot's uid); after the mounts
//     the harness drops every capability for good (securebits NOROOT,
//     bounding set, capset) and sets no_new_privs. On kernels since 5.14
//     RLIMIT_NPROC counts per user namespace, so it bounds the sandbox's
//     own processes.
//   - ModeNone (no namespaces available): a plain process group in a fresh
//     temporary directory (removed afterwards), with the rlimits. As root
//     the program still runs as the slot's uid, so it can write only to
//     world-writable directories (/tmp, /var/tmp) and the work dir, and
//     everything of that uid is killed at the end; the network is NOT
//     isolated. As a normal user it runs as that user: the file system and
//     network are not isolated and RLIMIT_NPROC is left unset (it would
//     count all the user's processes), so only the process group is
//     killed. Isolation().Notes says so.
//
// The environment is always minimal: PATH, HOME and TMPDIR (the work dir),
// LANG=C.UTF-8, PYTHONDONTWRITEBYTECODE=1, PYTHONHASHSEED=0; nothing of the
// caller's environment is inherited.
//
// # Interpreter
//
// By default the sandbox asks `python3` on PATH for sys.executable (so a
// pyenv or asdf shim, which needs the caller's environment, resolves to the
// real binary) and runs that binary directly; candidates are then
// /usr/bin/python3 and /usr/local/bin/python3. The first whose standard
// library the unprivileged sandbox user can read wins (an interpreter under
// root's 0700 home, such as pyenv's, cannot be used once privileges are
// dropped), and which has the standard library the harness and
// LiveCodeBench's preamble need (json, ctypes, decimal, statistics: Debian's
// python3 package; python3-minimal alone lacks them). No usable
// interpreter: New fails with a clear error.
//
// # Cost
//
// Measured on a shared 2-core machine (go test -run '^$' -bench .
// -count 3, medians): a bare `python3 -c pass` takes 12 ms; a sandboxed
// program with one trivial test 43 ms (interpreter start, namespaces and
// mounts, the harness's imports and LiveCodeBench's import preamble,
// teardown); each further test 2.2 ms (stdin) or 1.9 ms (functional): a
// fork, the run, the comparison. The 30-problem pool (the 16 shared
// problems cycled, 46 public tests) grades in 1.05 s at concurrency 2.
//
// The harness shares its uid with the program it runs, so a program set on
// cheating could interfere with its harness; the sandbox protects the
// machine from accidents and hostile code, not the verdict from a
// deliberately adversarial solution.
package sandbox
