"""Tests of triage_client.scoring against an in-process fake Scoring service.

Run from clients/python (make check-clients does):
    /usr/bin/python3 -m unittest discover -s tests
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
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


class FakeRpcError(grpc.RpcError):
    """A failed call's error, as grpc raises it."""

    def __init__(self, code, details):
        super().__init__(details)
        self._code, self._details = code, details

    def code(self):
        return self._code

    def details(self):
        return self._details

    def trailing_metadata(self):
        return (("x-trailer", "kept"),)


class FailingStub:
    """A ScoringServiceStub whose calls fail with err."""

    def __init__(self, err):
        self.err = err

    def ScorePlan(self, request, timeout=None, metadata=None):
        raise self.err

    def ScorePlans(self, request, timeout=None, metadata=None):
        raise self.err
        yield


# The details grpcio (1.51, Debian's OpenSSL; BoringSSL's spelling in the
# last) gives a client and a server that disagree on TLS.
PLAINTEXT_TO_TLS = "failed to connect to all addresses; last error: UNAVAILABLE: ipv4:127.0.0.1:50051: Socket closed"
TLS_TO_PLAINTEXT = (
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:50051: Ssl handshake failed: "
    "SSL_ERROR_SSL: error:0A00010B:SSL routines::wrong version number"
)
TLS_TO_PLAINTEXT_BORINGSSL = (
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:50051: Ssl handshake failed: "
    "SSL_ERROR_SSL: error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER"
)


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
        with self.assertRaises(ValueError) as ctx:
            triage_client.Budget()
        self.assertEqual(str(ctx.exception), "Budget(tokens=None, alpha=None): give tokens or alpha, exactly one, not neither")
        with self.assertRaises(ValueError) as ctx:
            triage_client.Budget(tokens=1, alpha=0.5)
        self.assertEqual(str(ctx.exception), "Budget(tokens=1, alpha=0.5): give tokens or alpha, exactly one, not both")

    def test_token_surrounding_whitespace(self):
        # A token read from a file ends in a newline (openssl rand -hex 32 > f).
        for token in ("t\n", " t \r\n"):
            channel = triage_client.connect(self.address, token=token)
            got = triage_client.score_plan(
                channel, pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)], timeout=10
            )
            self.assertEqual(got.pool_size, 4)
            channel.close()

    def test_token_refused_without_showing_it(self):
        secret = "5ecret-token"
        for token, tls in (("", False), (" \n", False), (secret + "\x00x", False), (secret + "\nx", True),
                           ("s\u00e9" + secret, False), (secret + "\u2028x", True)):
            with self.assertRaises(ValueError, msg=repr(token)) as ctx:
                triage_client.connect(self.address, tls=tls, token=token)
            self.assertTrue(str(ctx.exception).startswith("token: "), str(ctx.exception))
            self.assertNotIn(secret, str(ctx.exception))
        self.assertIn("not allowed in a header", str(ctx.exception))

    def score_plan_error(self, exc, **change):
        """Returns the message of the exc score_plan raises with the fields of
        a valid request replaced by change, checking nothing was sent."""
        req = dict(pool=[triage_client.PoolItem("p1", 1200, True)], plan=[triage_client.Step("p1", 1200)],
                   budgets=[triage_client.Budget(tokens=900)])
        req.update(change)
        with self.assertRaises(exc, msg=repr(change)) as ctx:
            triage_client.score_plan(self.channel, timeout=10, **req)
        self.assertEqual(self.fake.requests, [])
        return str(ctx.exception)

    def test_conversion_errors_name_the_field(self):
        P, B, S = triage_client.PoolItem, triage_client.Budget, triage_client.Step
        int64 = "must be a whole number from -9223372036854775808 to 9223372036854775807, got "
        for exc, change, want in (
            (TypeError, dict(pool=[P("p0", 1, True), P("p1", 1200.7, True)]), "inline.items[1].cost: " + int64 + "1200.7 (float)"),
            (TypeError, dict(pool=[P("p1", True, True)]), "inline.items[0].cost: " + int64 + "True (bool)"),
            (ValueError, dict(pool=[P("p1", 2**70, True)]), "inline.items[0].cost: " + int64 + str(2**70)),
            (TypeError, dict(pool=[P("p1", 1, "yes")]), "inline.items[0].correct: must be True or False, got 'yes' (str)"),
            (TypeError, dict(pool=[P("p1", 1, True, value="2")]), "inline.items[0].value: must be a number, got '2' (str)"),
            (TypeError, dict(pool=[("p1", 1, True)]), "inline.items[0]: must be a PoolItem, got ('p1', 1, True) (tuple)"),
            (TypeError, dict(budgets=[0.5]), "budgets[0]: must be a Budget, got 0.5 (float)"),
            (ValueError, dict(budgets=[B(tokens=1), B(tokens=-(2**63) - 1)]), "budgets[1].tokens: " + int64 + str(-(2**63) - 1)),
            (TypeError, dict(budgets=[B(alpha=True)]), "budgets[0].alpha: must be a number, got True (bool)"),
            (TypeError, dict(plan=[S("p1", 1.5)]), "plan[0].tokens: " + int64 + "1.5 (float)"),
            (TypeError, dict(plan=[S(1, 1)]), "plan[0].id: must be a str, got 1"),
            (TypeError, dict(regimes="enforced"), "regimes: must be a list, got 'enforced' (str)"),
            (TypeError, dict(unsolvable=["p1", None]), "unsolvable.ids[1]: must be a str, got None (NoneType)"),
            (ValueError, dict(random_seed=-1), "options.random.seed: must be a whole number from 0 to 18446744073709551615, got -1"),
            (ValueError, dict(random_seed=2**64), "options.random.seed: must be a whole number from 0 to 18446744073709551615, got " + str(2**64)),
            (ValueError, dict(random_samples=2**31), "options.random.samples: must be a whole number from 0 to 2147483647, got 2147483648"),
            (ValueError, dict(random_method="fast"), 'options.random.method: unknown method "fast"; use "monte_carlo" or "exact"'),
            (TypeError, dict(include_trace="no"), "options.include_trace: must be True or False, got 'no' (str)"),
            (ValueError, dict(pool=triage_client.StoredPool("m", "turbo", "d", ["a"])),
             'stored.solver.mode: unknown mode "turbo"; use "standard" or "extended"'),
            (TypeError, dict(pool=triage_client.StoredPool("m", "standard", "d", ["a", 2])), "stored.problem_ids[1]: must be a str, got 2"),
        ):
            self.assertEqual(self.score_plan_error(exc, **change), want)

    def test_conversion_bounds(self):
        req = triage_client.scoring.to_proto(triage_client.ScoreRequest(
            pool=[triage_client.PoolItem("p1", 2**63 - 1, 1)], plan=[triage_client.Step("p1", -(2**63))],
            budgets=[triage_client.Budget(tokens=0), triage_client.Budget(alpha=1)],
            random_samples=2**31 - 1, random_seed=2**64 - 1,
        ))
        self.assertEqual((req.inline.items[0].cost, req.inline.items[0].correct), (2**63 - 1, True))
        self.assertEqual(req.plan[0].tokens, -(2**63))
        self.assertEqual((req.options.random.samples, req.options.random.seed), (2**31 - 1, 2**64 - 1))

    def test_score_plans_refuses_the_whole_batch(self):
        ok = triage_client.ScoreRequest(pool=[triage_client.PoolItem("p1", 1200, True)], plan=[],
                                        budgets=[triage_client.Budget(alpha=1)])
        bad = triage_client.ScoreRequest(pool=[triage_client.PoolItem("p1", 1200.7, True)], plan=[],
                                         budgets=[triage_client.Budget(alpha=1)])
        with self.assertRaises(TypeError) as ctx:
            triage_client.score_plans(self.channel, [ok, ok, ok, bad, ok], timeout=10)
        self.assertEqual(
            str(ctx.exception),
            "requests[3].inline.items[0].cost: must be a whole number from -9223372036854775808 to "
            "9223372036854775807, got 1200.7 (float)",
        )
        with self.assertRaises(TypeError) as ctx:
            triage_client.score_plans(self.channel, [ok, {"pool": []}], timeout=10)
        self.assertEqual(str(ctx.exception), "requests[1]: must be a ScoreRequest, got {'pool': []} (dict)")
        with self.assertRaises(ValueError) as ctx:
            triage_client.score_plans(self.channel, [ok, dataclasses.replace(ok, regimes=["advisory", "X"])])
        self.assertEqual(str(ctx.exception), 'requests[1].regimes[1]: unknown regime "X"; use "advisory" or "enforced"')
        self.assertEqual(self.fake.requests, [])

    def test_regime_names(self):
        req = triage_client.scoring.to_proto(triage_client.ScoreRequest(
            pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)],
            regimes=["REGIME_ENFORCED", "Advisory"], random_method="RANDOM_METHOD_EXACT",
        ))
        self.assertEqual(list(req.regimes), [executor_pb2.REGIME_ENFORCED, executor_pb2.REGIME_ADVISORY])
        self.assertEqual(req.options.random.method, oracle_pb2.RANDOM_METHOD_EXACT)
        for name in ("X", "regime_regime_enforced", "unspecified", ""):
            self.assertEqual(self.score_plan_error(ValueError, regimes=[name]),
                             f'regimes[0]: unknown regime "{name}"; use "advisory" or "enforced"')

    def test_tls_mismatch_hint(self):
        req = triage_client.ScoreRequest(pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)])
        for details, hint in (
            (PLAINTEXT_TO_TLS, triage_client.errors._PLAINTEXT_TO_TLS_HINT),
            (TLS_TO_PLAINTEXT, triage_client.errors._TLS_TO_PLAINTEXT_HINT),
            (TLS_TO_PLAINTEXT_BORINGSSL, triage_client.errors._TLS_TO_PLAINTEXT_HINT),
        ):
            err = FakeRpcError(grpc.StatusCode.UNAVAILABLE, details)
            for call in (lambda: triage_client.score_plan(FailingStub(err), **req.__dict__),
                         lambda: list(triage_client.score_plans(FailingStub(err), [req]))):
                with self.assertRaises(grpc.RpcError) as ctx:
                    call()
                got = ctx.exception
                self.assertIsInstance(got, triage_client.TLSMismatchError)
                self.assertIs(got.__cause__, err)
                self.assertEqual(got.code(), grpc.StatusCode.UNAVAILABLE)
                self.assertEqual(got.details(), details + hint)
                self.assertEqual(got.trailing_metadata(), (("x-trailer", "kept"),))
                self.assertIn("ca_file", hint)
                self.assertIn(details + hint, str(got))

    def test_no_hint_otherwise(self):
        req = triage_client.ScoreRequest(pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)])
        for code, details in (
            (grpc.StatusCode.UNAVAILABLE, "failed to connect to all addresses; last error: UNAVAILABLE: "
                                          "ipv4:127.0.0.1:1: Connection refused"),
            (grpc.StatusCode.UNAVAILABLE, "Socket closed"),  # after connecting: not a TLS server
            (grpc.StatusCode.UNAUTHENTICATED, TLS_TO_PLAINTEXT),
        ):
            err = FakeRpcError(code, details)
            for call in (lambda: triage_client.score_plan(FailingStub(err), **req.__dict__),
                         lambda: list(triage_client.score_plans(FailingStub(err), [req]))):
                with self.assertRaises(grpc.RpcError) as ctx:
                    call()
                self.assertIs(ctx.exception, err)

    def test_tls_client_plaintext_server(self):
        channel = triage_client.connect(self.address, tls=True)
        with self.assertRaises(triage_client.TLSMismatchError) as ctx:
            triage_client.score_plan(channel, pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)], timeout=10)
        self.assertTrue(ctx.exception.details().endswith(triage_client.errors._TLS_TO_PLAINTEXT_HINT))
        channel.close()

    @unittest.skipUnless(shutil.which("openssl"), "needs openssl to make a certificate")
    def test_plaintext_client_tls_server(self):
        with tempfile.TemporaryDirectory() as d:
            key, cert = os.path.join(d, "key.pem"), os.path.join(d, "cert.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                            "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost"],
                           check=True, capture_output=True)
            with open(key, "rb") as k, open(cert, "rb") as c:
                creds = grpc.ssl_server_credentials([(k.read(), c.read())])
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        scoring_pb2_grpc.add_ScoringServiceServicer_to_server(self.fake, server)
        address = "127.0.0.1:%d" % server.add_secure_port("127.0.0.1:0", creds)
        server.start()
        channel = triage_client.connect(address)
        try:
            with self.assertRaises(triage_client.TLSMismatchError) as ctx:
                next(triage_client.score_plans(channel, [triage_client.ScoreRequest(
                    pool=[], plan=[], budgets=[triage_client.Budget(tokens=1)])], timeout=10))
            self.assertTrue(ctx.exception.details().endswith(triage_client.errors._PLAINTEXT_TO_TLS_HINT))
        finally:
            channel.close()
            server.stop(None)


if __name__ == "__main__":
    unittest.main()
