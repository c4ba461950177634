// Package vocab is the one home of the protocol's names: the two execution
// regimes (SPEC §3), the planning strategies of a grid (SPEC §7) and the
// planner prompt variants (SPEC §6), each a typed string whose value is the
// form stored in run stores, written in CSV/JSON and accepted in configs.
//
// It also decides the one order every table, file and figure lists them in:
// U before E; the llm strategy before the reference strategies; the
// default prompt variant before the ablations. Nothing else declares these
// names or orders; other packages convert at their edges (protobuf enums in
// internal/platform/protoconv).
package vocab
