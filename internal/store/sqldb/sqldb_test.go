package sqldb

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRebind(t *testing.T) {
	for _, tc := range []struct {
		d        Dialect
		in, want string
	}{
		{SQLite, "SELECT a FROM t WHERE k = ? AND j = ?", "SELECT a FROM t WHERE k = ? AND j = ?"},
		{Postgres, "SELECT a FROM t WHERE k = ? AND j = ?", "SELECT a FROM t WHERE k = $1 AND j = $2"},
		{Postgres, "UPDATE t SET s = 'why?' WHERE k = ?", "UPDATE t SET s = 'why?' WHERE k = $1"},
		{Postgres, "SELECT 1", "SELECT 1"},
	} {
		if got := tc.d.Rebind(tc.in); got != tc.want {
			t.Errorf("%s.Rebind(%q) = %q, want %q", tc.d, tc.in, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h/db":                          "postgres://u:xxxxx@h/db",
		"postgres://u@h/db":                                 "postgres://u@h/db",
		"runs/main.db":                                      "runs/main.db",
		"postgres://u:p%zz@host/db":                         "postgres://xxxxx@host/db",
		"postgres://u@h/db?password=secret&sslmode=disable": "postgres://u@h/db?password=xxxxx&sslmode=disable",
		"postgres://u:secret@h/db?sslpassword=secret&x=1":   "postgres://u:xxxxx@h/db?sslpassword=xxxxx&x=1",
	} {
		if got := Redact(in); got != want || strings.Contains(got, "secret") {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
		if again := Redact(want); again != want {
			t.Errorf("Redact(%q) = %q: masking a masked location must change nothing", want, again)
		}
	}
}

// TestIsRedacted: a location Redact masked a password of is told from one
// that carries its password, and from one that never had one.
func TestIsRedacted(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://u:xxxxx@h/db":                          true,
		"postgres://xxxxx@host/db":                         true, // an unparsable one, masked whole
		"postgres://u@h/db?password=xxxxx&sslmode=disable": true,
		"postgres://u@h/db?sslpassword=xxxxx":              true,
		"postgres://u:secret@h/db":                         false,
		"postgres://u@h/db?password=secret":                false,
		"postgres://u@h/db":                                false,
		"postgres:///":                                     false,
		"runs/main.db":                                     false,
		"sqlite:runs/xxxxx.db":                             false,
		"":                                                 false,
	} {
		if got := IsRedacted(in); got != want {
			t.Errorf("IsRedacted(%q) = %v, want %v", in, got, want)
		}
	}
	for _, in := range []string{"postgres://u:secret@h/db", "postgres://u:p%zz@host/db", "postgres://u@h/db?password=secret"} {
		if !IsRedacted(Redact(in)) {
			t.Errorf("IsRedacted(Redact(%q)) = false", in)
		}
	}
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "x.db"), Options{OneConnection: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Dialect != SQLite {
		t.Errorf("dialect %s", db.Dialect)
	}
	for _, bad := range []string{"", "mysql://h/db"} {
		if _, err := Open(ctx, bad, Options{}); err == nil {
			t.Errorf("Open(%q) succeeded", bad)
		}
	}
	if _, err := Open(ctx, "postgres://u:topsecret@127.0.0.1:1/db?connect_timeout=1", Options{}); err == nil || strings.Contains(err.Error(), "topsecret") {
		t.Errorf("Open of an unreachable PostgreSQL: %v (the password must be masked)", err)
	}
}

// TestCheckLocation: what no store can open is refused by its one rule,
// naming why, with a URL's password masked; what some store opens passes.
func TestCheckLocation(t *testing.T) {
	for _, tc := range []struct {
		location, want string // want "" for a location that passes
	}{
		{"", "empty location"},
		{"mysql://u:topsecret@h/db", `unsupported scheme`},
		{"sqlite:x://y", "unsupported scheme"},
		{"runs.db", ""},
		{"sqlite:runs.db", ""},
		{":memory:", ""},
		{"postgres://u@h/db", ""},
		{"postgresql://u@h/db", ""},
	} {
		err := CheckLocation(tc.location)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckLocation(%q): %v, want nil", tc.location, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckLocation(%q): %v, want an error saying %q", tc.location, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "topsecret"):
			t.Errorf("CheckLocation(%q): %v shows the password", tc.location, err)
		}
	}
}

// TestPostgresDSN: a PostgreSQL location gets the default connect_timeout
// unless it gives its own, which is kept.
func TestPostgresDSN(t *testing.T) {
	for _, tc := range []struct{ location, want string }{
		{"postgres://u@h/db", "connect_timeout=10"},
		{"postgres://u@h/db?sslmode=disable", "connect_timeout=10"},
		{"postgres://u@h/db?connect_timeout=3", "connect_timeout=3"},
	} {
		got := PostgresDSN(tc.location, Options{})
		if !strings.Contains(got, tc.want) || strings.Count(got, "connect_timeout") != 1 {
			t.Errorf("PostgresDSN(%q) = %q, want one %s", tc.location, got, tc.want)
		}
	}
}

// TestOpenOfAPostgresThatNeverAnswers: a server that accepts the
// connection and never answers fails the open within the default connect
// timeout, naming the location, where it held the command forever.
func TestOpenOfAPostgresThatNeverAnswers(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only catches a hang
	defer cancel()
	location := "postgres://u@" + lis.Addr().String() + "/db?sslmode=disable"
	_, err = Open(ctx, location, Options{})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), lis.Addr().String()) {
		t.Errorf("Open of a server that never answers: %v (hang bound: %v), want its own error naming the location", err, ctx.Err())
	}
}

// TestRuntimeParamsKeepSpaces: the parameters a store adds to a PostgreSQL
// URL keep those it had, a space in them written %20 (pgx reads "+" as a
// plus sign).
func TestRuntimeParamsKeepSpaces(t *testing.T) {
	got := withRuntimeParams("postgres://u@h/db?options=-c%20statement_timeout%3D5000&sslmode=disable", map[string]string{"default_transaction_read_only": "on"})
	want := "postgres://u@h/db?default_transaction_read_only=on&options=-c%20statement_timeout%3D5000&sslmode=disable"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if loc := "postgres://u@h/db?x=1"; withRuntimeParams(loc, nil) != loc {
		t.Error("a URL without parameters to add was changed")
	}
}
