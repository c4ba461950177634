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
	skill       int // per mille: P(correct) = skill + 500 − difficulty, clamped
	baseTokens  int // tokens for a problem of difficulty 600 and no text
	perWord     int // tokens per word of the problem text
	capTokens   int // output limit: hitting it truncates (finish "length")
	msPer10Tok  int // latency per 10 tokens
	timeoutRate int // per mille of calls that fail ("synthetic API timeout")
}

var solverModels = map[Solver]solverModel{
	{"synthetic-careful", "standard"}: {skill: 500, baseTokens: 700, perWord: 4, capTokens: 4096, msPer10Tok: 150, timeoutRate: 20},
	{"synthetic-careful", "extended"}: {skill: 680, baseTokens: 3000, perWord: 6, capTokens: 8192, msPer10Tok: 150, timeoutRate: 20},
	{"synthetic-hasty", "standard"}:   {skill: 320, baseTokens: 300, perWord: 2, capTokens: 4096, msPer10Tok: 80, timeoutRate: 20},
	{"synthetic-hasty", "extended"}:   {skill: 470, baseTokens: 1400, perWord: 3, capTokens: 8192, msPer10Tok: 80, timeoutRate: 20},
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
	skill := m.skill
	if strings.HasSuffix(p.Dataset, "-code") {
		codeFactor, skill = 13, skill-60
	}
	pCorrect := min(max(skill+500-p.difficulty, 20), 980)
	correct := !p.Unsolvable && r.intn(1000) < pCorrect

	cost := m.baseTokens * codeFactor / 10 * (400 + p.difficulty) / 1000
	cost += m.perWord * len(strings.Fields(p.Text))
	cost = cost * r.between(750, 1250) / 1000 // noise ±25 %
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
