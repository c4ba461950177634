package repair

// syntax counts one kind of tolerated defect in the JSON text.
type syntax uint8

const (
	synTrailingComma syntax = iota
	synMissingComma
	synSingleQuotes
	synUnquotedKeys
	synComments
	synInvalidEscape
	synControlChar
	synNumberSyntax
	synThousands
	numSyntax
)

// syntaxFix names the Fix recorded for each kind of defect, and syntaxNoun
// describes one occurrence, for the Fix detail.
var (
	syntaxFix = [numSyntax]string{
		synTrailingComma: FixTrailingComma,
		synMissingComma:  FixMissingComma,
		synSingleQuotes:  FixSingleQuotes,
		synUnquotedKeys:  FixUnquotedKeys,
		synComments:      FixComments,
		synInvalidEscape: FixInvalidEscape,
		synControlChar:   FixControlChar,
		synNumberSyntax:  FixNumberSyntax,
		synThousands:     FixThousandsSeparator,
	}
	syntaxNoun = [numSyntax]string{
		synTrailingComma: "trailing comma(s) ignored",
		synMissingComma:  "missing comma(s) assumed between elements",
		synSingleQuotes:  "single-quoted string(s) read",
		synUnquotedKeys:  "unquoted key(s) read",
		synComments:      "comment(s) ignored",
		synInvalidEscape: "unknown escape(s) kept as written",
		synControlChar:   "raw control character(s) in strings kept",
		synNumberSyntax:  "non-JSON number literal(s) read",
		synThousands:     "number(s) with thousands separators read",
	}
)
