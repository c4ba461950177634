package sandbox

import (
	"fmt"
	"time"
)

// sandboxProcs is how many processes the sandbox itself adds to a
// program's cgroup: bwrap's outer process (v2 only) and the harness, the
// sandbox's PID 1.
const sandboxProcs = 2

// limits are the resource limits of one program's processes.
type limits struct {
	// Set by the sandbox's PID 1 (the harness) on itself before it compiles
	// any of the program, so every process in the sandbox has them.
	addressSpace int64 // RLIMIT_AS per process
	procs        int   // RLIMIT_NPROC, counted in the sandbox's user namespace
	cpuSeconds   int64 // RLIMIT_CPU of the harness: the total time limit
	files        int   // RLIMIT_NOFILE
	// Set by each test process on itself before running the program.
	testCPUSeconds int64 // RLIMIT_CPU: the per-test time limit
	fileSize       int64 // RLIMIT_FSIZE, also bounding the output
}

// newLimits derives the rlimits from o: with a cgroup bounding the sum,
// each process may map MemoryBytes; without one, FallbackProcs processes
// of 2·MemoryBytes/FallbackProcs each, so the product stays bounded.
func newLimits(o Options, cg *cgroups) limits {
	l := limits{
		addressSpace:   o.MemoryBytes,
		procs:          o.MaxProcs,
		cpuSeconds:     seconds(o.TotalTimeout),
		files:          o.MaxFiles,
		testCPUSeconds: seconds(o.TestTimeout),
		fileSize:       o.FileSizeBytes,
	}
	// A test cannot have more CPU time than its program: a test process
	// cannot raise the hard limit it inherits.
	l.testCPUSeconds = min(l.testCPUSeconds, l.cpuSeconds)
	if cg == nil {
		l.procs = o.FallbackProcs
		l.addressSpace = 2 * o.MemoryBytes / int64(o.FallbackProcs)
	}
	return l
}

// seconds rounds d up to whole seconds, plus one: RLIMIT_CPU is a backstop
// behind the wall-time limits.
func seconds(d time.Duration) int64 {
	return int64((d+time.Second-1)/time.Second) + 1
}

// rlimit is one resource limit of the sandbox's PID 1.
type rlimit struct {
	name       string // as the harness config names it
	soft, hard uint64
}

// init is the rlimits of the sandbox's PID 1, the harness, which sets
// them on itself before it compiles any of the program (and Go checks
// them in its ready report): the program's total CPU time (the soft limit
// signals, the hard one kills), its address space per process, its
// processes, descriptors and no core files. Every process in the sandbox
// descends from PID 1 and inherits them; none can raise a hard limit.
func (l limits) init() []rlimit {
	cpu := uint64(l.cpuSeconds)
	return []rlimit{
		{"as", uint64(l.addressSpace), uint64(l.addressSpace)},
		{"nproc", uint64(l.procs), uint64(l.procs)},
		{"nofile", uint64(l.files), uint64(l.files)},
		{"core", 0, 0},
		{"cpu", cpu, cpu + 1},
	}
}

// harnessRlimits is init as the harness config carries it.
func (l limits) harnessRlimits() map[string][2]uint64 {
	out := map[string][2]uint64{}
	for _, r := range l.init() {
		out[r.name] = [2]uint64{r.soft, r.hard}
	}
	return out
}

// harness is the per-test limits as the harness config carries them: each
// test process sets them on itself before any of the program runs.
func (l limits) harness() map[string]int64 {
	return map[string]int64{
		"test_cpu": l.testCPUSeconds,
		"fsize":    l.fileSize,
	}
}

// describe lists the limits for Isolation.
func (l limits) describe(cg *cgroups) (memory string, all []string) {
	if cg != nil {
		memory = fmt.Sprintf("cgroup v%d: %s for all of a program's processes together (swap included)", cg.version, bytesString(cg.limits.memory))
		all = append(all,
			fmt.Sprintf("cgroup v%d memory %s", cg.version, bytesString(cg.limits.memory)),
			fmt.Sprintf("cgroup v%d pids %d", cg.version, cg.limits.pids))
		if cg.cpu && cg.limits.cpus > 0 {
			all = append(all, fmt.Sprintf("cgroup v%d cpu %d core(s)", cg.version, cg.limits.cpus))
		}
	} else {
		memory = fmt.Sprintf("rlimits only: at most %d processes of %s address space each (%s), plus the /tmp tmpfs; no SysV or POSIX shared memory, no memfds; kernel buffers (pipes, sockets) are bounded only by the kernel's per-user limits",
			l.procs, bytesString(l.addressSpace), bytesString(int64(l.procs)*l.addressSpace))
	}
	all = append(all,
		"AS "+bytesString(l.addressSpace)+" per process",
		fmt.Sprintf("NPROC %d", l.procs),
		fmt.Sprintf("CPU %ds per program, %ds per test", l.cpuSeconds, l.testCPUSeconds),
		"FSIZE "+bytesString(l.fileSize),
		fmt.Sprintf("NOFILE %d", l.files),
		"CORE 0")
	return memory, all
}

// bytesString writes n in MiB or GiB.
func bytesString(n int64) string {
	if n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
