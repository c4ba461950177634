// Package problems reads the canonical problem file: JSON Lines, one
// Problem per line, UTF-8, blank lines ignored.
//
// A line is one JSON object with these keys (no others; each at most once;
// null is never accepted):
//
//	id          string, required, 1–256 bytes, unique within its dataset
//	dataset     string, required, 1–128 bytes (the store's limit)
//	text        string, required, not blank: what the planner and solver see
//	value       number, optional, finite, 0 ≤ value ≤ 1e12; absent or 0 means 1
//	grading     object, optional, opaque: what graders need, never shown to a planner
//	unsolvable  boolean, optional: an injected unsolvable variant (SPEC §5)
//
// Strings must not contain NUL characters, and the line must be valid UTF-8.
// The pair (dataset, id) is unique across the file. Example:
//
//	{"id":"2024-I-3","dataset":"aime","text":"Find the number of ...","grading":{"answer":"204"}}
//
// Read reports every problem it finds, one per line of the error, as
// "file:line: field: reason" (or "file:line: reason" when the whole line is
// at fault), up to MaxIssues; then it stops reading. What Read returns is
// canonical: Value is 1 where the file left it absent or 0, and Grading is
// compact JSON exactly as json.Marshal writes it, so a returned Problem
// written back with json.Marshal reads back identical.
package problems
