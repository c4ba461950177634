package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// fileKind is what a command-line file holds, judged from its first bytes.
type fileKind int

const (
	kindOther fileKind = iota
	kindSQLite
	kindJSON
	kindMissing
)

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// sniff reads the start of path to say what it holds.
func sniff(path string) (fileKind, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return kindMissing, nil
	}
	if err != nil {
		return kindOther, err
	}
	defer closeQuietly(f)
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return kindOther, err
	}
	head = head[:n]
	switch trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff"); {
	case bytes.HasPrefix(head, sqliteMagic):
		return kindSQLite, nil
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return kindJSON, nil
	}
	return kindOther, nil
}

// wrongKind says what a file given as a command's argument is, when it is
// not the kind expected: a message naming what was expected, or nil.
func wrongKind(path, expected string) error {
	kind, err := sniff(path)
	if err != nil {
		return err
	}
	switch kind {
	case kindMissing:
		return fmt.Errorf("%s: no such file (expected %s)", path, expected)
	case kindSQLite:
		return fmt.Errorf("%s is a SQLite database (a run store or a ground-truth store), not %s", path, expected)
	case kindJSON:
		return fmt.Errorf("%s holds JSON (a problem, ground-truth or score file?), not %s", path, expected)
	}
	return nil
}

// isStorePath reports whether loc names a local SQLite file (not a
// postgres:// URL), stripping a "sqlite:" prefix.
func isStorePath(loc string) (string, bool) {
	if strings.Contains(loc, "://") || loc == "" || loc == "off" {
		return "", false
	}
	return sqldb.SQLitePath(loc), true
}

// fileAbsent reports whether loc names a local SQLite file that is not
// there (false for a URL, "" or "off").
func fileAbsent(loc string) bool {
	path, local := isStorePath(loc)
	if !local {
		return false
	}
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// ensureParent creates the folder of a local store file, so that a config
// naming runs/main.db works before runs/ exists. URLs are left alone.
func ensureParent(loc string) error {
	path, ok := isStorePath(loc)
	if !ok {
		return nil
	}
	dir := filepath.Dir(path)
	if dir == "." {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the folder of %s: %w", loc, err)
	}
	return nil
}
