package repair

// Fix is one entry of the repair log: a rule that fired and what it did.
type Fix struct {
	// Step is the rule's stable machine name, one of the Fix* constants.
	Step string `json:"step"`
	// Detail says what the rule changed, for a person, e.g.
	// `plan[3].tokens "1,200" → 1200`. Its wording is not stable.
	Detail string `json:"detail"`
}

// Fix step names. The comment of each says when it fires; doc.go gives the
// rules in full. Names are stable: stored repair logs refer to them.
const (
	// Text around the JSON value (SPEC §2 step 1).

	// FixStripThink: <think>…</think> or <thinking>…</thinking> reasoning
	// was removed (also an unterminated block, and everything before an
	// unmatched closing tag).
	FixStripThink = "strip_think"
	// FixStripFence: the plan was inside a Markdown code fence (``` or ~~~).
	FixStripFence = "strip_fence"
	// FixStripProse: text other than whitespace surrounded the plan.
	FixStripProse = "strip_prose"
	// FixMultipleCandidates: several JSON values were plans; the last won.
	FixMultipleCandidates = "multiple_candidates"

	// Defects in the JSON text (SPEC §2 step 2), one entry per kind, with a
	// count, for the chosen JSON value only.

	// FixTrailingComma: commas before a closing } or ] were ignored.
	FixTrailingComma = "trailing_comma"
	// FixMissingComma: a missing comma between two elements was assumed.
	FixMissingComma = "missing_comma"
	// FixSingleQuotes: strings were single-quoted.
	FixSingleQuotes = "single_quotes"
	// FixUnquotedKeys: object keys were bare identifiers.
	FixUnquotedKeys = "unquoted_keys"
	// FixComments: // or /* */ comments were ignored.
	FixComments = "comments"
	// FixInvalidEscape: a backslash escape JSON does not define was kept as
	// written (e.g. LaTeX "\frac" → `\frac`).
	FixInvalidEscape = "invalid_escape"
	// FixControlChar: a string held a raw control character (tab…).
	FixControlChar = "control_char"
	// FixNumberSyntax: a number was not strict JSON (+5, 007, .5, 5.).
	FixNumberSyntax = "number_syntax"
	// FixThousandsSeparator: an unquoted object value like 1,200 was read as
	// one number.
	FixThousandsSeparator = "thousands_separator"

	// The shape of the plan.

	// FixBareArray: the plan was a top-level array of steps, not
	// {"plan": [...]}.
	FixBareArray = "bare_array"
	// FixNestedPlan: the {"plan": [...]} object was inside a wrapper object,
	// e.g. {"response": {"plan": [...]}}.
	FixNestedPlan = "nested_plan"
	// FixKeySynonym: a key was read as "plan", "id" or "tokens" (other case,
	// or a documented synonym such as "allocation"). One entry per distinct
	// key as written.
	FixKeySynonym = "key_synonym"
	// FixDuplicateKey: an object repeated a key; the last value was used.
	FixDuplicateKey = "duplicate_key"
	// FixExtraFields: fields other than id and tokens (and plan) were
	// ignored. One entry for the whole plan, naming them.
	FixExtraFields = "extra_fields"
	// FixInvalidStep: a plan element was not an object, or had no usable id;
	// it was skipped.
	FixInvalidStep = "invalid_step"
	// FixInvalidTokens: a step had no allocation, or one that is not a
	// number; it was skipped.
	FixInvalidTokens = "invalid_tokens"

	// Values of one step.

	// FixNumberFromString: an allocation was a string such as "1,200",
	// "~500", "500 tokens" or "1.5k".
	FixNumberFromString = "number_from_string"
	// FixFloatTruncated: an allocation was written with a decimal point or
	// an exponent; it was truncated toward zero.
	FixFloatTruncated = "float_truncated"
	// FixNumberSaturated: an allocation was beyond the int64 range and was
	// clamped to it.
	FixNumberSaturated = "number_saturated"
	// FixIDFromNumber: an id was a JSON number; its literal text was used.
	FixIDFromNumber = "id_from_number"
	// FixIDCanonical: an id matched a pool id only through a canonical form
	// (case, whitespace, "#", "id:", "[…]", or a bare number for a
	// prefix-plus-number pool).
	FixIDCanonical = "id_canonical"

	// Normalization (SPEC §2 step 3), one entry per dropped step.

	// FixUnknownID: the id matched no pool id (or several); dropped.
	FixUnknownID = "unknown_id"
	// FixDuplicateID: the id repeated an earlier step's; dropped.
	FixDuplicateID = "duplicate_id"
	// FixNegativeToZero: a negative allocation became 0; dropped.
	FixNegativeToZero = "negative_to_zero"
	// FixZeroDropped: an allocation of 0; dropped (not attempted).
	FixZeroDropped = "zero_dropped"
)
