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

// parseFlags applies TRIAGE_* environment variables to fs, then parses args,
// so a flag on the command line wins over the environment, and returns the
// positional arguments. Flags may come before or after them ("FILE --out
// x"); everything after "--" is positional. At most maxArgs positional
// arguments are allowed. Errors name the variable or flag at fault.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string, maxArgs int) ([]string, error) {
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
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	rest, err := interspersedArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(rest) > maxArgs {
		return nil, fmt.Errorf("%w: unexpected arguments %q", ErrUsage, rest[maxArgs:])
	}
	return rest, nil
}

// interspersedArgs returns the positional arguments left after fs parsed
// args, parsing flags that follow them too ("FILE --out x"); everything
// after "--" is positional.
func interspersedArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	rest := fs.Args()
	if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
		return rest, nil
	}
	var files []string
	for len(rest) > 0 {
		switch a := rest[0]; {
		case a == "--":
			return append(files, rest[1:]...), nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			files = append(files, a)
			rest = rest[1:]
		default:
			before := len(rest)
			if err := fs.Parse(rest); err != nil {
				if errors.Is(err, flag.ErrHelp) {
					return nil, err
				}
				return nil, fmt.Errorf("%w: %v", ErrUsage, err)
			}
			rest = fs.Args() // a suffix of args
			if consumed := args[len(args)-before : len(args)-len(rest)]; consumed[len(consumed)-1] == "--" {
				return append(files, rest...), nil
			}
		}
	}
	return files, nil
}

// first returns args[0], or "" when there is none.
func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// isSet reports whether the flag name was given, on the command line or
// through its environment variable (parseFlags sets both).
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
