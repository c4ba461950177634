// Package sandboxtest holds programs for testing code grading: our own
// solutions to the committed LiveCodeBench sample, and a program that
// computes nothing and tries every known way to pass anyway or to escape.
package sandboxtest
