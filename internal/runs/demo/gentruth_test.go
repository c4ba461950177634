package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// measuredAt is the fixed measurement time of every synthetic record.
var measuredAt = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// gtRecord mirrors the ground-truth line format (gtLine in internal/cli),
// every key written.
type gtRecord struct {
	Model          string    `json:"model"`
	Mode           string    `json:"mode"`
	Dataset        string    `json:"dataset"`
	ProblemID      string    `json:"problem_id"`
	Cost           int64     `json:"cost"`
	Correct        bool      `json:"correct"`
	Gradeable      bool      `json:"gradeable"`
	FinishReason   string    `json:"finish_reason"`
	LatencyMS      float64   `json:"latency_ms"`
	ResponseSHA256 string    `json:"response_sha256"`
	Error          string    `json:"error"`
	MeasuredAt     time.Time `json:"measured_at"`
	LuckyGuess     bool      `json:"lucky_guess"`
}

// solverModel holds an invented solver's parameters, all integers so that
// the sample is bit-identical everywhere.
type solverModel struct {
	ability     int // difficulty at which P(correct) is one half (per mille)
	slope       int // per mille of P(correct) lost per 100 of difficulty above ability
	slips       int // per mille of problems the solver gets wrong, whatever they are: its own blind spots
	slipCost    int // tenths: cost multiplier on a slip (it goes round in circles)
	costNoise   int // per mille: half-width of the uniform cost noise
	baseTokens  int // tokens for a problem of difficulty 600 and no text
	perWord     int // tokens per word of the problem text
	capTokens   int // output limit: hitting it truncates (finish "length")
	msPer10Tok  int // latency per 10 tokens
	timeoutRate int // per mille of calls that fail ("synthetic API timeout")
}

// solverModels are built so that the partial-information references of
// SPEC §4 separate (separation_test.go checks that they do).
// synthetic-careful is right exactly on the problems easy enough for its
// mode (genproblems_test.go: difficulty, hardness, trick questions, the
// same for every solver), so what the other model's record says about a
// problem predicts it: its population reference comes close to
// self_feasibility. synthetic-hasty has the same abilities, but each of its
// modes also slips on problems of its own (15% in standard mode, 10% in
// extended mode, never the same problem in both, so that between them its
// two modes still show which problems can be solved) and spends three times
// the tokens there. No other model's record shows these slips: only a
// planner that knows itself avoids them — self_feasibility, which knows
// its y, or self_cost, which sees the extra tokens.
var solverModels = map[Solver]solverModel{
	{"synthetic-careful", "standard"}: {ability: 870, slope: 500, costNoise: 100, baseTokens: 700, perWord: 4, capTokens: 4096, msPer10Tok: 150, timeoutRate: 20},
	{"synthetic-careful", "extended"}: {ability: 930, slope: 500, costNoise: 100, baseTokens: 3000, perWord: 6, capTokens: 8192, msPer10Tok: 150, timeoutRate: 20},
	{"synthetic-hasty", "standard"}:   {ability: 870, slope: 500, slips: 150, slipCost: 30, costNoise: 250, baseTokens: 300, perWord: 2, capTokens: 4096, msPer10Tok: 80, timeoutRate: 20},
	{"synthetic-hasty", "extended"}:   {ability: 930, slope: 500, slips: 100, slipCost: 30, costNoise: 250, baseTokens: 1400, perWord: 3, capTokens: 8192, msPer10Tok: 80, timeoutRate: 20},
}

// genTruth returns one record per (solver, problem), solvers outermost.
func genTruth(ps []synthProblem) []gtRecord {
	var out []gtRecord
	for _, s := range Solvers() {
		for _, p := range ps {
			out = append(out, genRecord(s, solverModels[s], p))
		}
	}
	return out
}

func genRecord(s Solver, m solverModel, p synthProblem) gtRecord {
	r := newRNG("truth", s.Model, s.Mode, p.Dataset, p.ID)
	rec := gtRecord{Model: s.Model, Mode: s.Mode, Dataset: p.Dataset, ProblemID: p.ID, MeasuredAt: measuredAt}
	if r.intn(1000) < m.timeoutRate {
		rec.Error, rec.LatencyMS = "synthetic API timeout", 60000
		return rec
	}
	extended := s.Mode == "extended"
	codeFactor := 10 // tenths: code answers are longer and a little harder
	ability := m.ability
	if strings.HasSuffix(p.Dataset, "-code") {
		codeFactor, ability = 13, ability-60
	}
	pCorrect := min(max(500+(ability-p.difficulty)*m.slope/100, 20), 980)
	slipped := slips(s, m, p)
	correct := !p.Unsolvable && !p.trick && !slipped && p.hardness < pCorrect

	cost := m.baseTokens * codeFactor / 10 * (400 + p.difficulty) / 1000
	cost += m.perWord * len(strings.Fields(p.Text))
	cost = cost * r.between(1000-m.costNoise, 1000+m.costNoise) / 1000
	if slipped {
		cost = cost * m.slipCost / 10
	}
	switch {
	case p.Unsolvable && extended:
		cost *= 2 // thinks in circles
	case p.Unsolvable || (!correct && extended):
		cost = cost * 3 / 2
	}
	rec.FinishReason = "stop"
	if cost >= m.capTokens {
		cost, correct, rec.FinishReason = m.capTokens, false, "length"
	}
	rec.Cost = int64(max(cost, 20))
	rec.Correct = correct
	rec.Gradeable = true
	rec.LatencyMS = float64(300 + int(rec.Cost)*m.msPer10Tok/10)
	sum := sha256.Sum256(fmt.Appendf(nil, "[synthetic response] %s/%s %s %s", s.Model, s.Mode, p.Dataset, p.ID))
	rec.ResponseSHA256 = hex.EncodeToString(sum[:])
	if p.Unsolvable && rec.FinishReason == "stop" && r.intn(1000) < 100 {
		rec.LuckyGuess = true // a guess the grader accepted; never correct
	}
	return rec
}

// slips reports whether the solver slips on p. One draw per (model,
// problem) serves both modes: standard slips at its low end, extended at its
// high end, so the two modes of a model never slip on the same problem.
func slips(s Solver, m solverModel, p synthProblem) bool {
	if m.slips == 0 {
		return false
	}
	u := newRNG("slip", s.Model, p.Dataset, p.ID).intn(1000)
	if s.Mode == "extended" {
		return u >= 1000-m.slips
	}
	return u < m.slips
}
