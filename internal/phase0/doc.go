// Package phase0 groups the measurement of ground truth: benchmark importers,
// graders, the code sandbox, one solve, other harnesses' logs read as ground
// truth (harnesslog), and the committed benchmark records tests read. It may
// import llm, planning, store, platform and protocol.
package phase0
