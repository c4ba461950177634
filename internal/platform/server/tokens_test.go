package server_test

import (
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/server"
)

var knownServices = []string{"executor", "oracle", "planner"}

func TestParseTokens(t *testing.T) {
	h1, h2 := server.HashToken("token-one"), server.HashToken("token-two")
	tests := []struct {
		name    string
		file    string
		wantErr []string // substrings of the error, in order; nil for success
	}{
		{name: "full", file: "# comment\n\n" + h1 + " oracle,executor ci # trailing comment\n" + strings.ToUpper(h2) + " *\n"},
		{name: "spaces in list", file: h1 + " oracle,Planner\n"},
		{name: "byte-order mark", file: "\ufeff" + h1 + " oracle\n"},
		{name: "byte-order mark on line 2", file: h1 + " oracle\n\ufeff" + h2 + " oracle\n", wantErr: []string{"tokens:2:"}},
		{name: "empty", file: "# nothing\n\n", wantErr: []string{"tokens:", "no token"}},
		{name: "one field", file: h1 + "\n", wantErr: []string{"tokens:1:", "got 1 fields"}},
		{name: "two names", file: h1 + " oracle a b\n", wantErr: []string{"tokens:1:", "field 4 (1 characters) is neither the name"}},
		{name: "limits", file: h1 + " oracle scoring max_concurrent=128 rate=600/m burst=3\n" + h2 + " * max_concurrent=0\n"},
		{name: "name after an option", file: h1 + " oracle rate=1 ci\n", wantErr: []string{"tokens:1:", "field 4 (2 characters) is neither the name"}},
		{name: "a token pasted after the name", file: h1 + " oracle ci s3cret-token-value\n", wantErr: []string{"tokens:1:", "field 4 (18 characters)"}},
		{name: "a token with = pasted as the name", file: h1 + " oracle s3cret-token==\n", wantErr: []string{"tokens:1:", "field 3: a field with \"=\" that is no option"}},
		{name: "a token instead of the hash, with options", file: "s3cret-token-value oracle ci junk=1\n", wantErr: []string{"tokens:1:", "SHA-256 in hex"}},
		{name: "a name with =", file: h1 + " oracle team=ci\n", wantErr: []string{"tokens:1:", `field 3: unknown option "team"`, `a name may not hold "="`}},
		{name: "unknown option", file: h1 + " oracle ci max_conc=4\n", wantErr: []string{"tokens:1:", `field 4: unknown option "max_conc"`}},
		{name: "option twice", file: h1 + " oracle ci rate=1 rate=2\n", wantErr: []string{"tokens:1:", "option rate given twice"}},
		{name: "negative concurrency", file: h1 + " oracle ci max_concurrent=-1\n", wantErr: []string{"tokens:1:", `max_concurrent="-1": want an integer ≥ 0`}},
		{name: "fractional burst", file: h1 + " oracle ci rate=1 burst=1.5\n", wantErr: []string{"tokens:1:", `burst="1.5": want an integer ≥ 0`}},
		{name: "burst without rate", file: h1 + " oracle ci burst=5\n", wantErr: []string{"tokens:1:", "burst= without rate="}},
		{name: "rate not a number", file: h1 + " oracle ci rate=NaN\n", wantErr: []string{"tokens:1:", "option rate: want a rate ≥ 0"}},
		{name: "infinite rate", file: h1 + " oracle ci rate=+Inf\n", wantErr: []string{"tokens:1:", "option rate: want a rate"}},
		{name: "rate of an unknown unit", file: h1 + " oracle ci rate=5/d\n", wantErr: []string{"tokens:1:", `option rate: unknown unit "d"`}},
		{name: "one name, the same limits", file: h1 + " oracle ci rate=2\n" + h2 + " * ci rate=2\n"},
		{name: "one name, other limits", file: h1 + " oracle ci rate=2\n" + h2 + " * ci\n", wantErr: []string{"tokens:2:", "the name ci with other limits"}},
		{name: "one name, zero against unset", file: h1 + " oracle ci max_concurrent=0\n" + h2 + " * ci\n", wantErr: []string{"tokens:2:", "other limits"}},
		{name: "token instead of hash", file: "# x\ns3cret-token-value oracle\n", wantErr: []string{"tokens:2:", "SHA-256 in hex", "18-character"}},
		{name: "short hex", file: h1[:60] + " oracle\n", wantErr: []string{"tokens:1:", "64 characters"}},
		{name: "empty service", file: h1 + " oracle,,executor\n", wantErr: []string{"tokens:1:", `an empty service name in "oracle,,executor"`}},
		{name: "duplicate", file: h1 + " oracle\n" + h1 + " *\n", wantErr: []string{"tokens:2:", "same token hash as tokens:1"}},
		{name: "every bad line", file: "x oracle\n" + h1 + " oracle,,\n", wantErr: []string{"tokens:1:", "tokens:2:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := server.ParseTokens("tokens", strings.NewReader(tt.file), knownServices)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "s3cret") {
				t.Errorf("the error quotes the bad field: %v", msg)
			}
			rest := msg
			for _, want := range tt.wantErr {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("err = %q, want %q (in order %q)", msg, want, tt.wantErr)
				}
				rest = rest[i+len(want):]
			}
		})
	}
}

// TestUnknownServiceIsIgnored: a grant of a service this build does not
// serve (a newer build's, or a misspelt one) is ignored with a warning
// naming its line, not refused: one token file serves every build of a
// rolling update, and an older pod must not crash-loop on a newer grant.
func TestUnknownServiceIsIgnored(t *testing.T) {
	h1, h2, h3 := server.HashToken("token-one"), server.HashToken("token-two"), server.HashToken("token-three")
	tokens, err := server.ParseTokens("tokens", strings.NewReader(h1+" oracle,scoring-v2 ci\n"+h2+" budgetaware\n"+h3+" *,oracle\n"), knownServices)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`tokens:1: service "scoring-v2" is not one this build serves`,
		`tokens:2: service "budgetaware" is not one this build serves`,
		// "*" is known, alone: in a list it says so.
		`tokens:3: "*" grants every service only alone, not in a list: the grant is ignored`,
	}
	got := tokens.Warnings()
	if len(got) != len(want) {
		t.Fatalf("warnings = %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("warning %d = %q, want it to start %q", i, got[i], w)
		}
	}
}

func TestHashToken(t *testing.T) {
	// sha256("test"), as `printf %s test | sha256sum` prints it.
	if got := server.HashToken("test"); got != "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" {
		t.Errorf("HashToken = %s", got)
	}
}
