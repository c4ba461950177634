package demo

import "testing"

// TestSyntheticStructure checks the shape the invented solvers are meant to
// have: extended mode costs more and solves more than standard mode, and
// cost grows with difficulty.
func TestSyntheticStructure(t *testing.T) {
	ps := genProblems()
	type stats struct{ correct, cost, easyCost, hardCost, easy, hard int }
	by := map[Solver]*stats{}
	for _, rec := range genTruth(ps) {
		s := Solver{rec.Model, rec.Mode}
		if by[s] == nil {
			by[s] = &stats{}
		}
		st := by[s]
		if rec.Correct {
			st.correct++
		}
		st.cost += int(rec.Cost)
	}
	for _, s := range Solvers() {
		for _, p := range ps {
			if p.Unsolvable {
				continue
			}
			rec := genRecord(s, solverModels[s], p)
			if !rec.Gradeable {
				continue
			}
			switch st := by[s]; {
			case p.difficulty < 350:
				st.easy++
				st.easyCost += int(rec.Cost)
			case p.difficulty > 650:
				st.hard++
				st.hardCost += int(rec.Cost)
			}
		}
	}
	for _, model := range []string{"synthetic-careful", "synthetic-hasty"} {
		std, ext := by[Solver{model, "standard"}], by[Solver{model, "extended"}]
		if ext.correct <= std.correct || ext.cost <= std.cost {
			t.Errorf("%s: extended %d correct / %d tokens, standard %d / %d", model, ext.correct, ext.cost, std.correct, std.cost)
		}
	}
	for s, st := range by {
		if st.easy == 0 || st.hard == 0 || st.easyCost/st.easy >= st.hardCost/st.hard {
			t.Errorf("%v: mean cost easy %d×%d, hard %d×%d", s, st.easy, st.easyCost, st.hard, st.hardCost)
		}
	}
}
