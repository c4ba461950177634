package repair

import "strconv"

// run is the state of one Repair call.
type run struct {
	m     *Matcher
	p     *parser
	fixes []Fix
	// Details built with line are appended to buf; spans[i] locates fixes[i]'s
	// detail there (start −1 when the detail was given as a string), and log
	// fills them in from one string, so the log costs one allocation.
	buf      []byte
	spans    []span
	elems    int     // elements in the plan array, to size the log
	extra    nameSet // ignored fields
	synonyms nameSet // keys read as a schema key
}

// span is a detail's byte range in run.buf.
type span struct{ start, end int }

// fix records a rule that fired.
func (r *run) fix(step, detail string) {
	r.grow()
	r.fixes = append(r.fixes, Fix{Step: step, Detail: detail})
	r.spans = append(r.spans, span{-1, -1})
}

// line returns a detail builder that appends to the run's buffer; pass the
// result to fixLine before starting another.
func (r *run) line() line {
	if r.buf == nil {
		r.buf = make([]byte, 0, 256+48*min(r.elems, maxPresize))
	}
	return r.buf
}

// fixLine records a rule that fired, with a detail built from r.line().
func (r *run) fixLine(step string, l line) {
	r.grow()
	r.fixes = append(r.fixes, Fix{Step: step})
	r.spans = append(r.spans, span{len(r.buf), len(l)})
	r.buf = l
}

// maxPresize bounds the steps the log is sized for in advance.
const maxPresize = 256

// grow sizes the log on its first entry, for about one fix per step.
func (r *run) grow() {
	if r.fixes == nil {
		n := 8 + min(r.elems, maxPresize)
		r.fixes = make([]Fix, 0, n)
		r.spans = make([]span, 0, n)
	}
}

// log returns the repair log, with every detail filled in.
func (r *run) log() []Fix {
	if len(r.buf) > 0 {
		all := string(r.buf)
		for i, sp := range r.spans {
			if sp.start >= 0 {
				r.fixes[i].Detail = all[sp.start:sp.end]
			}
		}
	}
	return r.fixes
}

// unparseable returns the Unparseable result.
func (r *run) unparseable(why string) Result {
	return Result{Status: Unparseable, Fixes: r.log(), Error: why}
}

// text records the text-level repairs around the chosen candidate.
func (r *run) text(t string, c candidate, f found) {
	fence, before, after := surroundings(t, c.start, c.end)
	if fence {
		r.fix(FixStripFence, "removed a Markdown code fence")
	}
	switch {
	case before > 0 && after > 0:
		r.fix(FixStripProse, "removed "+plural(before, "byte")+" of text before the plan and "+strconv.Itoa(after)+" after it")
	case before > 0:
		r.fix(FixStripProse, "removed "+plural(before, "byte")+" of text before the plan")
	case after > 0:
		r.fix(FixStripProse, "removed "+plural(after, "byte")+" of text after the plan")
	}
	if n := f.plans; n > 1 {
		r.fix(FixMultipleCandidates, strconv.Itoa(n)+" JSON values are plans; the last one (at byte "+strconv.Itoa(c.start)+") is used")
	} else if n == 0 && f.empties > 1 {
		r.fix(FixMultipleCandidates, strconv.Itoa(f.empties)+" empty arrays; the last one is used")
	}
}

// syntax records the JSON defects tolerated in the chosen candidate.
func (r *run) syntax(c candidate) {
	for k, n := range c.syn {
		if n > 0 {
			r.fix(syntaxFix[k], strconv.Itoa(int(n))+" "+syntaxNoun[k])
		}
	}
}

// shape records how the plan array was found, and the plan object's other
// members.
func (r *run) shape(c candidate) {
	p := r.p
	switch c.shape {
	case shapeBare, shapeEmpty:
		r.fix(FixBareArray, `top-level array read as {"plan": [...]}`)
		return
	case shapeNested:
		r.fixLine(FixNestedPlan, r.line().s("plan found at ").q(c.path))
	}
	for k := p.nodes[c.holder].first; k >= 0; k = p.nodes[p.nodes[k].next].next {
		name := p.text(p.nodes[k])
		switch {
		case k == c.planKey:
			if name != planKeys[0] {
				r.synonyms.add(name)
			}
		case keyIs(name, planKeys[0]):
			r.fix(FixDuplicateKey, `key "plan" repeated; the last value is used`)
		default:
			r.extra.add(name)
		}
	}
}

// names records the key synonyms and the ignored fields.
func (r *run) names() {
	for _, name := range r.synonyms.names {
		r.fixLine(FixKeySynonym, r.line().s("key ").q(name).s(" read as a schema key"))
	}
	if r.synonyms.more {
		r.fix(FixKeySynonym, "more keys read as schema keys")
	}
	if len(r.extra.names) > 0 {
		l := r.line().s("ignored fields ")
		for i, name := range r.extra.names {
			if i > 0 {
				l = l.s(", ")
			}
			l = l.q(name)
		}
		if r.extra.more {
			l = l.s(", …")
		}
		r.fixLine(FixExtraFields, l)
	}
}

// nameSet collects distinct names in first-seen order, at most maxNames.
type nameSet struct {
	names []string
	more  bool
}

// maxNames bounds a nameSet.
const maxNames = 16

func (s *nameSet) add(name string) {
	for _, n := range s.names {
		if n == name {
			return
		}
	}
	if len(s.names) == maxNames {
		s.more = true
		return
	}
	s.names = append(s.names, name)
}

// plural formats n with a noun, adding "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
