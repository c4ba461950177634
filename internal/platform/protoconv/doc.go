// Package protoconv converts triage.v1 messages shared by several services
// into domain values, validating them field by field: pool items and budgets.
// Field names in violations are the message's own paths under a prefix the
// caller gives, so each service reports them where they sit in its request.
//
// It is also the one home of the pairing between the API's enums and the
// protocol's names (package vocab: regimes, planner strategies, prompt
// variants), and gathers what planscore.Score needs from an Executor's and
// an Oracle's responses (ScoreInput) and maps its Result back
// (DegeneracyProto, DecompositionProto, DiagnosticsProto).
package protoconv
