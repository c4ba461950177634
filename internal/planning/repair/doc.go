// Package repair turns a planner's raw output into a plan (SPEC §2, the
// paper's "Plan parsing and repair"): it finds the JSON plan in the text,
// tolerates common defects, resolves the ids against the pool, and
// normalizes the steps, logging every rule that fired. It knows only the
// pool's ids (and, optionally, the budget), never costs or correctness, and
// it is deterministic: the same text and ids give the same Result.
//
//	res := repair.Repair(raw, poolIDs, &budget)
//	switch res.Status {
//	case repair.Unparseable: // exclude the plan (res.Error says why)
//	default:                 // res.Plan, res.Fixes (the repair log)
//	}
//
// # Status
//
//   - OK: the output is exactly a strict JSON {"plan": [...]} (whitespace
//     around it allowed), every element an object with "id" and "tokens",
//     every id a pool id written exactly, every allocation a positive JSON
//     integer, no id repeated. Fixes is empty; fields other than id and
//     tokens would be an extra_fields repair.
//   - Repaired: a plan was found and at least one rule below fired; each is
//     a Fix. Normalization drops (unknown or repeated ids, allocations ≤ 0)
//     are repairs too, so the log is complete.
//   - Unparseable: no JSON plan could be found (SPEC §2 step 4). The plan is
//     excluded from scoring, not scored as empty; Error says why. A
//     well-formed empty plan ({"plan": []}, or a bare []) is not
//     unparseable: it is a valid plan that attempts nothing.
//
// # Step 1: finding the JSON value
//
// Rules are applied in this order; the Fix name is in brackets.
//
//   - Reasoning blocks [strip_think]: <think>…</think> and
//     <thinking>…</thinking> are removed (tags in any case; either closing
//     tag ends either opening tag). An opening tag that is never closed
//     removes everything after it (the model ran out of tokens while
//     thinking: usually Unparseable). A closing tag with no opening tag
//     removes everything before it (templates that put <think> in the
//     prompt, as DeepSeek-R1's does). A plan that only appears inside
//     reasoning is not used.
//   - Candidates: every '{' or '[' of the remaining text starts an attempt to
//     parse one JSON value with the tolerant parser (step 2). A complete
//     value is a candidate and the search resumes after it (values nested in
//     it are not candidates); a failed attempt resumes at the next byte.
//     A candidate is a plan when it is
//     an object with a "plan" key whose value is an array (the key read as
//     in step 2; if "plan" is repeated, the last); an object without a
//     "plan" key whose member object, at most two wrappers deep, is such a
//     plan, like {"response": {"plan": [...]}} [nested_plan; the last such
//     member wins]; or a non-empty array whose elements are all objects, at
//     least one with an id key [bare_array]. An object whose "plan" is not
//     an array is not a plan.
//   - The last plan in the text wins [multiple_candidates when there were
//     several]: reasoning models draft, and a final answer follows its
//     drafts; an example in prose before the answer loses too. An empty
//     array [] is a plan (empty, bare_array) only when there is no other
//     plan, so a stray "[]" in an explanation never overrides a real plan.
//   - Code fences [strip_fence]: the plan is in a Markdown fence when the
//     line before it opens one (``` or ~~~, optionally with a language such
//     as json); the closing fence line after it, if any, is removed too.
//   - Prose [strip_prose]: any other text before or after the plan (other
//     JSON values included), apart from whitespace.
//   - Truncated output: a plan cut off by the end of the output (a
//     finish_reason of length) is not recovered: the output is Unparseable
//     ("cut off … (truncated?)"), since the model's plan is unknown beyond
//     the cut. Two consequences of "the last complete plan wins": a complete
//     earlier plan (a draft) is used when a later one is cut off; and a
//     {"plan": [...]} missing only its final '}' is read through its
//     complete steps array (bare_array, strip_prose).
//   - Output longer than MaxInput is Unparseable. The search reads each byte
//     about once for ordinary answers; a hard bound of 16·len + 1 MiB bytes
//     over all attempts stops adversarial inputs, keeping what was found.
//
// # Step 2: tolerated defects
//
// The parser accepts strict JSON and these defects, each recorded once per
// kind with a count (only for the chosen value): trailing commas before }
// or ] [trailing_comma]; a missing comma between two elements or members
// [missing_comma]; single-quoted strings, in which \' is a quote
// [single_quotes]; bare identifier keys such as {id: "p1"} [unquoted_keys];
// // and /* */ comments [comments]; escapes JSON does not define, kept as
// written ("\frac" stays \frac) [invalid_escape]; raw control characters
// other than line breaks inside strings [control_char]; numbers with a
// leading +, leading zeros, or no digits on one side of the point (+5, 007,
// .5, 5.) [number_syntax]; and, as an object value, an integer with
// thousands separators such as 1,200 or 12,000,000 (unambiguous there,
// since a key never starts with a digit) [thousands_separator]. A raw line
// break inside a string ends the attempt: JSON never has one there, and it
// keeps prose apostrophes from opening long strings. Nesting deeper than 16
// levels is not parsed. Literals are true, false and null only.
//
// Keys are read without regard to ASCII case or surrounding whitespace, with
// '-' or ' ' read as '_'. The plan key is "plan". A step's id is read from
// "id", else from the synonyms problem_id, problemid, item_id, problem (in
// that order of preference); its allocation from "tokens", else from
// allocation, allocated_tokens, tokens_allocated, token_allocation,
// token_budget, budget, max_tokens. A key that is read as one of these but
// not written exactly so ("Tokens", "allocation", "Plan") is logged
// [key_synonym, one per distinct key as written]. A key repeated in one
// object keeps its last value, as encoding/json does [duplicate_key].
// Every other key, in the plan object or a step, is ignored [extra_fields,
// one Fix for the whole plan naming them; shadowed synonyms count too].
//
// Each plan element becomes a step:
//
//   - An element that is not an object, or has no id, or whose id is not a
//     string or a number, is skipped [invalid_step]. One with an id but no
//     allocation, or an allocation that is neither a number nor a string in
//     the grammar below, is skipped [invalid_tokens]. Skipped elements are
//     not steps: they take no part in "first occurrence" and are not in
//     Result.Dropped.
//   - An id written as a JSON number is its literal text (3 → "3", 007 →
//     "007") [id_from_number], then resolved like a string.
//   - An allocation written as a string [number_from_string] is read in the
//     grammar: optional approximation (~, ≈, ≤, <=, <, about, approx.,
//     approx, approximately, around, roughly, up to, at most), optional
//     sign, digits (optionally grouped in threes by ',' or '_', the first
//     group of one to three digits), optional fraction, optional k or K
//     (×1000), optional unit (tokens, token, toks, tok), spaces allowed
//     between the parts, matched without regard to case. So "1,200",
//     "~500", "500 tokens", "1.5k" and "≈ 2K tokens" are 1200, 500, 500,
//     1500 and 2000; "500-800", "lots", "1,20" and "5e3" are not numbers.
//   - An allocation written with a decimal point or an exponent, as a
//     number or in a string, is truncated toward zero after scaling
//     (800.9 → 800, 1e3 → 1000, "1.5k" → 1500) [float_truncated]. The
//     conversion is exact decimal arithmetic, never float64. A value beyond
//     the int64 range is clamped to it [number_saturated].
//
// # Canonical id forms
//
// A written id is matched against the pool ids exactly first. If none
// matches exactly, it is matched by canonical form [id_canonical]: the form
// of a string is the string with surrounding whitespace removed, then one
// pair of enclosing brackets "[…]" removed (the prompt shows "[id: p3]"),
// then a leading "id:" or "id=" (any case) removed, then a leading "#"
// removed, trimming whitespace after each step, then lower-cased; two ids
// match when their forms are equal. So "P3", " p3 ", "#p3", "id: p3" and
// "[id: P3]" all match pool id "p3". When every pool id's form is one
// common prefix followed by digits (p1…p30, q001…q030, aime-2024-01…, or
// plain numbers), a written id whose form is that prefix plus digits, or
// digits alone, also matches the pool id with the same number, leading
// zeros ignored: 3, "3", "03", "p03" and "P3" all match "p3"; "q3" does not.
// There is no positional reading (3 never means "the third problem" of a
// pool whose ids are not numbered). A form that two or more pool ids share
// matches none of them: the id is unknown ("matches several pool ids").
// Matched steps carry the pool id as given to the Matcher.
//
// # Step 3: normalization
//
// The resolved steps go through execution.NormalizeIDs, the same rules as
// execution.Normalize, in this order, the first that applies dropping the
// step, one Fix each: an id matching no pool id [unknown_id]; an id whose
// pool item appeared in an earlier step [duplicate_id] — the first
// occurrence wins even when it is itself dropped for its allocation, and
// two spellings of one id ("p3", "P3") are the same item; a negative
// allocation, which becomes 0 and is dropped [negative_to_zero]; an
// allocation of 0, not attempted [zero_dropped]. Result.Dropped lists these
// drops with their positions in the JSON plan array and the ids as
// written. Result.PlannedTokens is Σ a over the kept steps (saturating), and
// Result.OverBudget compares it with the budget when one is given: an
// over-budget plan is still a plan (SPEC §1).
//
// # Idempotence
//
// Render gives the canonical JSON of a plan, {"plan":[{"id":"p3","tokens":800}]}.
// Repairing Render(res.Plan) against the same pool gives Status OK, no
// Fixes and the same plan, for every result that is not Unparseable.
//
// # Performance and concurrency
//
// Repair is about linear in the length of the output: reasoning tags are
// found with one scan, and a typical answer is parsed once. Parse arenas are
// recycled. A Matcher is safe for concurrent use; its canonical-form tables
// are built once, when an id first fails to match exactly. Repair builds a
// Matcher per call, so callers repairing many outputs for one pool should
// build it once with NewMatcher.
package repair
