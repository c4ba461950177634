package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The protocol between Go and the harness. Go writes on the harness's
// fd 3: the harness source (its length on a line, then the bytes),
// then one JSON line of harnessConfig, then one JSON line of testRequest
// per test, sent only once the previous test's result has arrived. The
// harness writes frames on fd 4: a 4-byte big-endian length, then
// that many bytes of one JSON object (frame). Go decodes frames strictly
// (unknown fields, trailing bytes, a missing field, an oversized frame or
// a result for another test are errors), and no frame carries a verdict:
// a result is a test's raw output and exit status, which Go judges.

// harnessConfig is what the harness needs to run one program.
type harnessConfig struct {
	TestType string `json:"test_type"`
	Func     string `json:"func"`
	Program  string `json:"program"`
	// Rlimits are the limits.init rlimits, name to soft and hard limit,
	// which the harness sets on itself first.
	Rlimits map[string][2]uint64 `json:"rlimits"`
	// Limits are the per-test limits each test process sets on itself.
	Limits map[string]int64  `json:"limits"`
	Env    map[string]string `json:"env"`
	// ProgramFilter is the seccomp filter each test process adds before
	// the program runs (filters.program; empty: none).
	ProgramFilter []byte `json:"program_filter"`
	// OOMScoreAdj is the oom_score_adj the harness ("harness") and each
	// test process ("test") raise theirs to.
	OOMScoreAdj map[string]int `json:"oom_score_adj"`
}

// testRequest asks the harness to run test I with Input. The expected
// output never leaves Go.
type testRequest struct {
	I     int    `json:"i"`
	Input string `json:"input"`
}

// Frame events.
const (
	evReady       = "ready"
	evSetupFailed = "setup_failed"
	evResult      = "result"
)

// Result statuses.
const (
	statusExited     = "exited"      // Code is the exit status
	statusSignaled   = "signaled"    // Code is the signal
	statusForkFailed = "fork_failed" // no test process could be started
)

// frame is one report of the harness; which fields are set depends on Ev.
type frame struct {
	Ev string `json:"ev"`

	// ready: the interpreter, and what the harness found of its own
	// isolation.
	Python     string  `json:"python,omitempty"`
	Executable string  `json:"executable,omitempty"`
	Checks     *checks `json:"checks,omitempty"`

	// setup_failed
	Error string `json:"error,omitempty"`

	// result of test I: how its process ended and what it wrote.
	I      *int   `json:"i,omitempty"`
	Status string `json:"status,omitempty"`
	Code   *int   `json:"code,omitempty"`
	Stdout []byte `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

// checks is the harness's view of its own isolation, verified by Go
// before every program.
type checks struct {
	UID        int    `json:"uid"`
	PID        int    `json:"pid"`
	Undumpable bool   `json:"undumpable"`
	NoNewPrivs bool   `json:"no_new_privs"`
	CapEff     string `json:"cap_eff"`
	CapPrm     string `json:"cap_prm"`
	CapBnd     string `json:"cap_bnd"`
	// Seccomp is the harness's seccomp mode (2: a filter).
	Seccomp int `json:"seccomp"`
	// Rlimits maps each of limits.init's names to the harness's soft and
	// hard limit (-1: unlimited).
	Rlimits map[string][2]int64 `json:"rlimits"`
}

// problems lists what is wrong with the isolation the harness reports,
// given the rlimits it was to set on itself and whether bwrap was to
// load a seccomp filter.
func (c *checks) problems(want []rlimit, filtered bool) []string {
	var out []string
	if filtered && c.Seccomp != 2 {
		out = append(out, fmt.Sprintf("the harness's seccomp mode is %d, want 2 (a filter)", c.Seccomp))
	}
	if c.PID != 1 {
		out = append(out, fmt.Sprintf("the harness is pid %d in the sandbox, not its PID 1", c.PID))
	}
	for _, r := range want {
		got, ok := c.Rlimits[r.name]
		if !ok || got[0] != int64(r.soft) || got[1] != int64(r.hard) {
			out = append(out, fmt.Sprintf("RLIMIT %s is %v, want [%d %d]", r.name, got, r.soft, r.hard))
		}
	}
	if c.UID == 0 {
		out = append(out, "the harness runs as uid 0")
	}
	if !c.Undumpable {
		out = append(out, "the harness is still dumpable (test processes could ptrace it)")
	}
	if !c.NoNewPrivs {
		out = append(out, "no_new_privs is not set")
	}
	for name, v := range map[string]string{"effective": c.CapEff, "permitted": c.CapPrm, "bounding": c.CapBnd} {
		if v != "0000000000000000" {
			out = append(out, fmt.Sprintf("%s capabilities %q, want none", name, v))
		}
	}
	return out
}

// maxFrame is the largest frame accepted when outputs are capped at
// fileSize bytes: the output in base64 and room for the rest.
func maxFrame(fileSize int64) int64 {
	return fileSize/3*4 + 4 + 1<<20
}

// readFrame reads and checks one frame; io.EOF means the harness closed
// its end between frames.
func readFrame(r io.Reader, max int64) (frame, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return frame{}, errors.New("truncated frame header")
		}
		return frame{}, err
	}
	n := int64(binary.BigEndian.Uint32(hdr[:]))
	if n == 0 || n > max {
		return frame{}, fmt.Errorf("frame of %d bytes (limit %d)", n, max)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return frame{}, fmt.Errorf("truncated frame: %v", err)
	}
	return decodeFrame(buf)
}

// decodeFrame parses one frame's JSON strictly.
func decodeFrame(buf []byte) (frame, error) {
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.DisallowUnknownFields()
	var f frame
	if err := dec.Decode(&f); err != nil {
		return frame{}, fmt.Errorf("malformed frame: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return frame{}, errors.New("malformed frame: trailing data")
	}
	switch f.Ev {
	case evReady:
		if f.Python == "" || f.Checks == nil {
			return frame{}, errors.New("malformed frame: ready without python or checks")
		}
	case evSetupFailed:
		if f.Error == "" {
			return frame{}, errors.New("malformed frame: setup_failed without error")
		}
	case evResult:
		if f.I == nil {
			return frame{}, errors.New("malformed frame: result without test index")
		}
		switch f.Status {
		case statusExited, statusSignaled:
			if f.Code == nil {
				return frame{}, fmt.Errorf("malformed frame: %s result without code", f.Status)
			}
		case statusForkFailed:
		default:
			return frame{}, fmt.Errorf("malformed frame: result status %q", f.Status)
		}
	default:
		return frame{}, fmt.Errorf("malformed frame: event %q", f.Ev)
	}
	return f, nil
}
