package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set for a subcommand that reports errors instead
// of exiting and prints its usage to w.
func newFlagSet(name string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("triage "+name, flag.ContinueOnError)
	fs.SetOutput(w)
	return fs
}

// envName is the environment variable that sets a flag: TRIAGE_ and the flag
// name in upper case with dashes as underscores.
func envName(flagName string) string {
	return "TRIAGE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseFlags applies TRIAGE_* environment variables to fs and then parses
// args, so a flag on the command line wins over the environment, allowing at
// most maxArgs positional arguments. Errors name the variable or flag at
// fault.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string, maxArgs int) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v := getenv(name); v != "" {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("environment variable %s=%q: %v", name, v, err))
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if fs.NArg() > maxArgs {
		return fmt.Errorf("%w: unexpected arguments %q", ErrUsage, fs.Args())
	}
	return nil
}
