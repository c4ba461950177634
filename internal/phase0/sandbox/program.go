package sandbox

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

//go:embed harness.py
var harnessSource string

// bootstrap is the interpreter's -c program: it drops the working
// directory from the import path (the work dir is writable by the
// program), then reads the harness from the request descriptor and runs it.
const bootstrap = `import sys;sys.path[:]=[p for p in sys.path if p];r=open(3,"rb",closefd=False);exec(compile(r.read(int(r.readline())),"harness.py","exec"),{"__name__":"harness","requests":r})`

// frameOrError is what the frame reader delivers.
type frameOrError struct {
	f   frame
	err error
}

// program is one running sandbox: bwrap, its PID 1, the harness and the
// test processes.
type program struct {
	cmd    *exec.Cmd
	cg     *cgroup  // nil without cgroups
	initFD int      // pidfd of the sandbox's PID 1, or -1
	sends  chan any // lines for the harness, written in order
	frames chan frameOrError
	stderr *capped // bwrap's and the harness's own output
	done   chan struct{}
	exited chan struct{}
}

// spawn starts bwrap for one program, places its PID 1 in a fresh cgroup
// (if any) before anything runs in the sandbox, and sends the harness and
// cfg. The caller must call stop.
func (s *Sandbox) spawn(py interpreter, cg *cgroups, cfg harnessConfig) (*program, error) {
	p := &program{initFD: -1, stderr: &capped{max: 16 << 10}, done: make(chan struct{}), exited: make(chan struct{})}
	var pipes []*os.File
	closeAll := func() { // on failure: nothing passed through them matters
		for _, f := range pipes {
			_ = f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			pipes = append(pipes, r, w)
		}
		return r, w, err
	}
	reqR, reqW, err1 := pipe()
	resR, resW, err2 := pipe()
	infoR, infoW, err3 := pipe()
	blockR, blockW, err4 := pipe()
	seccompR, seccompW, err5 := pipe()
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		closeAll()
		return nil, fmt.Errorf("sandbox: pipe: %w", err)
	}
	// The filter (a few hundred bytes) fits in the pipe's buffer; bwrap
	// reads it to EOF once the sandbox is set up.
	var filter []byte
	if s.filters != nil {
		filter = s.filters.sandbox
	}
	if _, err := seccompW.Write(filter); err != nil {
		closeAll()
		return nil, fmt.Errorf("sandbox: seccomp pipe: %w", err)
	}
	if err := seccompW.Close(); err != nil {
		closeAll()
		return nil, fmt.Errorf("sandbox: seccomp pipe: %w", err)
	}
	if cg != nil {
		g, err := cg.create()
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("sandbox: cgroup: %w", err)
		}
		p.cg = g
	}
	cmd := exec.Command(s.bwrap.path, s.bwrap.args(py, s.opts.WorkDirBytes, s.filters != nil)...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Stdout = p.stderr
	cmd.Stderr = p.stderr
	cmd.ExtraFiles = []*os.File{reqR, resW, infoW, blockR, seccompR} // fds 3 to 7
	cmd.WaitDelay = time.Second
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if s.root {
		// bwrap then maps the sandbox's uid to this unprivileged host
		// uid, never to root.
		uid := uint32(s.opts.UID)
		attr.Credential = &syscall.Credential{Uid: uid, Gid: uid, Groups: []uint32{}}
	}
	if p.cg != nil && p.cg.fd != nil {
		attr.UseCgroupFD = true
		attr.CgroupFD = int(p.cg.fd.Fd())
	}
	cmd.SysProcAttr = attr
	err := cmd.Start()
	for _, f := range cmd.ExtraFiles {
		_ = f.Close() // the child's ends: it holds its own copies
	}
	if err != nil {
		closeAll()
		return nil, errors.Join(fmt.Errorf("sandbox: start %s: %w", s.bwrap.path, err), p.removeCgroup())
	}
	p.cmd = cmd
	go func() {
		_ = cmd.Wait() // how it ended shows in its frames and its stderr
		close(p.exited)
	}()
	// From here on stop() cleans up.
	p.sends = make(chan any, 4)
	p.frames = make(chan frameOrError)
	initErr := p.handshake(infoR, blockW)
	_ = infoR.Close() // only read
	if err := blockW.Close(); err != nil {
		initErr = errors.Join(initErr, fmt.Errorf("sandbox: block pipe: %w", err))
	}
	go p.writeRequests(reqW)
	go p.readFrames(resR, maxFrame(s.opts.FileSizeBytes))
	if initErr != nil {
		return p, initErr
	}
	p.send(harnessSource)
	p.send(cfg)
	return p, nil
}

// handshake reads the sandbox's PID 1 from bwrap's info descriptor, opens
// a pidfd of it and puts it in the program's v1 cgroup, then lets bwrap go
// on: bwrap blocks on the block descriptor after setting up the mounts and
// before it executes the interpreter as PID 1 (--as-pid-1: there is no
// other init), so nothing runs in the sandbox before it is in its cgroup,
// and every process that ever runs there descends from the harness.
func (p *program) handshake(info *os.File, block *os.File) error {
	_ = info.SetReadDeadline(time.Now().Add(setupTimeout))
	data, err := io.ReadAll(io.LimitReader(info, 64<<10))
	if err != nil || len(data) == 0 {
		p.waitExit(time.Second)
		msg := p.failure()
		if strings.Contains(msg, "namespace") {
			msg += " (bubblewrap needs user namespaces: user.max_user_namespaces > 0, kernel.unprivileged_userns_clone=1 where that sysctl exists, and in a container a seccomp profile that allows them)"
		}
		return fmt.Errorf("sandbox: bubblewrap did not start: %v: %s", err, msg)
	}
	var in struct {
		ChildPID int `json:"child-pid"`
	}
	if err := json.Unmarshal(data, &in); err != nil || in.ChildPID <= 0 {
		return fmt.Errorf("sandbox: bubblewrap's info %q: %v", data, err)
	}
	if fd, err := unix.PidfdOpen(in.ChildPID, 0); err == nil {
		p.initFD = fd
	} else {
		return fmt.Errorf("sandbox: pidfd_open(%d): %w", in.ChildPID, err)
	}
	if p.cg != nil {
		if err := p.cg.attach(in.ChildPID); err != nil {
			return fmt.Errorf("sandbox: cgroup: %w", err)
		}
	}
	if _, err := block.Write([]byte{1}); err != nil {
		p.waitExit(time.Second)
		return fmt.Errorf("sandbox: bubblewrap ended during setup: %s", p.failure())
	}
	return nil
}

// send queues one message for the harness: a string is sent as the
// harness source, anything else as a JSON line.
func (p *program) send(msg any) {
	select {
	case p.sends <- msg:
	case <-p.done:
	}
}

// writeRequests writes queued messages to the harness until stop; a write
// blocked on a harness that stopped reading ends when stop closes w.
func (p *program) writeRequests(w *os.File) {
	go func() {
		<-p.done
		_ = w.Close() // the program is stopped: what was not written no longer matters
	}()
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	for {
		var msg any
		select {
		case msg = <-p.sends:
		case <-p.done:
			return
		}
		var err error
		if src, ok := msg.(string); ok {
			_, err = bw.WriteString(strconv.Itoa(len(src)) + "\n" + src)
		} else {
			err = enc.Encode(msg)
		}
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			return // the harness is gone; the frame reader reports it
		}
	}
}

// readFrames delivers the harness's frames until the first error (io.EOF
// when the harness closed its end), which it delivers too.
func (p *program) readFrames(r *os.File, max int64) {
	defer func() { _ = r.Close() }() // only read
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		f, err := readFrame(br, max)
		select {
		case p.frames <- frameOrError{f, err}:
		case <-p.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// stop kills everything of the program and removes its cgroup: bwrap's
// outer process (whose death kills the sandbox's PID 1 through
// --die-with-parent), PID 1 itself through its pidfd (the kernel then
// kills every process of the PID namespace) and whatever is in the
// cgroup; it returns once all are dead.
func (p *program) stop() error {
	close(p.done)
	if p.cmd != nil {
		_ = p.cmd.Process.Kill()
	}
	var errs []error
	if p.initFD >= 0 {
		_ = unix.PidfdSendSignal(p.initFD, unix.SIGKILL, nil, 0)
		if !waitPidfd(p.initFD, killTimeout) {
			errs = append(errs, fmt.Errorf("the sandbox's PID 1 survived SIGKILL for %s", killTimeout))
		}
		_ = unix.Close(p.initFD) // a pidfd, only waited on
	}
	if p.cg != nil {
		if err := p.cg.kill(killTimeout); err != nil {
			errs = append(errs, err)
		}
	}
	if p.cmd != nil {
		<-p.exited
	}
	if err := p.removeCgroup(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (p *program) removeCgroup() error {
	if p.cg == nil {
		return nil
	}
	err := p.cg.remove()
	p.cg = nil
	return err
}

// waitPidfd waits until the process of fd has exited.
func waitPidfd(fd int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(left/time.Millisecond)+1)
		if err == nil && n > 0 {
			return true
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false
		}
	}
}

// waitExit waits up to timeout for bwrap to exit, so that its error
// message is complete.
func (p *program) waitExit(timeout time.Duration) {
	select {
	case <-p.exited:
	case <-time.After(timeout):
	}
}

// failure describes how bwrap or the harness ended: the exit status if
// known and the tail of their own output.
func (p *program) failure() string {
	st := "still running"
	select {
	case <-p.exited:
		st = "ended"
		if p.cmd != nil && p.cmd.ProcessState != nil {
			st = p.cmd.ProcessState.String()
		}
	default:
	}
	tail := strings.TrimSpace(p.stderr.String())
	if len(tail) > 500 {
		tail = "..." + tail[len(tail)-500:]
	}
	if tail == "" {
		return st
	}
	return st + ": " + tail
}
