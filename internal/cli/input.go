package cli

import (
	"fmt"
	"io"
	"os"
)

// openInput opens path, or stdin for "" or "-", and returns the name to use
// in messages ("-" for stdin) and a function that closes what it opened
// (only read, so its close cannot fail in a way that matters).
func openInput(path string, stdin io.Reader) (string, io.Reader, func(), error) {
	if path == "" || path == "-" {
		return "-", stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", nil, nil, err
	}
	return path, f, func() { closeQuietly(f) }, nil
}

// readInput reads all of what openInput opens.
func readInput(path string, stdin io.Reader) (string, []byte, error) {
	name, r, closeInput, err := openInput(path, stdin)
	if err != nil {
		return "", nil, err
	}
	defer closeInput()
	data, err := io.ReadAll(r)
	if err != nil {
		return "", nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return name, data, nil
}
