package orchestrator

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// member is one solver of a group's population (SPEC §4) with its
// gradeable records of the group's items, in pool order: what the group's
// partial-information references are computed from, and what their
// fingerprints cover.
type member struct {
	Model   string         `json:"model"`
	Mode    string         `json:"mode"`
	Records []memberRecord `json:"records"`
}

// memberRecord is one member's ground truth on one item of the group.
type memberRecord struct {
	ID      string `json:"id"`
	Cost    int64  `json:"cost"`
	Correct bool   `json:"correct"`
}

// populationOf returns the population of grp's solver on grp's items:
// every solver of the run whose model differs from it (leave-model-out),
// in config order, with its gradeable records of the items the group's
// solver keeps. truths holds every solver's ground truth by solver index,
// dataset and id. An unsolvable item's record says incorrect whatever it
// holds, as the group's own items do (poolItem).
func populationOf(grp *group, solvers []Solver, truths []map[string]map[string]*triagev1.GroundTruthRecord) []member {
	out := []member{}
	for j, s := range solvers {
		if s.Model == grp.solver.Model {
			continue
		}
		m := member{Model: s.Model, Mode: s.Mode, Records: []memberRecord{}}
		for _, it := range grp.items {
			p := grp.texts[it.GetId()]
			if rec, ok := truths[j][p.Dataset][p.ID]; ok && rec.GetGradeable() {
				item := poolItem(p, rec)
				m.Records = append(m.Records, memberRecord{ID: item.GetId(), Cost: item.GetCost(), Correct: item.GetCorrect()})
			}
		}
		out = append(out, m)
	}
	return out
}

// populationProto is the group's population as the Oracle takes it: the
// records of each item that has any, items in pool order, records in member
// order. It is never nil: an empty population is still a population (the
// Oracle then answers no_population).
func (g *group) populationProto() *triagev1.Population {
	byID := make(map[string][]*triagev1.PopulationRecord, len(g.items))
	for _, m := range g.population {
		for _, r := range m.Records {
			byID[r.ID] = append(byID[r.ID], &triagev1.PopulationRecord{Cost: r.Cost, Correct: r.Correct})
		}
	}
	pop := &triagev1.Population{}
	for _, it := range g.items {
		if recs := byID[it.GetId()]; len(recs) > 0 {
			pop.Items = append(pop.Items, &triagev1.PopulationItem{Id: it.GetId(), Records: recs})
		}
	}
	return pop
}
