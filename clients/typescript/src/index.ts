/**
 * The TRIAGE client: the messages and @grpc/grpc-js clients ts-proto
 * generates from proto/ (one namespace per proto file, as the files share
 * helper names), `connect` for the four services with TLS and a bearer
 * token, `scorePlan` and `scorePlans` for the Scoring service with typed
 * results, and `fieldViolations` to decode a google.rpc.BadRequest.
 *
 * @example
 * const { connect, oracle, scorePlan } = require("triage-client");
 * const c = connect({ address: "127.0.0.1:50051" });
 * c.oracle.computeReferences(oracle.ComputeReferencesRequest.fromPartial({...}), (err, resp) => ...);
 * const r = await scorePlan(c.scoring, { pool, plan, budgets: [{ alpha: 0.5 }] });
 */
export * as executor from "./gen/triage/v1/executor";
export * as oracle from "./gen/triage/v1/oracle";
export * as planner from "./gen/triage/v1/planner";
export * as scoring from "./gen/triage/v1/scoring";
export * as types from "./gen/triage/v1/types";
export * as rpcStatus from "./gen/google/rpc/status";
export * as rpcCode from "./gen/google/rpc/code";
export * as errorDetails from "./gen/google/rpc/error_details";
/** The @grpc/grpc-js the clients are built on, for credentials and metadata. */
export * as grpc from "@grpc/grpc-js";
export { connect, isLoopback, type Clients, type ConnectOptions } from "./connect";
export { fieldViolations, statusDetails } from "./errors";
export {
  scorePlan,
  scorePlans,
  type BatchOutcome,
  type Budget,
  type BudgetResult,
  type Decomposition,
  type Diagnostics,
  type Drop,
  type PoolItem,
  type Regime,
  type RegimeResult,
  type ScoreCallOptions,
  type ScoreError,
  type ScoreRequest,
  type ScoreResult,
  type Step,
  type StoredPool,
  type TraceEntry,
  type Version,
} from "./scoring";
