"""Helpers for the generated TRIAGE stubs.

The stubs themselves are the modules protoc generates, importable as
``triage.v1.<file>_pb2`` (messages) and ``triage.v1.<file>_pb2_grpc``
(``OracleServiceStub``, ``ExecutorServiceStub``, ``PlannerServiceStub``,
``ScoringServiceStub``), with ``google.rpc.status_pb2`` and
``google.rpc.error_details_pb2`` to decode error details. This package adds
what every caller writes next:

- :func:`connect` opens a channel with TLS (a CA file, an optional client
  certificate) and a bearer token;
- :func:`score_plan` and :func:`score_plans` call the Scoring service with
  plain values and return typed results (:class:`ScoreResult`,
  :class:`BatchOutcome`; module :mod:`triage_client.scoring`);
- :func:`field_violations` decodes the ``google.rpc.BadRequest`` an
  ``INVALID_ARGUMENT`` error carries, and :func:`status_details` the whole
  ``google.rpc.Status``;
- :func:`transport_hint` says when a failed call's error is that of a client
  and a server that disagree on TLS; score_plan and score_plans then raise a
  :class:`TLSMismatchError` (a ``grpc.RpcError``) with that hint.
"""

from triage_client.channel import connect, is_loopback
from triage_client.errors import TLSMismatchError, field_violations, status_details, transport_hint
from triage_client.scoring import (
    BatchOutcome,
    Budget,
    BudgetResult,
    PoolItem,
    RegimeResult,
    ScoreError,
    ScoreRequest,
    ScoreResult,
    Step,
    StoredPool,
    score_plan,
    score_plans,
)

__all__ = [
    "BatchOutcome",
    "Budget",
    "BudgetResult",
    "PoolItem",
    "RegimeResult",
    "ScoreError",
    "ScoreRequest",
    "ScoreResult",
    "Step",
    "StoredPool",
    "TLSMismatchError",
    "connect",
    "field_violations",
    "is_loopback",
    "score_plan",
    "score_plans",
    "status_details",
    "transport_hint",
]
