// Package randomref computes the random reference V_random of the TRIAGE
// protocol (SPEC §4): the expected regime-U value of a planner that attempts
// every gradeable item of the pool in a uniformly random order. Walking the
// order with remaining budget R = B, item i stops the walk if c_i > R (stop,
// not skip); otherwise R −= c_i and V += v_i·y_i. Because costs are positive,
// item i executes exactly when the cost of the items before it plus c_i is at
// most B.
//
// Two methods are offered: MonteCarlo, the paper's seeded shuffles with a
// standard error, and Exact, the same expectation without sampling for pools
// of at most MaxExactItems items. Both take several budgets at once and
// return one Estimate per budget, in the order given; the result for a
// budget never depends on the other budgets of the call.
//
// # Shortcuts
//
// When every order fits (Σc ≤ B) every order executes everything, and both
// methods return Mean = pool.TotalGain(items) — the very float64 the oracle
// reports, so V_random = V_oracle holds bit for bit at α = 1 — with StdErr 0.
// When no item fits (B < min c, including B = 0) both return 0. An empty pool
// gives 0. MonteCarlo reports Samples = samples for these budgets without
// drawing (every shuffle would give the same value); Exact reports Samples 0.
//
// # Monte Carlo
//
// Each sample is one uniformly random order, drawn by a partial Fisher–Yates
// shuffle that stops early: position m receives an item drawn uniformly from
// those not yet placed, and drawing stops at the first item that does not fit
// the largest budget of the call, so only the executed prefix and the item
// that stops it are drawn. All budgets are evaluated along that one prefix
// (common random numbers): a budget's sample value is the gain accumulated
// before the cumulative cost first exceeds it. The arrangement is restored
// after each sample, so every sample starts from the pool's own order.
//
// Mean is the sample mean; StdErr is the sample standard deviation (divisor
// N−1) over √N, 0 when N = 1. Both are accumulated on values shifted by the
// first sample's value, which keeps the sum of squares well conditioned.
// samples must be at least 1.
//
// # Random numbers
//
// The generator is SplitMix64 (Steele, Lea & Flood; Vigna's reference
// constants), implemented here: the state advances by γ = 0x9E3779B97F4A7C15
// and each output is mix64(state), with mix64(z) = z ^ z>>31 after
// z = (z ^ z>>30)·0xBF58476D1CE4E5B9 and z = (z ^ z>>27)·0x94D049BB133111EB.
// Sample s (0-based) uses its own stream, whose initial state is
// mix64(mix64(seed) + (s+1)·γ); so sample s depends only on (seed, s).
//
// The bounded draws of a shuffle (bounds n, n−1, …, 1) are grouped into
// batches of consecutive positions whose bounds multiply to at most 2^32; the
// grouping is greedy and depends only on n. Each batch consumes one stream
// output x, checked with Lemire's nearly-divisionless rejection test for the
// bound p = product of the batch's bounds (x·p mod 2^64 must be at least
// 2^64 mod p, else the next output is taken; this happens with probability
// below 2^-32). The batch's draws are then the successive high halves of
// 64×64→128-bit products, x ← low half of x·b after each: the mixed-radix
// digits of Lemire's ⌊x·p/2^64⌋, hence exactly uniform and independent. A
// batch of one position is plain Lemire. This yields 6 to 9 draws per output
// for pools of 30 items.
//
// Reproducibility: for the same items (in the same order), budget, samples
// and seed, MonteCarlo returns the same Estimate on every run and every
// platform. The stream is pure 64-bit integer arithmetic, gains are summed in
// a fixed order, and the floating-point operations are written so that the
// compiler cannot fuse them into FMA instructions. The estimate for a budget
// does not depend on the other budgets of the call (nor on their order or
// repetition): the position drawn at step m depends only on the stream, and
// drawing further for a larger budget does not change the earlier steps.
// Pools whose gains are non-negative integers (unit values, as in the main
// protocol) run a kernel that packs cost and gain into one integer; it gives
// exactly the values the general kernel gives.
//
// # Sampler: stored orders
//
// The random orders depend only on (n, samples, seed), never on the items.
// A Sampler keeps the full orders of its most recent triples (2 bytes per
// position: 60 KiB for 30 items and 1000 samples; at most
// MaxCachedOrderCells positions per entry) and walks them instead of drawing:
// each stored order is the complete Fisher–Yates shuffle whose prefix the
// kernels above draw, with the same stream, batches and swaps, so its
// estimates equal MonteCarlo's bit for bit (tested). In a grid of equal-sized
// pools with one seed, every call after the first only walks. Pools larger
// than MaxCachedPoolSize, or entries above MaxCachedOrderCells, fall back to
// MonteCarlo.
//
// # Exact
//
// With k items before it, item i sees a uniformly random k-subset of the
// other items, and each position k has probability 1/n, so
//
//	P(i executes) = Σ_k k!(n−1−k)!/n! · N₋ᵢ(k, B − c_i),  k!(n−1−k)!/n! = 1/(n·C(n−1,k)),
//
// where N₋ᵢ(k, x) is the number of k-subsets of the other items whose total
// cost is at most x, and V_random = Σ_i v_i·y_i·P(i executes). Items with
// gain 0 still matter: they take part in every count, only their own term
// vanishes.
//
// One forward counting DP over all items fills cnt[k][s], the number of
// k-subsets of cost exactly s, for k < kmax (kmax = the most items that fit in
// B together) and s ≤ B − min c, touching in each row only the costs that row
// can reach; prefix sums over s give C[k][x]. The leave-one-out counts then
// need no further DP: N₋ᵢ(k, x) = Σ_{j=0..k} (−1)^j C[k−j][x − j·c_i], terms
// with a negative cost argument being 0. These sums are computed in uint64
// with wrapping arithmetic, which is exact modulo 2^64; since every true count
// is below 2^63 when n ≤ 63, the results are exact integers. The weights are
// applied as float64(N)/float64(C(n−1,k)), with C(n−1,k) computed exactly in
// uint64, and divided by n.
//
// Limits: at most MaxExactItems = 63 items (the exactness argument above),
// and a counting table of at most MaxExactCells = 2^24 cells of 8 bytes
// (128 MiB), the table for budget B having kmax·(B − min c + 1) cells. The
// time is O(n·kmax·B) for the DP plus O(n·kmax²) per budget. Budgets that
// every order fits or no item fits are exempt from both limits, so α = 1
// never fails. One call builds one table, for its largest budget, and answers
// every budget from it; each budget's value reads only exact counts and is
// identical to the value computed alone. CheckExact reports, without building
// anything, whether Exact can handle a budget; beyond the limits, CheckExact
// and Exact return an error wrapping ErrExactLimit that names the limit, the
// value and the excess, and suggests MonteCarlo.
//
// # Errors and cancellation
//
// Both methods reject items with a non-positive cost or a non-finite value,
// pools whose total cost overflows int64, and negative budgets. They check
// their context before starting and while working — MonteCarlo before every
// 1024th sample and before any sample once 2^20 items have been drawn since
// the last look, Exact once per item of the DP and once per budget — and
// return ctx.Err() when it has ended.
package randomref
