package repair

import "strings"

// shape is what a complete JSON value is, as a plan.
type shape uint8

const (
	shapeNone   shape = iota // not a plan
	shapeEmpty               // [] — a plan only when nothing else is
	shapeBare                // [{step}, …]: an array of step objects
	shapePlan                // {"plan": [...]}
	shapeNested              // {"wrapper": {"plan": [...]}}
)

// candidate is a complete JSON value of the answer text that is a plan.
type candidate struct {
	start, end int   // byte span in the text searched
	shape      shape //
	arr        int32 // the array of steps
	holder     int32 // the object with the plan key (shapePlan, shapeNested), else −1
	planKey    int32 // the key node of the plan member, else −1
	path       string
	syn        [numSyntax]int32 // defects tolerated while parsing it
}

// found is the outcome of a search.
type found struct {
	best     candidate // the last plan (shapeBare, shapePlan, shapeNested)
	fallback candidate // the last empty array
	plans    int       // how many plans (not counting empty arrays)
	empties  int       // how many empty arrays
	values   int       // how many complete JSON values in all
	cut      bool      // a value was cut off by the end of the text
	gaveUp   bool      // the work bound stopped the search
}

// workBound is the search budget for a text of n bytes: 16·n + 1 MiB bytes
// read over all parse attempts. An ordinary answer reads about n; only
// adversarial inputs (long runs of unclosed brackets) come near the bound.
func workBound(n int) int { return 16*n + 1<<20 }

// search finds the plan candidates of p.s, left to right: at each '{' or
// '[' it parses one value; a complete value is classified and the search
// resumes after it (values nested in it are never candidates on their own);
// a failed attempt resumes one byte further. Real work is bounded by budget
// bytes read over all attempts (Repair gives workBound); past it the search
// stops with what it found.
func (p *parser) search(budget int) found {
	s := p.s
	var f found
	for pos := 0; pos < len(s); {
		j := strings.IndexAny(s[pos:], "{[")
		if j < 0 {
			break
		}
		i := pos + j
		if budget <= 0 {
			f.gaveUp = true
			break
		}
		mark := len(p.nodes)
		root := p.parse(i)
		budget -= p.pos - i + 1
		if root < 0 {
			f.cut = f.cut || p.eof
			pos = i + 1
			continue
		}
		f.values++
		c := p.classify(root)
		c.start, c.end, c.syn = i, p.pos, p.syn
		switch c.shape {
		case shapeNone:
			p.nodes = p.nodes[:mark]
		case shapeEmpty:
			f.fallback = c
			f.empties++
		default:
			f.best = c
			f.plans++
		}
		pos = p.pos
	}
	return f
}
