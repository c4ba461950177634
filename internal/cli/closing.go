package cli

import (
	"errors"
	"io"
)

// closeInto calls closeFn and joins its error into *err. Commands defer it
// for what they write or serve from (a log file, a store, the model cache,
// the service connections): a close that fails may have lost what was
// written, so the command must not report success. *err is left as it is
// when closeFn succeeds, so callers can still compare it by identity.
func closeInto(err *error, closeFn func() error) {
	if cerr := closeFn(); cerr != nil {
		*err = errors.Join(*err, cerr)
	}
}

// closeQuietly closes c where its error cannot matter: a file only read, or
// a listener or connection on the way out that may already be closed.
func closeQuietly(c io.Closer) {
	_ = c.Close()
}
