// Package protocol groups the paper's mathematics: budgets, pools and their
// partition, the knapsack oracle, the random reference, the U/E regimes and
// the metrics. Pure functions without I/O; its packages import only each other.
package protocol
