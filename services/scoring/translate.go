package scoring

import (
	"errors"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
)

// callError is a failed call to the Executor or the Oracle, with how its
// request's field paths map to the ScorePlanRequest's.
type callError struct {
	err   error
	paths []pathMap
}

// pathMap renames a field path prefix.
type pathMap struct{ from, to string }

// executorPaths maps an ExecutePlanRequest made for budgets[budget] (-1:
// the call that resolves a stored pool) to req's paths. The pool is sent
// inline after resolution, so a stored pool's items are named by the pool.
func executorPaths(req *triagev1.ScorePlanRequest, budget int) []pathMap {
	out := []pathMap{{"budget", "budgets[" + strconv.Itoa(budget) + "]"}}
	if req.GetStored() != nil {
		out = append(out, pathMap{"inline.items", "stored.problem_ids"})
	}
	return out
}

// oraclePaths maps a ComputeReferencesRequest's paths to req's.
func oraclePaths(req *triagev1.ScorePlanRequest) []pathMap {
	items := "inline.items"
	if req.GetStored() != nil {
		items = "stored.problem_ids"
	}
	return []pathMap{{"items", items}, {"random", "options.random"}}
}

// translate turns the calls' InvalidArgument errors into one on the
// request's paths, each violation once; another error is returned as it
// is (the first, when there is no InvalidArgument).
func translate(errs []callError) error {
	var (
		v     apperr.Violations
		seen  = map[apperr.FieldViolation]bool{}
		other error
	)
	for _, ce := range errs {
		fvs, ok := violations(ce.err)
		if !ok {
			if other == nil {
				other = ce.err
			}
			continue
		}
		for _, fv := range fvs {
			fv.Field = rename(fv.Field, ce.paths)
			if !seen[fv] {
				seen[fv] = true
				v.Add(fv.Field, "%s", fv.Description)
			}
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return other
}

// violations returns the field violations of an InvalidArgument error, from
// a service of this process (apperr) or a remote one (a status with
// BadRequest details).
func violations(err error) ([]apperr.FieldViolation, bool) {
	var invalid *apperr.InvalidArgumentError
	if errors.As(err, &invalid) {
		return invalid.Violations, true
	}
	if status.Code(err) != codes.InvalidArgument {
		return nil, false
	}
	fvs := grpcerr.FieldViolations(err)
	if len(fvs) == 0 {
		return nil, false
	}
	out := make([]apperr.FieldViolation, len(fvs))
	for i, fv := range fvs {
		out[i] = apperr.FieldViolation{Field: fv.GetField(), Description: fv.GetDescription()}
	}
	return out, true
}

// rename applies the first mapping whose prefix names field or one of its
// parents.
func rename(field string, paths []pathMap) string {
	for _, m := range paths {
		if rest, ok := strings.CutPrefix(field, m.from); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return m.to + rest
		}
	}
	return field
}

// decompositionError maps planscore.Score's error at budgets[budget]: a
// spent knapsack state budget (V_S of the regret decomposition,
// MaxKnapsackStates) becomes an InvalidArgument on the pool's items, as the
// Oracle answers when its own search runs out; another error is returned
// as it is.
func decompositionError(req *triagev1.ScorePlanRequest, budget int, err error) error {
	var tooHard *knapsack.StateLimitError
	if !errors.As(err, &tooHard) {
		return err
	}
	return translate([]callError{{paths: oraclePaths(req), err: apperr.Invalid("items",
		"V_S of the regret decomposition (the knapsack over the planned items) for these values needs more than %d Pareto states over the request's budgets (reached at budgets[%d]); "+
			"values that vary less with cost, fewer planned items or fewer budgets per request stay within it (unit values never need the search)", tooHard.Limit, budget)}})
}
