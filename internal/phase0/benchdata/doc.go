// Package benchdata locates the real benchmark records committed under the
// module's testdata/benchmarks folder (AIME, MMLU math, a LiveCodeBench
// sample), for tests and benchmarks. The folder's README names each file's
// source repository, commit, licence and SHA-256; tests check the files
// against it.
package benchdata
