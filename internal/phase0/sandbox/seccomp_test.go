package sandbox

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompVM runs a raw filter as the kernel would, on struct seccomp_data.
type seccompVM struct {
	t  *testing.T
	vm *bpf.VM
}

func newSeccompVM(t *testing.T, raw []byte) seccompVM {
	t.Helper()
	if len(raw)%8 != 0 {
		t.Fatalf("filter of %d bytes is not a sock_filter array", len(raw))
	}
	ins := make([]bpf.RawInstruction, len(raw)/8)
	if err := binary.Read(bytes.NewReader(raw), binary.NativeEndian, ins); err != nil {
		t.Fatal(err)
	}
	prog, ok := bpf.Disassemble(ins)
	if !ok {
		t.Fatalf("filter does not disassemble: %v", prog)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	return seccompVM{t, vm}
}

// run returns the filter's action for a call. seccomp_data is in the
// machine's byte order and every load is of a 32-bit word, while the VM
// loads big-endian: each word is written big-endian so it reads the same.
func (v seccompVM) run(archID arch.AuditArch, nr uint32, args ...uint64) uint32 {
	v.t.Helper()
	var native bytes.Buffer
	binary.Write(&native, binary.NativeEndian, struct {
		NR, Arch uint32
		IP       uint64
		Args     [6]uint64
	}{nr, uint32(archID), 0, [6]uint64(append(args, make([]uint64, 6-len(args))...))})
	b := native.Bytes()
	for i := 0; i < len(b); i += 4 {
		binary.BigEndian.PutUint32(b[i:], binary.NativeEndian.Uint32(b[i:]))
	}
	out, err := v.vm.Run(b)
	if err != nil {
		v.t.Fatal(err)
	}
	return uint32(out)
}

const (
	retAllow = unix.SECCOMP_RET_ALLOW
	retErrno = unix.SECCOMP_RET_ERRNO
)

// The filters' decisions, as the kernel would evaluate them, for every
// class the sandbox refuses, the families it allows, another
// architecture's calls and x32's.
func TestSeccompFilterDecisions(t *testing.T) {
	f, err := newFilters()
	if err != nil {
		t.Fatal(err)
	}
	native, err := arch.GetInfo("")
	if err != nil {
		t.Fatal(err)
	}
	nr := func(name string) uint32 {
		n, ok := native.SyscallNames[name]
		if !ok {
			t.Fatalf("no syscall %s on %s", name, native.Name)
		}
		return uint32(n)
	}
	sandbox, program := newSeccompVM(t, f.sandbox), newSeccompVM(t, f.program)
	eperm, eafnosupport, enosys := retErrno|uint32(unix.EPERM), retErrno|uint32(unix.EAFNOSUPPORT), retErrno|uint32(unix.ENOSYS)
	for _, name := range deniedSyscalls {
		if got := sandbox.run(native.ID, nr(name)); got != eperm {
			t.Errorf("%s: action %#x, want EPERM", name, got)
		}
	}
	for _, c := range []struct {
		name string
		args []uint64
		want uint32
	}{
		{"read", nil, retAllow},
		{"memfd_create", nil, retAllow}, // the harness's; test processes add the program filter
		{"clone3", nil, retAllow},
		{"socket", []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, retAllow},
		{"socket", []uint64{unix.AF_INET, unix.SOCK_DGRAM}, retAllow},
		{"socket", []uint64{unix.AF_INET6, unix.SOCK_STREAM}, retAllow},
		{"socket", []uint64{unix.AF_VSOCK, unix.SOCK_STREAM}, eafnosupport},
		{"socket", []uint64{unix.AF_NETLINK, unix.SOCK_RAW}, eafnosupport},
		{"socket", []uint64{unix.AF_PACKET, unix.SOCK_RAW}, eafnosupport},
		{"socket", []uint64{unix.AF_ALG, unix.SOCK_SEQPACKET}, eafnosupport},
		// The kernel reads the family as a 32-bit int: garbage above it
		// must not let a family through.
		{"socket", []uint64{1<<32 | unix.AF_VSOCK, unix.SOCK_STREAM}, eafnosupport},
		{"socket", []uint64{1<<32 | unix.AF_INET, unix.SOCK_STREAM}, eafnosupport},
		{"socketpair", []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, retAllow},
		{"socketpair", []uint64{unix.AF_NETLINK, unix.SOCK_RAW}, eafnosupport},
		{"socketpair", []uint64{unix.AF_VSOCK, unix.SOCK_STREAM}, eafnosupport},
	} {
		if got := sandbox.run(native.ID, nr(c.name), c.args...); got != c.want {
			t.Errorf("%s%v: action %#x, want %#x", c.name, c.args, got, c.want)
		}
	}
	// Another architecture's calls (x86_64's 32-bit int 0x80 ABI, here
	// with i386's getpid, 20, and ptrace, 26), and x32's (the x32 bit on a
	// native number), fail with ENOSYS in both filters, whatever the call.
	for _, a := range []*arch.Info{arch.I386, arch.ARM, arch.X32} {
		if a.ID == native.ID {
			continue
		}
		for _, n := range []uint32{20, 26, 101} {
			for name, vm := range map[string]seccompVM{"sandbox": sandbox, "program": program} {
				if got := vm.run(a.ID, n); got != enosys {
					t.Errorf("%s filter: %s call %d: action %#x, want ENOSYS", name, a.Name, n, got)
				}
			}
		}
	}
	if native.ID == arch.X86_64.ID {
		for _, name := range []string{"getpid", "ptrace", "socket"} {
			if got := sandbox.run(native.ID, nr(name)|uint32(arch.X32.SeccompMask)); got != enosys {
				t.Errorf("x32 %s: action %#x, want ENOSYS", name, got)
			}
		}
	}
	for name, want := range map[string]uint32{"memfd_create": eperm, "read": retAllow, "ptrace": retAllow} {
		if got := program.run(native.ID, nr(name)); got != want {
			t.Errorf("program filter: %s: action %#x, want %#x", name, got, want)
		}
	}
}
