/**
 * The Scoring service (SPEC §10) with typed requests and results:
 * `scorePlan` scores one plan on one pool and resolves to a `ScoreResult`;
 * `scorePlans` scores a batch and yields one `BatchOutcome` per request, in
 * request order, each with its result or its own error. Both build the
 * protobuf request from plain values; the results are plain interfaces, not
 * protobuf messages. Enumerations are the lower-case names of the proto's
 * values without their prefix ("advisory", "informative", "monte_carlo").
 * A request the client cannot encode is refused before anything is sent,
 * with a RangeError naming the field as the server does, by its path in the
 * ScorePlanRequest ("inline.items[0].cost", "budgets[1]").
 */
import { Metadata, type CallOptions, type ServiceError, status as grpcStatus } from "@grpc/grpc-js";
import { withTransportHint } from "./errors";
import { BadRequest } from "./gen/google/rpc/error_details";
import type { Status } from "./gen/google/rpc/status";
import {
  Regime as RegimeProto,
  regimeToJSON,
  solverModeFromJSON,
  traceOutcomeToJSON,
} from "./gen/triage/v1/executor";
import { randomMethodFromJSON, randomMethodToJSON } from "./gen/triage/v1/oracle";
import {
  ScorePlanRequest,
  ScorePlansRequest,
  degeneracyToJSON,
  type BudgetScore,
  type RegimeScore,
  type ScorePlanResponse,
  type ScoringServiceClient,
} from "./gen/triage/v1/scoring";
import { planDropReasonToJSON, type VersionStamp } from "./gen/triage/v1/types";

/** One problem of an inline pool with one solver's ground truth. */
export interface PoolItem {
  id: string;
  /** Tokens the solver spent on it. */
  cost: number;
  /** Whether the solver's answer was correct. */
  correct: boolean;
  /** Its value v_i; unset means 1. */
  value?: number;
}

/** A pool of ground truth stored by the Executor. */
export interface StoredPool {
  model: string;
  mode: "standard" | "extended";
  dataset: string;
  problemIds: string[];
}

/** One plan step: a problem and the tokens committed to it. */
export interface Step {
  id: string;
  tokens: number;
}

/** A budget: tokens, or alpha, a fraction of the pool's total cost; exactly one. */
export type Budget = { tokens: number; alpha?: undefined } | { alpha: number; tokens?: undefined };

/** A regime: allocations advisory (U) or enforced (E). */
export type Regime = "advisory" | "enforced";

/** One plan to score on one pool (a ScorePlanRequest). */
export interface ScoreRequest {
  /** Inline items, or a stored pool. */
  pool: PoolItem[] | StoredPool;
  /** The plan as the planner gave it. */
  plan: Step[];
  /** The budgets, in the order the results are wanted; at least one. */
  budgets: Budget[];
  /**
   * Empty or unset means both. A name is also taken in any case and as the
   * proto names it ("REGIME_ENFORCED"); another is a RangeError.
   */
  regimes?: (Regime | "REGIME_ADVISORY" | "REGIME_ENFORCED")[];
  /** Ids of the pool's injected unsolvable items; unset when it has none. */
  unsolvable?: string[];
  /** The random reference; unset means Monte Carlo, 1000 samples, seed 0. */
  random?: { method?: "monte_carlo" | "exact"; samples?: number; seed?: number };
  includeTrace?: boolean;
  includeOraclePlan?: boolean;
}

/** What computed a result (SPEC §10). */
export interface Version {
  protocol: string;
  specRevision: string;
  binaryVersion: string;
  vcsRevision: string;
}

/** One step of a regime's execution. */
export interface TraceEntry {
  id: string;
  tokens: number;
  cost: number;
  correct: boolean;
  /** "scored", "truncated", "stopped" or "not_reached". */
  outcome: string;
  gain: number;
  remainingBudget: number;
}

/** The plan's score at one budget under one regime. */
export interface RegimeResult {
  regime: Regime;
  /** V_M. */
  value: number;
  remainingBudget: number;
  /** Triage efficiency η (set by convention on a degenerate pool). */
  eta: number;
  /** Normalized regret R̃; undefined when V_oracle = 0. */
  regret?: number;
  trace: TraceEntry[];
}

/**
 * The regret decomposition at one budget (SPEC §5): where the plan lost
 * value, each term divided by V_oracle. selection + order is the advisory
 * regret, selection + order + enforcement the enforced one.
 */
export interface Decomposition {
  /** V_S: the best advisory value of a subset of the planned set that fits the budget. */
  plannedValue: number;
  /** (V_oracle − V_S) / V_oracle ≥ 0: what the chosen set could not reach. */
  selection: number;
  /** (V_S − V_U) / V_oracle ≥ 0: what the order and the early stop lost. */
  order: number;
  /** (V_U − V_E) / V_oracle, signed: what binding the allocations cost (negative when it helped). */
  enforcement: number;
}

/**
 * The plan diagnostics (SPEC §5), the same at every budget; each is
 * undefined where undefined for the plan and pool. S is the planned set, Y
 * the solvable items.
 */
export interface Diagnostics {
  /** |S ∩ Y| / |S|; undefined when S is empty. */
  precision?: number;
  /** |S ∩ Y| / |Y|; undefined when Y is empty. */
  recall?: number;
  /** The median of log2(a_i / c_i) over S (0: exact, −1: half the cost); undefined when S is empty. */
  costForecast?: number;
  /** The share of S ∩ Y allocated less than its cost; undefined when S ∩ Y is empty. */
  underAllocation?: number;
}

/** The plan's score at one budget. */
export interface BudgetResult {
  /** The effective budget in tokens. */
  budget: number;
  /** The α it was derived from, when given as a fraction. */
  alpha?: number;
  overBudget: boolean;
  /** V_oracle, the tokens an optimal plan spends, and the plan when asked. */
  oracle: { value: number; cost: number; plan: Step[] };
  /** V_random; method "monte_carlo" or "exact". */
  random: { mean: number; standardError: number; samples: number; method: string; seed: number };
  /** "informative", "no_value" or "collapse" (SPEC §5). */
  degeneracy: string;
  /** One per requested regime, in request order. */
  regimes: RegimeResult[];
  /** The regret decomposition; undefined when V_oracle = 0. */
  decomposition?: Decomposition;
}

/** A plan step normalization removed. */
export interface Drop {
  index: number;
  id: string;
  tokens: number;
  /** "unknown_id", "duplicate", "negative" or "zero". */
  reason: string;
}

/** One plan's score on one pool (a ScorePlanResponse). */
export interface ScoreResult {
  /** One per requested budget, in request order. */
  scores: BudgetResult[];
  normalizedPlan: Step[];
  droppedSteps: Drop[];
  plannedTokens: number;
  ungradeableProblemIds: string[];
  poolSize: number;
  totalCost: number;
  totalValue: number;
  /** Detection (undefined when no item is flagged) and waste. */
  injection?: { unsolvable: number; detection?: number; waste: number };
  /** Undefined inside a batch, whose outcome carries it. */
  version?: Version;
  /** The plan diagnostics (undefined only from a server that predates them). */
  diagnostics?: Diagnostics;
}

/** Why one request of a batch could not be scored. */
export interface ScoreError {
  /** The gRPC status code. */
  code: grpcStatus;
  message: string;
  /** The request's invalid fields, for INVALID_ARGUMENT. */
  fieldViolations: { field: string; description: string }[];
}

/** The outcome of one request of a batch: result or error. */
export interface BatchOutcome {
  /** The request's position in the batch, from 0. */
  index: number;
  result?: ScoreResult;
  error?: ScoreError;
  version?: Version;
}

/** Per-call settings: a deadline and extra metadata. */
export interface ScoreCallOptions {
  deadline?: Date | number;
  metadata?: Metadata;
}

/**
 * Scores one plan on one pool; rejects with a RangeError for a request the
 * client cannot encode (toProto), and with the grpc-js ServiceError when the
 * call fails, its message ending in a hint when the client and the server
 * disagree on TLS (transportHint).
 */
export function scorePlan(client: ScoringServiceClient, request: ScoreRequest, o: ScoreCallOptions = {}): Promise<ScoreResult> {
  const opts: Partial<CallOptions> = { deadline: o.deadline };
  return new Promise((resolve, reject) =>
    client.scorePlan(toProto(request), o.metadata ?? new Metadata(), opts, (err: ServiceError | null, resp?: ScorePlanResponse) =>
      err || !resp ? reject(withTransportHint(err)) : resolve(fromProto(resp)),
    ),
  );
}

/**
 * Scores a batch in one streamed call and yields the outcomes in request
 * order; a request the server refuses gets its own error and does not fail
 * the others. A request the client cannot encode (toProto) is the caller's
 * bug: the iteration throws its RangeError, the field prefixed with the
 * request's index ("requests[3].inline.items[0].cost: …"), before anything
 * is sent. It throws the ServiceError when the call as a whole fails (with
 * scorePlan's TLS hint); leaving it early (break) cancels the call.
 */
export async function* scorePlans(
  client: ScoringServiceClient,
  requests: ScoreRequest[],
  o: ScoreCallOptions = {},
): AsyncGenerator<BatchOutcome> {
  const batch = ScorePlansRequest.fromPartial({ requests: requests.map((r, i) => toProto(r, `requests[${i}].`)) });
  const stream = client.scorePlans(batch, o.metadata ?? new Metadata(), { deadline: o.deadline });
  try {
    for await (const resp of stream) {
      yield {
        index: resp.index,
        result: resp.result ? fromProto(resp.result) : undefined,
        error: resp.error ? scoreError(resp.error) : undefined,
        version: version(resp.version),
      };
    }
  } catch (err) {
    throw withTransportHint(err);
  } finally {
    // A caller that leaves the loop early (break, return, a throw) wants no
    // more outcomes: without the cancel the call stayed open, the server
    // holding it (and the caller's slot) until its idle timeout, and the
    // channel, even closed, kept Node from exiting. No-op once it ended.
    stream.cancel();
  }
}

/**
 * Throws a RangeError naming field unless v is a whole number JavaScript
 * holds exactly (|v| ≤ 2^53 − 1): a 64-bit integer of the request that is
 * not one would be rounded, or fail to encode with an error naming no
 * field. The server checks every bound of its own and names the field.
 */
function safeInteger(field: string, v: number): number {
  if (!Number.isSafeInteger(v)) {
    throw new RangeError(`${field}: must be a whole number of tokens within ±(2^53 − 1), got ${v}`);
  }
  return v;
}

/**
 * Returns the regime named g: "advisory" or "enforced" in any case, with or
 * without the proto's "REGIME_" prefix. Another name, which the generated
 * code turned into UNRECOGNIZED (-1) for the server to refuse as "got -1",
 * is a RangeError naming field and the name.
 */
function regime(field: string, g: string): RegimeProto {
  switch (typeof g === "string" ? g.toLowerCase().replace(/^regime_/, "") : undefined) {
    case "advisory":
      return RegimeProto.REGIME_ADVISORY;
    case "enforced":
      return RegimeProto.REGIME_ENFORCED;
  }
  throw new RangeError(`${field}: unknown regime ${JSON.stringify(g)}; use "advisory" or "enforced"`);
}

/**
 * Returns the ScorePlanRequest r describes. A RangeError names, by its path
 * in the ScorePlanRequest after prefix (the server's names, e.g.
 * "inline.items[0].cost"), a token count or cost that is not a safe integer
 * (safeInteger), a budget with both tokens and alpha or neither (plain
 * JavaScript can give both: the wire kept one), an unknown regime, or a
 * random seed or sample count the wire cannot carry.
 */
export function toProto(r: ScoreRequest, prefix = ""): ScorePlanRequest {
  if (Array.isArray(r.pool)) {
    r.pool.forEach((it, i) => safeInteger(`${prefix}inline.items[${i}].cost`, it.cost));
  }
  r.plan.forEach((s, i) => safeInteger(`${prefix}plan[${i}].tokens`, s.tokens));
  r.budgets.forEach((b, i) => {
    if ((b.tokens == null) === (b.alpha == null)) {
      throw new RangeError(`${prefix}budgets[${i}]: a budget is tokens or alpha, exactly one`);
    }
    if (b.tokens != null) {
      safeInteger(`${prefix}budgets[${i}].tokens`, b.tokens);
    }
  });
  const regimes = (r.regimes ?? []).map((g, i) => regime(`${prefix}regimes[${i}]`, g));
  // The seed is a uint64 and the sample count an int32 on the wire: out of
  // range, grpc-js failed the call as 13 INTERNAL naming no field, or (a
  // seed above 2^53) sent it and could not decode the answer echoing it.
  if (r.random?.seed !== undefined && (!Number.isSafeInteger(r.random.seed) || r.random.seed < 0)) {
    throw new RangeError(`${prefix}options.random.seed: must be a whole number within [0, 2^53 − 1], got ${r.random.seed}`);
  }
  if (r.random?.samples !== undefined && (!Number.isInteger(r.random.samples) || r.random.samples < 0 || r.random.samples > 2 ** 31 - 1)) {
    throw new RangeError(`${prefix}options.random.samples: must be a whole number within [0, 2^31 − 1], got ${r.random.samples}`);
  }
  const pool = Array.isArray(r.pool)
    ? { inline: { items: r.pool } }
    : {
        stored: {
          solver: { model: r.pool.model, mode: solverModeFromJSON(`SOLVER_MODE_${r.pool.mode.toUpperCase()}`) },
          dataset: r.pool.dataset,
          problemIds: r.pool.problemIds,
        },
      };
  const rnd = r.random ?? {};
  return ScorePlanRequest.fromPartial({
    ...pool,
    budgets: r.budgets.map((b) => (b.tokens != null ? { tokens: b.tokens } : { alpha: b.alpha })),
    plan: r.plan.map((s) => ({ id: s.id, tokens: s.tokens })),
    regimes,
    unsolvable: r.unsolvable ? { ids: r.unsolvable } : undefined,
    options: {
      random: {
        method: randomMethodFromJSON(`RANDOM_METHOD_${(rnd.method ?? "unspecified").toUpperCase()}`),
        samples: rnd.samples ?? 0,
        seed: rnd.seed ?? 0,
      },
      includeTrace: r.includeTrace ?? false,
      includeOraclePlan: r.includeOraclePlan ?? false,
    },
  });
}

/** Returns the ScoreResult of a ScorePlanResponse. */
export function fromProto(m: ScorePlanResponse): ScoreResult {
  return {
    scores: m.scores.map(budgetResult),
    normalizedPlan: m.normalizedPlan.map(step),
    droppedSteps: m.droppedSteps.map((d) => ({
      index: d.index,
      id: d.id,
      tokens: d.tokens,
      reason: name(planDropReasonToJSON(d.reason), "PLAN_DROP_REASON_"),
    })),
    plannedTokens: m.plannedTokens,
    ungradeableProblemIds: m.ungradeableProblemIds,
    poolSize: m.poolSize,
    totalCost: m.totalCost,
    totalValue: m.totalValue,
    injection: m.injection && { unsolvable: m.injection.unsolvable, detection: m.injection.detection, waste: m.injection.waste },
    version: version(m.version),
    diagnostics: m.diagnostics && {
      precision: m.diagnostics.precision,
      recall: m.diagnostics.recall,
      costForecast: m.diagnostics.costForecast,
      underAllocation: m.diagnostics.underAllocation,
    },
  };
}

function budgetResult(b: BudgetScore): BudgetResult {
  const o = b.oracle;
  const r = b.random;
  return {
    budget: b.budget,
    alpha: b.alpha,
    overBudget: b.overBudget,
    oracle: { value: o?.value ?? 0, cost: o?.cost ?? 0, plan: (o?.plan ?? []).map(step) },
    random: {
      mean: r?.mean ?? 0,
      standardError: r?.standardError ?? 0,
      samples: r?.samples ?? 0,
      method: name(randomMethodToJSON(r?.method ?? 0), "RANDOM_METHOD_"),
      seed: r?.seed ?? 0,
    },
    degeneracy: name(degeneracyToJSON(b.degeneracy), "DEGENERACY_"),
    regimes: b.regimes.map(regimeResult),
    decomposition: b.decomposition && {
      plannedValue: b.decomposition.plannedValue,
      selection: b.decomposition.selection,
      order: b.decomposition.order,
      enforcement: b.decomposition.enforcement,
    },
  };
}

function regimeResult(g: RegimeScore): RegimeResult {
  return {
    regime: name(regimeToJSON(g.regime as RegimeProto), "REGIME_") as Regime,
    value: g.value,
    remainingBudget: g.remainingBudget,
    eta: g.eta,
    regret: g.regret,
    trace: g.trace.map((t) => ({
      id: t.id,
      tokens: t.tokens,
      cost: t.cost,
      correct: t.correct,
      outcome: name(traceOutcomeToJSON(t.outcome), "TRACE_OUTCOME_"),
      gain: t.gain,
      remainingBudget: t.remainingBudget,
    })),
  };
}

function step(s: { id: string; tokens: number }): Step {
  return { id: s.id, tokens: s.tokens };
}

function version(v: VersionStamp | undefined): Version | undefined {
  return v && { protocol: v.protocol, specRevision: v.specRevision, binaryVersion: v.binaryVersion, vcsRevision: v.vcsRevision };
}

function scoreError(s: Status): ScoreError {
  return {
    code: s.code as grpcStatus,
    message: s.message,
    fieldViolations: s.details
      .filter((d) => d.typeUrl === "type.googleapis.com/google.rpc.BadRequest")
      .flatMap((d) => BadRequest.decode(d.value).fieldViolations)
      .map((v) => ({ field: v.field, description: v.description })),
  };
}

/** The lower-case name of an enum value without its prefix. */
function name(json: string, prefix: string): string {
  return (json.startsWith(prefix) ? json.slice(prefix.length) : json).toLowerCase();
}
