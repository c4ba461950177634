"""Calls the four TRIAGE services from Python with the published stubs.

It computes the references of a four-problem pool (Oracle), repairs a
planner's messy answer into a plan (Planner), scores that plan (Executor),
scores it again with η and regret in one call (Scoring, with the typed
triage_client.score_plan), lists the Planner's endpoints, and sends a deliberately invalid request to
show the google.rpc.BadRequest field violations that come back.

Run it from the repository root against `triage serve`:

    PYTHONPATH=clients/python python3 examples/python/main.py --addr 127.0.0.1:50051

Every flag can also be set with an environment variable: TRIAGE_ADDR,
TRIAGE_TLS (1 for TLS with the system's CAs), TRIAGE_TLS_CA, TRIAGE_TLS_CERT,
TRIAGE_TLS_KEY, TRIAGE_TLS_SERVER_NAME, TRIAGE_TOKEN, TRIAGE_TOKEN_FILE.
With a CA (or --tls) the channel uses TLS; with a token every call carries
"authorization: Bearer <token>". The output is the same line for line as
examples/node's.
"""

from __future__ import annotations

import argparse
import os
import sys

import grpc

import triage_client
from triage.v1 import executor_pb2, executor_pb2_grpc, oracle_pb2, oracle_pb2_grpc
from triage.v1 import planner_pb2, planner_pb2_grpc, types_pb2

# The pool: four problems with one solver's ground truth (cost in tokens,
# whether its answer was correct); p4 is worth two points.
POOL = [
    types_pb2.GroundTruthItem(id="p1", cost=1200, correct=True),
    types_pb2.GroundTruthItem(id="p2", cost=800, correct=False),
    types_pb2.GroundTruthItem(id="p3", cost=3000, correct=True),
    types_pb2.GroundTruthItem(id="p4", cost=500, correct=True, value=2),
]

# A planner's answer as models write it: prose, a code fence, a number in a
# string, an unknown id and a trailing comma.
RAW_PLAN = (
    "Here is my plan:\n```json\n"
    '{"plan": [{"id": "p4", "tokens": "600"}, {"id": "p1", "tokens": 1300}, '
    '{"id": "p9", "tokens": 50},]}\n```'
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    env = os.environ.get
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--addr", default=env("TRIAGE_ADDR", "127.0.0.1:50051"), help="host:port of triage serve")
    p.add_argument("--tls", action="store_true", default=env("TRIAGE_TLS", "") in ("1", "true"), help="TLS with the system's CAs")
    p.add_argument("--tls-ca", default=env("TRIAGE_TLS_CA"), help="PEM file of the CA the server's certificate chains to")
    p.add_argument("--tls-cert", default=env("TRIAGE_TLS_CERT"), help="PEM client certificate (mutual TLS)")
    p.add_argument("--tls-key", default=env("TRIAGE_TLS_KEY"), help="PEM key of --tls-cert")
    p.add_argument("--tls-server-name", default=env("TRIAGE_TLS_SERVER_NAME"), help="name to check the server's certificate against")
    p.add_argument("--token", default=env("TRIAGE_TOKEN"), help="bearer token (prefer TRIAGE_TOKEN or --token-file)")
    p.add_argument("--token-file", default=env("TRIAGE_TOKEN_FILE"), help="file holding the bearer token")
    args = p.parse_args(argv)
    if args.token_file:
        with open(args.token_file, encoding="utf-8") as f:
            args.token = f.read().strip()
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        channel = triage_client.connect(
            args.addr,
            tls=args.tls,
            ca_file=args.tls_ca,
            cert_file=args.tls_cert,
            key_file=args.tls_key,
            server_name=args.tls_server_name,
            token=args.token or None,  # TRIAGE_TOKEN set but empty sends none, as the CLI does
        )
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    with channel:
        oracle = oracle_pb2_grpc.OracleServiceStub(channel)
        planner = planner_pb2_grpc.PlannerServiceStub(channel)
        executor = executor_pb2_grpc.ExecutorServiceStub(channel)

        # Oracle: the best value any plan can reach at α = 0.5, and what a
        # random planner gets on average.
        refs = oracle.ComputeReferences(
            oracle_pb2.ComputeReferencesRequest(
                items=POOL,
                budgets=[types_pb2.Budget(alpha=0.5)],
                random=oracle_pb2.RandomReferenceOptions(samples=2000, seed=1),
            ),
            timeout=30,
        )
        ref = refs.references[0]
        print(f"oracle: α=0.5 budget={ref.budget} oracle={ref.oracle.value:.4f} "
              f"random={ref.random.mean:.4f}±{ref.random.standard_error:.4f}")

        # Planner: repair the raw answer into a plan over the pool's ids.
        repaired = planner.RepairPlan(
            planner_pb2.RepairPlanRequest(raw_output=RAW_PLAN, problem_ids=[i.id for i in POOL]),
            timeout=30,
        )
        parsed = repaired.parsed
        steps = " ".join(f"{s.id}:{s.tokens}" for s in parsed.plan)
        print(f"planner: {planner_pb2.ParseStatus.Name(parsed.status)} with {len(parsed.fixes)} fixes "
              f"and {len(parsed.dropped_steps)} dropped: {steps}")

        # Executor: score the plan on the inline pool under both regimes.
        scored = executor.ExecutePlan(
            executor_pb2.ExecutePlanRequest(
                inline=executor_pb2.InlinePool(items=POOL),
                budget=types_pb2.Budget(alpha=0.5),
                plan=parsed.plan,
            ),
            timeout=30,
        )
        for r in scored.results:
            print(f"executor: {executor_pb2.Regime.Name(r.regime)} value={r.value:.4f} "
                  f"remaining={r.remaining_budget}")

        # Scoring: the same plan's η and regret at α = 0.5 in one call,
        # which runs the Executor and the Oracle on the server.
        score = triage_client.score_plan(
            channel,
            pool=POOL,
            plan=parsed.plan,
            budgets=[triage_client.Budget(alpha=0.5)],
            random_samples=2000,
            random_seed=1,
            timeout=30,
        )
        at = score.scores[0]
        print(f"scoring: α=0.5 budget={at.budget} oracle={at.oracle.value:.4f} "
              f"random={at.random.mean:.4f}±{at.random.standard_error:.4f} {at.degeneracy}")
        for r in at.regimes:
            regret = "none" if r.regret is None else f"{r.regret:.4f}"
            print(f"scoring: {r.regime} value={r.value:.4f} eta={r.eta:.4f} regret={regret}")
        print(f"scoring: computed by {score.version.protocol} (spec {score.version.spec_revision})")

        # Planner: the endpoints the server was configured with.
        eps = planner.ListEndpoints(planner_pb2.ListEndpointsRequest(), timeout=30).endpoints
        names = ", ".join(f"{e.name} ({e.model}, {executor_pb2.SolverMode.Name(e.mode)})" for e in eps)
        print(f"planner: endpoints: {names or 'none'}")

        # A bad request: every invalid field comes back at once, as the
        # google.rpc.BadRequest details of an INVALID_ARGUMENT status.
        try:
            oracle.ComputeReferences(
                oracle_pb2.ComputeReferencesRequest(
                    items=[types_pb2.GroundTruthItem(id="", cost=-1)],
                    budgets=[types_pb2.Budget(alpha=1.5)],
                ),
                timeout=30,
            )
        except grpc.RpcError as err:
            violations = triage_client.field_violations(err)
            print(f"bad request: {err.code().name} with {len(violations)} field violations")
            for v in violations:
                print(f"  {v.field}: {v.description}")
            if err.code() != grpc.StatusCode.INVALID_ARGUMENT or not violations:
                return 1
        else:
            print("bad request: accepted, but it should not be", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except grpc.RpcError as err:
        # A call that failed (the server unreachable, a wrong token, …):
        # one line, as examples/node says it, not a traceback.
        print(f"error: {err.code().name}: {err.details()}", file=sys.stderr)
        sys.exit(1)
