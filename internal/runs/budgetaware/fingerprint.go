package budgetaware

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/store/problems"
)

// fingerprintVersion names the scheme; a new one makes every stored
// re-solve stale.
const fingerprintVersion = "triage/budget-aware/v1"

// inputs is everything one re-solve depends on (SPEC §5 freshness): the
// plan that picked the problem and its allocation, what the solver is shown
// and graded against, the banner and solver templates, and the endpoint's
// answer-changing settings (llm.Endpoint.SettingsSHA256).
type inputs struct {
	Version         string `json:"version"`
	PlanFingerprint string `json:"plan"`
	Tokens          int64  `json:"tokens"`
	Text            string `json:"text_sha256"`
	Grading         string `json:"grading_sha256"`
	Unsolvable      bool   `json:"unsolvable,omitempty"`
	Banner          string `json:"banner"`
	Solver          string `json:"solver_template"`
	Endpoint        string `json:"endpoint_settings_sha256"`
}

// fingerprint returns the hex SHA-256 of a re-solve's inputs.
func fingerprint(it Item, p problems.Problem, ep llm.Endpoint) string {
	in := inputs{
		Version: fingerprintVersion, PlanFingerprint: it.PlanFingerprint, Tokens: it.Tokens,
		Text: sum([]byte(p.Text)), Grading: sum(p.Grading), Unsolvable: p.Unsolvable,
		Endpoint: ep.SettingsSHA256(),
	}
	if b, err := prompts.BudgetAwareBanner(); err == nil {
		in.Banner = b.Name + "@" + b.SHA256
	}
	if spec, err := grading.ParseSpec(p.Grading); err == nil {
		if t, err := prompts.Solver(string(spec.Kind)); err == nil {
			in.Solver = t.Name + "@" + t.SHA256
		}
	}
	raw, err := json.Marshal(in)
	if err != nil {
		panic("budgetaware: fingerprint inputs must encode: " + err.Error())
	}
	return sum(raw)
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
