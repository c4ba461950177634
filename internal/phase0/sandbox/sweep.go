package sandbox

import (
	"bytes"
	_ "embed"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sweep kills every process matching, repeating until none is left (a
// fork bomb keeps forking while it is being killed; RLIMIT_NPROC bounds
// it), for at most 5 seconds. Zombies are dead already (init reaps them):
// sweep waits for them only if zombies is set.
func sweep(match func(procInfo) bool, zombies bool) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		n := 0
		for _, pr := range processes() {
			if match(pr) && (zombies || pr.state != 'Z') {
				syscall.Kill(pr.pid, syscall.SIGKILL)
				n++
			}
		}
		if n == 0 {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// procInfo is what sweep needs to know of a process.
type procInfo struct {
	pid, pgrp, uid int
	state          byte
}

// processes lists the processes in /proc.
func processes() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		pr := procInfo{pid: pid, uid: -1}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold anything.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 3 {
			continue
		}
		pr.state = f[0][0]
		pr.pgrp, _ = strconv.Atoi(f[2])
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Uid:" {
				pr.uid, _ = strconv.Atoi(f[1])
				break
			}
		}
		out = append(out, pr)
	}
	return out
}
