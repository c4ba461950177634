package orchestrator

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// planOutcomes counts, among the plans this process's planner calls
// returned, those the run could not score as the model meant them: plans
// with no JSON plan in them (unparseable, SPEC §2: excluded from every
// mean; truncated counts those cut off at the token limit) and plans whose
// every step normalization dropped (unknown or repeated ids, SPEC §2:
// scored as the empty plan). Without a word, a run whose model answered
// only prose or only unknown ids said "run complete, 0 planner errors".
type planOutcomes struct {
	answered, unparseable, truncated, emptied atomic.Int64
}

// warning says how many plans were unparseable or emptied, of how many
// answered; "" when none was.
func (p *planOutcomes) warning() string {
	var parts []string
	if n := p.unparseable.Load(); n > 0 {
		s := fmt.Sprintf("%d unparseable (no JSON plan in the answer", n)
		if t := p.truncated.Load(); t > 0 {
			s += fmt.Sprintf("; %d of them cut off at the token limit", t)
		}
		parts = append(parts, s+"), left out of every mean")
	}
	if n := p.emptied.Load(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d with every step dropped by normalization (unknown or repeated ids), scored as empty plans", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("of the %d plans the model answered this run, %s; the report's excluded column counts the first, each stored cell keeps the raw answer and its repair log", p.answered.Load(), strings.Join(parts, ", and "))
}

// PlanWarning says, after Run, how many of this process's plans were
// unparseable or had every step dropped; "" when none was.
func (r *Runner) PlanWarning() string { return r.plans.warning() }

// noneScored is the error of a process of which every plan the model
// answered was unparseable, when no cell was stored before it
// (storedBefore, the cells it found fresh): the llm strategy measured
// nothing, as a baseline none of whose answers is gradeable and none stored
// before; nil otherwise. A process that only retried some cells of a run
// measured before fails nothing by this rule, whatever it answered.
func (p *planOutcomes) noneScored(storedBefore int64) error {
	n := p.answered.Load()
	if n == 0 || p.unparseable.Load() < n || storedBefore > 0 {
		return nil
	}
	cut := ""
	if t := p.truncated.Load(); t > 0 {
		cut = fmt.Sprintf("; %d of them cut off at the token limit", t)
	}
	return fmt.Errorf("none of the %d plans the model answered this run could be scored: every one was unparseable (no JSON plan in the answer%s)", n, cut)
}

// PlanFailure is, after Run, the error of a run of which every plan the
// model answered was unparseable and no cell was stored before it
// (storedBefore, the cells it found fresh); nil otherwise.
func (r *Runner) PlanFailure(storedBefore int64) error { return r.plans.noneScored(storedBefore) }
