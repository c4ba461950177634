package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// AllServices in a token file grants every service.
const AllServices = "*"

// Tokens is the table of bearer tokens a server accepts, each stored only as
// its SHA-256 with the services it may call. The zero value accepts none.
type Tokens struct {
	entries []tokenEntry
	// warnings name the grants of services this build does not serve
	// (Warnings).
	warnings []string
}

// Warnings says, one sentence each, which grants of the file name a
// service this build does not know: they are ignored, not refused, so
// that one token file serves every build of a rolling update (a file that
// grants a newer build's service must not stop an older one), and a
// server logs them at start, where a misspelt name shows.
func (t *Tokens) Warnings() []string { return t.warnings }

// tokenEntry is one line of a token file.
type tokenEntry struct {
	hash [sha256.Size]byte
	// all grants every service; otherwise services lists the short names.
	all      bool
	services []string
	// name labels the token in logs and errors: the line's third field, or
	// "FILE:LINE".
	name string
	// limits are the token's own limits (the line's options), each set one
	// replacing the server's for the calls made with it.
	limits tokenLimits
}

// tokenLimits are the limits a line of a token file sets for its token,
// in place of the server's (over). Comparable: lines of one name must set
// equal ones.
type tokenLimits struct {
	setsConcurrency bool
	maxConcurrent   int
	setsRate        bool
	rate            float64
	burst           int // with the rate; 0: the rate, rounded up
}

// over returns server's limits with those t sets in their place. A
// token's rate comes with its own burst, never the server's, which was
// sized for another rate.
func (t tokenLimits) over(server Limits) Limits {
	if t.setsConcurrency {
		server.MaxConcurrent = t.maxConcurrent
	}
	if t.setsRate {
		server.Rate, server.Burst = t.rate, t.burst
	}
	return server
}

// tokenOptions are the options a token file's line may end with, as
// NAME=VALUE.
var tokenOptions = []string{"max_concurrent", "rate", "burst"}

// optionName matches what may be quoted of an unknown option: a short
// word, never a token pasted with an "=" in it.
var optionName = regexp.MustCompile(`^[a-z_]{1,32}$`)

// addOption adds the option name of a line to opts, refusing one that is
// not in tokenOptions (quoting its name only when it is a plain word) or
// that the line gives twice.
func addOption(opts map[string]string, name, value string) error {
	known := strings.Join(tokenOptions, ", ")
	switch _, twice := opts[name]; {
	case !slices.Contains(tokenOptions, name) && optionName.MatchString(name):
		return fmt.Errorf("unknown option %q (known: %s; a name may not hold \"=\")", name, known)
	case !slices.Contains(tokenOptions, name):
		return fmt.Errorf("a field with \"=\" that is no option (known: %s; a name may not hold \"=\")", known)
	case twice:
		return fmt.Errorf("option %s given twice", name)
	}
	opts[name] = value
	return nil
}

// limitsOf reads the options of a line (addOption).
func limitsOf(opts map[string]string) (t tokenLimits, err error) {
	if v, ok := opts["max_concurrent"]; ok {
		if t.maxConcurrent, err = optionCount("max_concurrent", v); err != nil {
			return t, err
		}
		t.setsConcurrency = true
	}
	if v, ok := opts["rate"]; ok {
		if t.rate, err = ParseRate(v); err != nil {
			return t, fmt.Errorf("option rate: %w", err)
		}
		t.setsRate = true
	}
	if v, ok := opts["burst"]; ok {
		if !t.setsRate {
			return t, errors.New("burst= without rate= on the line: a token's burst goes with its own rate")
		}
		t.burst, err = optionCount("burst", v)
	}
	return t, err
}

// optionCount reads the value of an option that takes an integer ≥ 0.
func optionCount(name, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("option %s=%q: want an integer ≥ 0", name, value)
	}
	return n, nil
}

// LoadTokens reads a token file; see ParseTokens.
func LoadTokens(path string, known []string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer func() { _ = f.Close() }() // only read
	return ParseTokens(filepath.Base(path), f, known)
}

// ParseTokens reads a token file named name. Each line holds the SHA-256 of
// a token in hex, the services it may call (short names from known,
// comma-separated, or "*" for all), optionally a name for logs, and
// optionally the token's own limits as NAME=VALUE options
// (max_concurrent, rate, burst with a rate; Limits), each replacing the server's for
// the calls made with it:
//
//	# sha256 of the token                                            services         name     options
//	3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7 oracle,executor  scoring  max_concurrent=128
//	9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 *
//
// Two lines of one name are one caller, so they may not set different
// limits.
// Blank lines and everything after a "#" are ignored. Every bad line is an
// error naming name:line; a file without a token is an error too. A
// service not in known is ignored, with a warning (Warnings).
func ParseTokens(name string, r io.Reader, known []string) (*Tokens, error) {
	t := &Tokens{}
	var errs []error
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		if line == 1 {
			text = strings.TrimPrefix(text, jsonloc.BOM) // as a text editor may write it
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, line)
		e, unknown, err := parseTokenLine(fields, known)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		for _, s := range unknown {
			if s == AllServices { // every service, but only alone
				t.warnings = append(t.warnings, fmt.Sprintf("%s: \"*\" grants every service only alone, not in a list: the grant is ignored", where))
				continue
			}
			t.warnings = append(t.warnings, fmt.Sprintf("%s: service %q is not one this build serves (%s): the grant is ignored", where, s, strings.Join(known, ", ")))
		}
		if e.name == "" {
			e.name = where
		}
		for _, prev := range t.entries {
			if prev.hash == e.hash {
				errs = append(errs, fmt.Errorf("%s: the same token hash as %s", where, prev.name))
			}
			if prev.name == e.name && prev.limits != e.limits {
				errs = append(errs, fmt.Errorf("%s: the name %s with other limits than an earlier line's: the lines of one name are one caller, with one set of limits", where, e.name))
			}
		}
		t.entries = append(t.entries, e)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	if len(errs) == 0 && len(t.entries) == 0 {
		errs = append(errs, fmt.Errorf("%s: no token in it (each line: SHA256-HEX SERVICES [NAME] [OPTION=VALUE …])", name))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// parseTokenLine reads the fields of one line, and returns the services it
// grants that are not in known (which the entry leaves out).
func parseTokenLine(fields []string, known []string) (e tokenEntry, unknown []string, err error) {
	if len(fields) < 2 {
		return e, nil, fmt.Errorf("want SHA256-HEX SERVICES [NAME] [OPTION=VALUE …], got %d fields", len(fields))
	}
	raw, err := hex.DecodeString(fields[0])
	if err != nil || len(raw) != sha256.Size {
		// Never echo the field: it may be a token pasted by mistake.
		return e, nil, fmt.Errorf("the first field must be a SHA-256 in hex (64 characters), not a %d-character value; store the hash of the token, never the token", len(fields[0]))
	}
	copy(e.hash[:], raw)
	if fields[1] == AllServices {
		e.all = true
	} else {
		for _, s := range strings.Split(fields[1], ",") {
			s = strings.ToLower(strings.TrimSpace(s))
			if !slices.Contains(known, s) {
				if s == "" {
					return e, nil, fmt.Errorf("an empty service name in %q (known: %s, or %s for all)", fields[1], strings.Join(known, ", "), AllServices)
				}
				unknown = append(unknown, s)
				continue
			}
			if !slices.Contains(e.services, s) {
				e.services = append(e.services, s)
			}
		}
	}
	// The fields after the services are never quoted in an error either:
	// one may be a token pasted where the name goes.
	opts := map[string]string{}
	for i, f := range fields[2:] {
		n := i + 3
		name, value, isOption := strings.Cut(f, "=")
		switch {
		case isOption:
			if err := addOption(opts, name, value); err != nil {
				return e, nil, fmt.Errorf("field %d: %w", n, err)
			}
		case n > 3:
			return e, nil, fmt.Errorf("field %d (%d characters) is neither the name, which is the third field, nor an OPTION=VALUE (%s)", n, len(f), strings.Join(tokenOptions, ", "))
		default:
			e.name = f
		}
	}
	if e.limits, err = limitsOf(opts); err != nil {
		return e, nil, err
	}
	return e, unknown, nil
}

// lookup returns the entry whose hash is SHA-256(token), or nil. Every
// entry is compared in constant time, so how long it takes does not depend
// on which entry (if any) matches nor on how much of a hash does.
func (t *Tokens) lookup(token string) *tokenEntry {
	sum := sha256.Sum256([]byte(token))
	var found *tokenEntry
	for i := range t.entries {
		if subtle.ConstantTimeCompare(sum[:], t.entries[i].hash[:]) == 1 {
			found = &t.entries[i]
		}
	}
	return found
}

// allows reports whether the entry may call the service with this short
// name.
func (e *tokenEntry) allows(service string) bool {
	return e.all || slices.Contains(e.services, service)
}

// HashToken returns the hex SHA-256 of token, as a token file stores it.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
