package report

import "github.com/triage-eval/triage/internal/store/runstore"

// ScoreRecord is the outcome of one plan under one regime, as a run stores
// it (runstore.ScoreRecord): the unit a report aggregates.
type ScoreRecord = runstore.ScoreRecord

// Accuracy is a solver's base accuracy on a dataset (runstore.Accuracy).
type Accuracy = runstore.Accuracy
