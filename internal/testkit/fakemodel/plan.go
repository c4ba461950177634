package fakemodel

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// plannerID matches a problem as a planner prompt lists it: "[id: p3]".
var plannerID = regexp.MustCompile(`\[id: ([^\]]+)\]`)

// PlannerIDs returns the problem ids a planner prompt lists, in order; a
// prompt of any other kind has none.
func PlannerIDs(prompt string) []string {
	var ids []string
	for _, m := range plannerID.FindAllStringSubmatch(prompt, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// Plan returns a planner's answer that gives every id tokens, in order:
// {"plan": [{"id": "p1", "tokens": 700}, ...]}.
func Plan(ids []string, tokens int) string {
	steps := make([]string, len(ids))
	for i, id := range ids {
		quoted, _ := json.Marshal(id)
		steps[i] = `{"id": ` + string(quoted) + `, "tokens": ` + strconv.Itoa(tokens) + `}`
	}
	return `{"plan": [` + strings.Join(steps, ", ") + `]}`
}

// FirstHalf returns the first half of ids (rounded down): the plan of the
// fake planners that leave the second half out.
func FirstHalf(ids []string) []string { return ids[:len(ids)/2] }
