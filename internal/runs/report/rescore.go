package report

import (
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// rescore recomputes an included record's scores from its V_M, V_oracle
// and V_random with planscore.Score, as the grid cell that stored it did:
// the report never trusts the stored η and R̃.
func rescore(r ScoreRecord) metrics.PoolScore {
	res, _ := planscore.Score(planscore.Input{ // without items it cannot fail
		Oracle: r.Oracle, Random: r.Random,
		Values: []planscore.RegimeValue{{Regime: vocab.Regime(r.Regime), Value: r.Value}},
	})
	return res.Regimes[0].PoolScore
}
