// Package cli implements the triage command: it parses the subcommand and
// its flags (each flag also settable through a TRIAGE_* environment variable)
// and runs it. Main only wires the process to Run.
package cli
