"""Tests of triage_client.scoring against an in-process fake Scoring service.

Run from clients/python (make check-clients does):
    /usr/bin/python3 -m unittest discover -s tests
"""

from __future__ import annotations

import os
import sys
import unittest
from concurrent import futures

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import triage_client  # noqa: E402
from triage.v1 import executor_pb2, oracle_pb2, scoring_pb2, scoring_pb2_grpc, types_pb2  # noqa: E402

STAMP = types_pb2.VersionStamp(protocol="triage.v1", spec_revision="r", binary_version="(devel)", vcs_revision="abc")


def response() -> scoring_pb2.ScorePlanResponse:
    """A canned ScorePlanResponse with every kind of field set."""
    return scoring_pb2.ScorePlanResponse(
        scores=[
            scoring_pb2.BudgetScore(
                budget=2750,
                alpha=0.5,
                oracle=oracle_pb2.OracleReference(value=3, cost=1700, plan=[types_pb2.PlanStep(id="p4", tokens=500)]),
                random=oracle_pb2.RandomReference(
                    mean=1.25, standard_error=0.02, samples=2000, method=oracle_pb2.RANDOM_METHOD_MONTE_CARLO, seed=1
                ),
                degeneracy=scoring_pb2.DEGENERACY_INFORMATIVE,
                regimes=[
                    scoring_pb2.RegimeScore(
                        regime=executor_pb2.REGIME_ADVISORY, value=3, remaining_budget=1050, eta=1, regret=0,
                        trace=[executor_pb2.TraceStep(id="p4", tokens=600, cost=500, correct=True,
                                                      outcome=executor_pb2.TRACE_OUTCOME_SCORED, gain=2,
                                                      remaining_budget=2250)],
                    ),
                    scoring_pb2.RegimeScore(regime=executor_pb2.REGIME_ENFORCED, value=2, remaining_budget=10, eta=0.4),
                ],
                decomposition=scoring_pb2.RegretDecomposition(
                    planned_value=3, selection=0, order=0.25, enforcement=-0.125
                ),
            ),
            scoring_pb2.BudgetScore(budget=0, degeneracy=scoring_pb2.DEGENERACY_NO_VALUE),
        ],
        normalized_plan=[types_pb2.PlanStep(id="p4", tokens=600)],
        dropped_steps=[types_pb2.PlanDrop(index=2, id="p9", tokens=50, reason=types_pb2.PLAN_DROP_REASON_UNKNOWN_ID)],
        planned_tokens=600,
        pool_size=4,
        total_cost=5500,
        total_value=4,
        injection=scoring_pb2.InjectionScore(unsolvable=1, detection=1, waste=0),
        version=STAMP,
        diagnostics=scoring_pb2.PlanDiagnostics(precision=0.5, cost_forecast=-1, under_allocation=0),
    )


def bad_request() -> status_pb2.Status:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field="budgets[0].alpha", description="must be in (0, 1]"),
    ]))
    return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message="invalid request", details=[detail])


class FakeScoring(scoring_pb2_grpc.ScoringServiceServicer):
    """Records the requests and answers with response()."""

    def __init__(self):
        self.requests = []

    def ScorePlan(self, request, context):
        self.requests.append(request)
        if dict(context.invocation_metadata()).get("authorization") != "Bearer t":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "no token")
        return response()

    def ScorePlans(self, request, context):
        self.requests.append(request)
        for i, _ in enumerate(request.requests):
            if i == 1:
                yield scoring_pb2.ScorePlansResponse(index=i, error=bad_request(), version=STAMP)
            else:
                r = response()
                r.ClearField("version")
                yield scoring_pb2.ScorePlansResponse(index=i, result=r, version=STAMP)


class ScoringTest(unittest.TestCase):
    def setUp(self):
        self.fake = FakeScoring()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        scoring_pb2_grpc.add_ScoringServiceServicer_to_server(self.fake, self.server)
        self.address = "127.0.0.1:%d" % self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()
        self.channel = triage_client.connect(self.address, token="t")

    def tearDown(self):
        self.channel.close()
        self.server.stop(None)

    def test_score_plan_request(self):
        triage_client.score_plan(
            self.channel,
            pool=[triage_client.PoolItem("p1", 1200, True), triage_client.PoolItem("p4", 500, True, value=2)],
            plan=[triage_client.Step("p4", 600)],
            budgets=[triage_client.Budget(alpha=0.5), triage_client.Budget(tokens=900)],
            regimes=["enforced"],
            unsolvable=[],
            random_samples=2000,
            random_seed=1,
            include_trace=True,
            timeout=10,
        )
        want = scoring_pb2.ScorePlanRequest(
            inline=executor_pb2.InlinePool(items=[
                types_pb2.GroundTruthItem(id="p1", cost=1200, correct=True),
                types_pb2.GroundTruthItem(id="p4", cost=500, correct=True, value=2),
            ]),
            budgets=[types_pb2.Budget(alpha=0.5), types_pb2.Budget(tokens=900)],
            plan=[types_pb2.PlanStep(id="p4", tokens=600)],
            regimes=[executor_pb2.REGIME_ENFORCED],
            unsolvable=scoring_pb2.UnsolvableItems(),
            options=scoring_pb2.ScoringOptions(
                random=oracle_pb2.RandomReferenceOptions(samples=2000, seed=1), include_trace=True
            ),
        )
        self.assertEqual(self.fake.requests, [want])

    def test_stored_pool(self):
        req = triage_client.scoring.to_proto(triage_client.ScoreRequest(
            pool=triage_client.StoredPool("qwen3-32b", "extended", "aime", ["a", "b"]),
            plan=[], budgets=[triage_client.Budget(tokens=1)], random_method="exact",
        ))
        self.assertEqual(req.stored.solver.mode, executor_pb2.SOLVER_MODE_EXTENDED)
        self.assertEqual(list(req.stored.problem_ids), ["a", "b"])
        self.assertEqual(req.options.random.method, oracle_pb2.RANDOM_METHOD_EXACT)
        self.assertFalse(req.HasField("unsolvable"))

    def test_score_plan_result(self):
        got = triage_client.score_plan(
            self.channel, pool=[], plan=[], budgets=[triage_client.Budget(alpha=0.5)], timeout=10
        )
        self.assertIsInstance(got, triage_client.ScoreResult)
        half = got.scores[0]
        self.assertEqual((half.budget, half.alpha, half.degeneracy), (2750, 0.5, "informative"))
        self.assertEqual(half.oracle, triage_client.scoring.OracleReference(3, 1700, (triage_client.Step("p4", 500),)))
        self.assertEqual(half.random.method, "monte_carlo")
        self.assertEqual(half.random.standard_error, 0.02)
        adv = half.regime("advisory")
        self.assertEqual((adv.value, adv.eta, adv.regret), (3, 1, 0))
        self.assertEqual(adv.trace[0].outcome, "scored")
        enf = half.regime("enforced")
        self.assertIsNone(enf.regret)
        self.assertEqual(enf.eta, 0.4)
        self.assertEqual(half.decomposition, triage_client.scoring.Decomposition(3, 0, 0.25, -0.125))
        none = got.scores[1]
        self.assertEqual((none.alpha, none.degeneracy, none.decomposition), (None, "no_value", None))
        # recall is unset (None), under_allocation set to 0 (not None).
        self.assertEqual(got.diagnostics, triage_client.scoring.Diagnostics(0.5, None, -1.0, 0.0))
        self.assertEqual(got.dropped_steps, (triage_client.scoring.Drop(2, "p9", 50, "unknown_id"),))
        self.assertEqual(got.normalized_plan, (triage_client.Step("p4", 600),))
        self.assertEqual(got.injection, triage_client.scoring.Injection(1, 1.0, 0.0))
        self.assertEqual(got.version, triage_client.scoring.Version("triage.v1", "r", "(devel)", "abc"))

    def test_score_plan_error(self):
        bare = grpc.insecure_channel(self.address)
        with self.assertRaises(grpc.RpcError) as ctx:
            triage_client.score_plan(bare, pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)], timeout=10)
        self.assertEqual(ctx.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        bare.close()

    def test_score_plans(self):
        reqs = [
            triage_client.ScoreRequest(pool=[], plan=[], budgets=[triage_client.Budget(alpha=a)]) for a in (0.5, 1.5, 1)
        ]
        got = list(triage_client.score_plans(self.channel, reqs, timeout=10))
        self.assertEqual([o.index for o in got], [0, 1, 2])
        self.assertEqual([o.version.protocol for o in got], ["triage.v1"] * 3)
        self.assertIsNone(got[0].error)
        self.assertIsNone(got[0].result.version)
        self.assertEqual(got[2].result.scores[0].budget, 2750)
        self.assertIsNone(got[1].result)
        self.assertEqual(got[1].error.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(got[1].error.field_violations,
                         (triage_client.scoring.FieldViolation("budgets[0].alpha", "must be in (0, 1]"),))
        self.assertEqual([r.budgets[0].alpha for r in self.fake.requests[0].requests], [0.5, 1.5, 1])

    def test_budget_needs_one_kind(self):
        with self.assertRaises(ValueError):
            triage_client.Budget()
        with self.assertRaises(ValueError):
            triage_client.Budget(tokens=1, alpha=0.5)


if __name__ == "__main__":
    unittest.main()
