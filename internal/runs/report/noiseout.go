package report

import (
	"fmt"
	"io"
)

// NoiseTable is the "Measurement noise" table (SPEC §9): one row per
// (model, mode, dataset) of Noise.Solvers with its items, k, mean flip
// rate and mean cost CV (each with the items it averages). ok is false
// when the report has no noise part.
func (r Report) NoiseTable() (Table, bool) {
	if r.Noise == nil {
		return Table{}, false
	}
	n := r.Noise
	t := Table{
		Title: "Measurement noise",
		Notes: []string{
			fmt.Sprintf("Phase 0 repeated up to k = %d times per (solver, problem); sample 1 is the ground truth the cells were scored with (SPEC §9). items = problems with samples; k = the most samples one of them has; flip rate = share of an item's gradeable samples 2…k whose y differs from sample 1's, averaged over the items where it is defined (n); cost CV = sample standard deviation (divisor n − 1) over mean of an item's n gradeable costs, averaged over the items with two or more (n). Failed samples count in neither. Per item: items_noise.csv.", n.K),
			fmt.Sprintf("The noise-aware interval beside each η (cells.csv eta_noise_lo/hi, the cells table) resamples the pools and, in each, one of R = %d draws of every item's (c, y) from its gradeable samples, with B, V_oracle, V_random (the stored estimate moved by what M = %d common random orders see) and V_M of the stored plan recomputed (docs/reports.md).", n.Draws, n.RandomOrders),
		},
		Header: []string{"Model", "Mode", "Dataset", "items", "k", "mean flip rate", "n", "mean cost CV", "n"},
		Align:  "lllrrrrrr",
	}
	for _, s := range n.Solvers {
		t.Rows = append(t.Rows, []string{s.Model, s.Mode, s.Dataset, itoa(s.Items), itoa(s.K), fixed3(s.FlipRate), itoa(s.FlipRate.N), fixed3(s.CostCV), itoa(s.CostCV.N)})
	}
	return t, true
}

// NoiseCSV writes Noise.Solvers: model, mode, dataset, items, k,
// flip_rate, flip_rate_n, cost_cv, cost_cv_n (full precision, empty when
// undefined). It writes the header alone when the report has no noise
// part.
func (r Report) NoiseCSV(w io.Writer) error {
	rows := [][]string{{"model", "mode", "dataset", "items", "k", "flip_rate", "flip_rate_n", "cost_cv", "cost_cv_n"}}
	if r.Noise != nil {
		for _, s := range r.Noise.Solvers {
			rows = append(rows, []string{s.Model, s.Mode, s.Dataset, itoa(s.Items), itoa(s.K), fullMean(s.FlipRate), itoa(s.FlipRate.N), fullMean(s.CostCV), itoa(s.CostCV.N)})
		}
	}
	return writeCSV(w, rows)
}

// ItemsNoiseCSV writes Noise.Items: model, mode, dataset, problem, samples,
// gradeable, flip_rate, flip_rate_n, cost_cv (empty when undefined). It
// writes the header alone when the report has no noise part.
func (r Report) ItemsNoiseCSV(w io.Writer) error {
	rows := [][]string{{"model", "mode", "dataset", "problem", "samples", "gradeable", "flip_rate", "flip_rate_n", "cost_cv"}}
	if r.Noise != nil {
		for _, it := range r.Noise.Items {
			rows = append(rows, []string{it.Model, it.Mode, it.Dataset, it.ProblemID, itoa(it.Samples), itoa(it.Gradeable), fullMean(it.FlipRate), itoa(it.FlipRate.N), fullMean(it.CostCV)})
		}
	}
	return writeCSV(w, rows)
}

// jsonNoise is the noise part in cells.json.
type jsonNoise struct {
	K            int               `json:"k"`
	Draws        int               `json:"draws"`
	RandomOrders int               `json:"random_orders"`
	RandomSeed   uint64            `json:"random_seed"`
	Solvers      []jsonSolverNoise `json:"solvers"`
}

type jsonSolverNoise struct {
	Model     string   `json:"model"`
	Mode      string   `json:"mode"`
	Dataset   string   `json:"dataset"`
	Items     int      `json:"items"`
	K         int      `json:"k"`
	FlipRate  *float64 `json:"flip_rate"`
	FlipRateN int      `json:"flip_rate_n"`
	CostCV    *float64 `json:"cost_cv"`
	CostCVN   int      `json:"cost_cv_n"`
}

// toJSONNoise is the JSON form of n, nil (left out) without a noise part.
func toJSONNoise(n *Noise) *jsonNoise {
	if n == nil {
		return nil
	}
	out := &jsonNoise{K: n.K, Draws: n.Draws, RandomOrders: n.RandomOrders, RandomSeed: n.RandomSeed, Solvers: make([]jsonSolverNoise, len(n.Solvers))}
	for i, s := range n.Solvers {
		out.Solvers[i] = jsonSolverNoise{s.Model, s.Mode, s.Dataset, s.Items, s.K, mean(s.FlipRate), s.FlipRate.N, mean(s.CostCV), s.CostCV.N}
	}
	return out
}

// noiseCI is a cell's noise-aware interval in cells.json: absent without
// a noise part, else [lo, hi] or null.
func noiseCI(r Report, c Cell) *[]float64 {
	if r.Noise == nil {
		return nil
	}
	ci := interval(c.EtaNoiseCI)
	return &ci
}
