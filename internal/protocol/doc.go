// Package protocol groups the paper's mathematics: budgets, pools and their
// partition, the knapsack oracle, the random reference, the U/E regimes,
// the metrics and the scoring of one plan (planscore), and the protocol's
// names (vocab). Pure functions without I/O; its packages import only each
// other.
package protocol
