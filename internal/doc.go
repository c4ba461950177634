// Package internal holds the implementation of TRIAGE, grouped by part.
// From the bottom up: protocol (the paper's mathematics), platform (serving
// and errors), store (ground truth, runs and data formats), llm (the model
// gateway), planning (prompts and plan repair), phase0 (importers, graders,
// the sandbox, solving), runs (experiments and reports) and cli (the
// commands). Each group imports only the groups its doc.go names, never one
// above it; services/ sits beside runs, and layers_test.go checks all of it.
// Beside them, testkit holds what the tests of every group share (golden
// files, fake models, leak checks, named steps): only test files import it.
package internal
