// Package store groups persistence and data formats: the ground-truth store
// and the run store (SQLite, PostgreSQL), the canonical problem file, the
// ground-truth JSONL format and SQLite locations. It may import platform,
// protocol and gen.
package store
