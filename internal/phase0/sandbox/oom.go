package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The kernel's OOM killer picks the process with the highest badness, its
// memory plus oom_score_adj thousandths of the memory available. Test
// processes go first, then the harness (whose death ends its sandbox),
// and the process running the sandboxes (the server, triage baseline)
// last: a program that fills the memory of a container or of the
// process's cgroup with memory no process of its own holds must not get
// the server killed.
const (
	// testOOMScoreAdj is each test process's, set before the program runs.
	testOOMScoreAdj = 1000
	// harnessOOMScoreAdj is the harness's, set before it reads the program.
	harnessOOMScoreAdj = 500
	// serverOOMScoreAdj is what New lowers this process's to: well below
	// the sandbox's, and above -1000 (never killed), which would leave the
	// kernel nothing to kill but the machine's other processes.
	serverOOMScoreAdj = -500
)

// oomScoreFile is this process's oom_score_adj.
const oomScoreFile = "/proc/self/oom_score_adj"

// lowerOOMScore lowers this process's oom_score_adj to target, or as far
// as it may: below its oom_score_adj_min (0 unless a privileged process
// set it) only with CAP_SYS_RESOURCE, which an unprivileged process (and
// root in many containers) lacks; raising is always allowed, so it never
// raises. It returns the value now in force and what it did, in words.
func lowerOOMScore(file string, target int) (int, string, error) {
	read := func() (int, error) {
		b, err := os.ReadFile(file)
		if err != nil {
			return 0, err
		}
		return strconv.Atoi(strings.TrimSpace(string(b)))
	}
	was, err := read()
	if err != nil {
		return 0, "", fmt.Errorf("sandbox: reading %s: %w", file, err)
	}
	if was <= target {
		return was, fmt.Sprintf("oom_score_adj %d (already at or below %d)", was, target), nil
	}
	var denied error
	for _, v := range []int{target, 0} {
		if v >= was {
			break
		}
		if err := writeFile(file, strconv.Itoa(v)); err != nil {
			if errors.Is(err, os.ErrPermission) {
				denied = err
				continue
			}
			return was, "", fmt.Errorf("sandbox: writing %s: %w", file, err)
		}
		now, err := read()
		if err != nil {
			return was, "", fmt.Errorf("sandbox: reading %s: %w", file, err)
		}
		if now == target {
			return now, fmt.Sprintf("oom_score_adj lowered from %d to %d", was, now), nil
		}
		return now, fmt.Sprintf("oom_score_adj lowered from %d to %d, not to %d (lower needs CAP_SYS_RESOURCE)", was, now, target), nil
	}
	return was, fmt.Sprintf("oom_score_adj stays %d: lowering it needs CAP_SYS_RESOURCE (%v)", was, denied), nil
}
