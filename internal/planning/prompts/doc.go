// Package prompts renders the planner prompt and the budget-aware banner
// from versioned template files embedded in the binary (SPEC §6).
//
// The planner prompt is an opening paragraph followed by a fixed body: the
// rules, the problems, the JSON schema and the ordering instruction. The
// default opening is the paper's appendix "Planner Prompt", reproduced word
// for word (with unit values the rendered prompt is the paper's text, see
// testdata/planner_default.golden); the variants A (neutral), B (autonomous
// agent) and C (timed exam) of the prompt-sensitivity ablation replace only
// the opening paragraph. LaTeX "---" in the paper's variants is the em dash
// "—" it typesets.
//
// Placeholders are {name} tokens replaced verbatim: {n} (number of
// problems), {B_local} and {B} (the budget in tokens), {domain} (a
// per-dataset label such as "competition math problems"), {problems} (the
// problem block) and {points_rule}. Each problem is rendered as
// "[id: <id>] (points: <v>)" followed by its text on the next line, problems
// separated by a blank line; the id is the planner id p1 … pn (package
// plannerids), never the dataset's id (SPEC §1). {points_rule} is the paper's "Each problem is
// worth 1 point." when every value is 1; with other values it reads "Each
// problem is worth the points shown next to it." so the prompt never
// misstates the scoring.
//
// Every template has a name and the SHA-256 of its file contents; a stored
// plan records both, so a later change to a template is visible.
package prompts
