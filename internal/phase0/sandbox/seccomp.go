package sandbox

import (
	"bytes"
	"encoding/binary"
	"fmt"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The sandbox's seccomp filters, built with github.com/elastic/go-seccomp-bpf
// (pure Go, Elastic's, used by Beats; it knows every architecture's
// syscall table and assembles argument conditions). Both are deny-lists:
// what Python and its standard library need is everything else, which an
// allow-list would have to follow from one glibc and kernel to the next.

// deniedSyscalls fail with EPERM in every process of the sandbox:
//
//   - other processes' memory and descriptors, and tracing: ptrace,
//     process_vm_readv/writev, pidfd_getfd, kcmp;
//   - kernel interfaces a program never needs and that are a large attack
//     surface: perf_event_open, bpf, userfaultfd, the keyrings (keyctl,
//     add_key, request_key) and io_uring (whose operations, socket
//     creation among them, would bypass this filter);
//   - memory that outlives every process of the program and belongs to
//     none, so that neither a memory cgroup's OOM killer nor RLIMIT_AS
//     weighs it against the program: SysV shared memory, message queues
//     and semaphores, POSIX message queues, and secret memory. (The IPC
//     namespace's shmmax/shmall/msgmni cannot be lowered instead: bwrap
//     maps no uid 0 in the user namespace that owns it, so its sysctls are
//     read-only to the sandbox, and Go outside cannot write them either.)
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
	"perf_event_open", "bpf", "userfaultfd",
	"keyctl", "add_key", "request_key",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"shmget", "shmat", "shmdt", "shmctl",
	"msgget", "msgsnd", "msgrcv", "msgctl",
	"semget", "semop", "semtimedop", "semctl",
	"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
	"memfd_secret",
}

// socketFamilies are the only families socket and socketpair accept; any
// other (AF_VSOCK, which reaches the hypervisor's host on a VM guest;
// AF_NETLINK; AF_PACKET...) fails with EAFNOSUPPORT, as on a kernel
// without it, so a program that probes falls back.
var socketFamilies = []uint64{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6}

// programDeniedSyscalls fail with EPERM in test processes, which install
// this second filter before any of the program runs: the harness needs
// memfds for each test's standard streams, the program does not, and a
// memfd's pages count against no RLIMIT_AS (each is bounded only by
// RLIMIT_FSIZE, and a program could hold NOFILE of them in each of its
// processes).
var programDeniedSyscalls = []string{"memfd_create"}

// filters are the sandbox's seccomp programs as raw struct sock_filter
// arrays in the machine's byte order, as bwrap --seccomp and
// prctl(PR_SET_SECCOMP) take them.
type filters struct {
	// sandbox is loaded by bwrap into the harness before it executes the
	// interpreter, so every process in the sandbox has it.
	sandbox []byte
	// program is added by each test process before the program runs.
	program []byte
}

// newFilters assembles both filters for this machine's architecture.
func newFilters() (*filters, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	notAllowed := seccomp.ArgumentConditions{}
	for _, f := range socketFamilies {
		notAllowed = append(notAllowed, seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: f})
	}
	sandbox, err := assemble(info, []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM), Names: deniedSyscalls},
		{Action: seccomp.ActionErrno | seccomp.Action(unix.EAFNOSUPPORT), NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "socket", Conditions: notAllowed},
			{Name: "socketpair", Conditions: notAllowed},
		}},
	})
	if err != nil {
		return nil, err
	}
	program, err := assemble(info, []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM), Names: programDeniedSyscalls},
	})
	if err != nil {
		return nil, err
	}
	return &filters{sandbox: sandbox, program: program}, nil
}

// assemble builds a deny-list filter of groups for the native architecture
// and encodes it. The library sends a system call of another architecture
// (a 32-bit int 0x80 call on x86_64, or a 32-bit executable) to the
// default action, which for a deny-list is to allow it, by another number
// and unchecked; a guard in front fails every such call with ENOSYS, as
// on a kernel without that architecture. (The library itself fails x32
// calls, which carry the native architecture, with ENOSYS.)
func assemble(info *arch.Info, groups []seccomp.SyscallGroup) ([]byte, error) {
	policy := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups}
	prog, err := policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompDataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: uint32(seccomp.ActionErrno) | uint32(unix.ENOSYS)},
	}
	raw, err := bpf.Assemble(append(guard, prog...))
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	var b bytes.Buffer
	for _, ins := range raw {
		// struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }
		_ = binary.Write(&b, binary.NativeEndian, ins)
	}
	return b.Bytes(), nil
}

// seccompDataArch is the offset of arch in struct seccomp_data.
const seccompDataArch = 4
