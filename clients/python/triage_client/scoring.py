"""The Scoring service (SPEC §10) with typed requests and results.

:func:`score_plan` scores one plan on one pool and returns a
:class:`ScoreResult`; :func:`score_plans` scores a batch and yields one
:class:`BatchOutcome` per request, in request order, each with its result or
its own error. Both take a channel (or a ``ScoringServiceStub``) and build
the protobuf request from plain values; the results are frozen dataclasses,
not protobuf messages. Enumerations are the lower-case names of the proto's
values without their prefix ("advisory", "informative", "monte_carlo").

A failed :func:`score_plan` raises ``grpc.RpcError`` as every stub does;
:func:`triage_client.field_violations` decodes an INVALID_ARGUMENT's fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import grpc
from google.rpc import error_details_pb2, status_pb2

from triage.v1 import executor_pb2, oracle_pb2, scoring_pb2, scoring_pb2_grpc, types_pb2


@dataclass(frozen=True)
class PoolItem:
    """One problem of an inline pool with one solver's ground truth."""

    id: str
    #: Tokens the solver spent on it.
    cost: int
    #: Whether the solver's answer was correct.
    correct: bool
    #: Its value v_i; None means 1.
    value: Optional[float] = None


@dataclass(frozen=True)
class StoredPool:
    """A pool of ground truth stored by the Executor."""

    #: The solver's model and mode ("standard" or "extended").
    model: str
    mode: str
    dataset: str
    problem_ids: Sequence[str]


@dataclass(frozen=True)
class Step:
    """One plan step: a problem and the tokens committed to it."""

    id: str
    tokens: int


@dataclass(frozen=True)
class Budget:
    """A budget: tokens, or alpha, a fraction of the pool's total cost;
    exactly one of them."""

    tokens: Optional[int] = None
    alpha: Optional[float] = None

    def __post_init__(self) -> None:
        if (self.tokens is None) == (self.alpha is None):
            raise ValueError("a Budget is tokens or alpha, exactly one")


@dataclass(frozen=True)
class ScoreRequest:
    """One plan to score on one pool (a ScorePlanRequest)."""

    #: The pool: inline items (PoolItem, or types_pb2.GroundTruthItem) or a
    #: StoredPool.
    pool: Union[Sequence[PoolItem], StoredPool]
    #: The plan as the planner gave it (Step, or types_pb2.PlanStep).
    plan: Sequence[Step]
    #: The budgets, in the order the results are wanted; at least one.
    budgets: Sequence[Budget]
    #: "advisory" and/or "enforced"; empty means both.
    regimes: Sequence[str] = ()
    #: Ids of the pool's injected unsolvable items; None when the pool has
    #: none (detection and waste are then not computed).
    unsolvable: Optional[Sequence[str]] = None
    #: The random reference: "monte_carlo" (the default) or "exact", the
    #: Monte Carlo samples (None: the server's 1000) and seed.
    random_method: Optional[str] = None
    random_samples: Optional[int] = None
    random_seed: int = 0
    include_trace: bool = False
    include_oracle_plan: bool = False


@dataclass(frozen=True)
class Version:
    """What computed a result (SPEC §10)."""

    protocol: str
    spec_revision: str
    binary_version: str
    vcs_revision: str


@dataclass(frozen=True)
class TraceEntry:
    """One step of a regime's execution."""

    id: str
    tokens: int
    cost: int
    correct: bool
    #: "scored", "truncated", "stopped" or "not_reached".
    outcome: str
    gain: float
    remaining_budget: int


@dataclass(frozen=True)
class RegimeResult:
    """The plan's score at one budget under one regime."""

    #: "advisory" or "enforced".
    regime: str
    #: V_M.
    value: float
    remaining_budget: int
    #: Triage efficiency η (set by convention on a degenerate pool).
    eta: float
    #: Normalized regret R̃; None when V_oracle = 0.
    regret: Optional[float]
    trace: Tuple[TraceEntry, ...] = ()


@dataclass(frozen=True)
class OracleReference:
    """V_oracle, the tokens an optimal plan spends, and the plan when asked."""

    value: float
    cost: int
    plan: Tuple[Step, ...] = ()


@dataclass(frozen=True)
class RandomReference:
    """V_random with its standard error and how it was computed."""

    mean: float
    standard_error: float
    samples: int
    #: "monte_carlo" or "exact".
    method: str
    seed: int


@dataclass(frozen=True)
class Decomposition:
    """The regret decomposition at one budget (SPEC §5): where the plan lost
    value, each term divided by V_oracle. selection + order is the advisory
    regret, selection + order + enforcement the enforced one."""

    #: V_S: the best advisory value of a subset of the planned set that fits
    #: the budget.
    planned_value: float
    #: (V_oracle − V_S) / V_oracle ≥ 0: what the chosen set could not reach.
    selection: float
    #: (V_S − V_U) / V_oracle ≥ 0: what the order and the early stop lost.
    order: float
    #: (V_U − V_E) / V_oracle, signed: what binding the allocations cost
    #: (negative when it helped).
    enforcement: float


@dataclass(frozen=True)
class Diagnostics:
    """The plan diagnostics (SPEC §5), the same at every budget; each is None
    where undefined. S is the planned set, Y the solvable items."""

    #: |S ∩ Y| / |S|; None when S is empty.
    precision: Optional[float]
    #: |S ∩ Y| / |Y|; None when Y is empty.
    recall: Optional[float]
    #: The median of log2(a_i / c_i) over S (0: exact, −1: half the cost);
    #: None when S is empty.
    cost_forecast: Optional[float]
    #: The share of S ∩ Y allocated less than its cost; None when S ∩ Y is
    #: empty.
    under_allocation: Optional[float]


@dataclass(frozen=True)
class BudgetResult:
    """The plan's score at one budget."""

    #: The effective budget in tokens.
    budget: int
    #: The α it was derived from, when given as a fraction.
    alpha: Optional[float]
    over_budget: bool
    oracle: OracleReference
    random: RandomReference
    #: "informative", "no_value" or "collapse" (SPEC §5).
    degeneracy: str
    regimes: Tuple[RegimeResult, ...]
    #: The regret decomposition; None when V_oracle = 0.
    decomposition: Optional[Decomposition] = None

    def regime(self, name: str) -> RegimeResult:
        """Returns the result under regime name ("advisory", "enforced")."""
        for r in self.regimes:
            if r.regime == name:
                return r
        raise KeyError(name)


@dataclass(frozen=True)
class Drop:
    """A plan step normalization removed."""

    index: int
    id: str
    tokens: int
    #: "unknown_id", "duplicate", "negative" or "zero".
    reason: str


@dataclass(frozen=True)
class Injection:
    """Detection and waste on a pool with flagged unsolvable items."""

    unsolvable: int
    #: D; None when no item is flagged.
    detection: Optional[float]
    #: W.
    waste: float


@dataclass(frozen=True)
class ScoreResult:
    """One plan's score on one pool (a ScorePlanResponse)."""

    #: One per requested budget, in request order.
    scores: Tuple[BudgetResult, ...]
    normalized_plan: Tuple[Step, ...]
    dropped_steps: Tuple[Drop, ...]
    planned_tokens: int
    ungradeable_problem_ids: Tuple[str, ...]
    pool_size: int
    total_cost: int
    total_value: float
    injection: Optional[Injection]
    #: None inside a batch, whose outcome carries it.
    version: Optional[Version]
    #: The plan diagnostics (None only from a server that predates them).
    diagnostics: Optional[Diagnostics] = None


@dataclass(frozen=True)
class FieldViolation:
    """One invalid field of a request."""

    field: str
    description: str


@dataclass(frozen=True)
class ScoreError:
    """Why one request of a batch could not be scored."""

    code: grpc.StatusCode
    message: str
    #: The request's invalid fields, for INVALID_ARGUMENT.
    field_violations: Tuple[FieldViolation, ...] = ()


@dataclass(frozen=True)
class BatchOutcome:
    """The outcome of one request of a batch: result or error."""

    #: The request's position in the batch, from 0.
    index: int
    result: Optional[ScoreResult]
    error: Optional[ScoreError]
    version: Optional[Version] = field(default=None)


def score_plan(
    target,
    *,
    timeout: Optional[float] = None,
    metadata: Optional[Sequence[Tuple[str, str]]] = None,
    **request,
) -> ScoreResult:
    """Scores one plan on one pool: target is a channel (see
    :func:`triage_client.connect`) or a ScoringServiceStub, the keyword
    arguments are the fields of :class:`ScoreRequest` (pool, plan, budgets,
    regimes, unsolvable, random_method, random_samples, random_seed,
    include_trace, include_oracle_plan). Raises grpc.RpcError when the call fails."""
    resp = _stub(target).ScorePlan(to_proto(ScoreRequest(**request)), timeout=timeout, metadata=metadata)
    return from_proto(resp)


def score_plans(
    target,
    requests: Iterable[ScoreRequest],
    *,
    timeout: Optional[float] = None,
    metadata: Optional[Sequence[Tuple[str, str]]] = None,
) -> Iterator[BatchOutcome]:
    """Scores a batch of requests in one streamed call and yields their
    outcomes in request order; a bad request gets its own error and does not
    fail the others. Raises grpc.RpcError when the call as a whole fails."""
    batch = scoring_pb2.ScorePlansRequest(requests=[to_proto(r) for r in requests])
    for resp in _stub(target).ScorePlans(batch, timeout=timeout, metadata=metadata):
        result, error = None, None
        if resp.HasField("result"):
            result = from_proto(resp.result)
        else:
            error = _error(resp.error)
        yield BatchOutcome(resp.index, result, error, _version(resp))


def to_proto(r: ScoreRequest) -> scoring_pb2.ScorePlanRequest:
    """Returns the ScorePlanRequest r describes."""
    out = scoring_pb2.ScorePlanRequest(
        budgets=[_budget(b) for b in r.budgets],
        plan=[types_pb2.PlanStep(id=s.id, tokens=s.tokens) for s in r.plan],
        regimes=[executor_pb2.Regime.Value("REGIME_" + g.upper()) for g in r.regimes],
        options=scoring_pb2.ScoringOptions(
            random=oracle_pb2.RandomReferenceOptions(
                method=oracle_pb2.RandomMethod.Value("RANDOM_METHOD_" + (r.random_method or "unspecified").upper()),
                samples=r.random_samples or 0,
                seed=r.random_seed,
            ),
            include_trace=r.include_trace,
            include_oracle_plan=r.include_oracle_plan,
        ),
    )
    if isinstance(r.pool, StoredPool):
        out.stored.CopyFrom(
            executor_pb2.StoredPool(
                solver=executor_pb2.Solver(
                    model=r.pool.model, mode=executor_pb2.SolverMode.Value("SOLVER_MODE_" + r.pool.mode.upper())
                ),
                dataset=r.pool.dataset,
                problem_ids=list(r.pool.problem_ids),
            )
        )
    else:
        out.inline.CopyFrom(executor_pb2.InlinePool(items=[_item(i) for i in r.pool]))
    if r.unsolvable is not None:
        out.unsolvable.CopyFrom(scoring_pb2.UnsolvableItems(ids=list(r.unsolvable)))
    return out


def from_proto(m: scoring_pb2.ScorePlanResponse) -> ScoreResult:
    """Returns the ScoreResult of a ScorePlanResponse."""
    injection = None
    if m.HasField("injection"):
        i = m.injection
        injection = Injection(i.unsolvable, i.detection if i.HasField("detection") else None, i.waste)
    return ScoreResult(
        scores=tuple(_budget_result(b) for b in m.scores),
        normalized_plan=tuple(Step(s.id, s.tokens) for s in m.normalized_plan),
        dropped_steps=tuple(
            Drop(d.index, d.id, d.tokens, _enum(types_pb2.PlanDropReason, d.reason, "PLAN_DROP_REASON_"))
            for d in m.dropped_steps
        ),
        planned_tokens=m.planned_tokens,
        ungradeable_problem_ids=tuple(m.ungradeable_problem_ids),
        pool_size=m.pool_size,
        total_cost=m.total_cost,
        total_value=m.total_value,
        injection=injection,
        version=_version(m),
        diagnostics=_diagnostics(m.diagnostics) if m.HasField("diagnostics") else None,
    )


def _stub(target) -> scoring_pb2_grpc.ScoringServiceStub:
    if hasattr(target, "ScorePlan"):
        return target
    return scoring_pb2_grpc.ScoringServiceStub(target)


def _budget(b: Budget) -> types_pb2.Budget:
    return types_pb2.Budget(tokens=b.tokens) if b.tokens is not None else types_pb2.Budget(alpha=b.alpha)


def _item(i) -> types_pb2.GroundTruthItem:
    if isinstance(i, types_pb2.GroundTruthItem):
        return i
    out = types_pb2.GroundTruthItem(id=i.id, cost=i.cost, correct=i.correct)
    if i.value is not None:
        out.value = i.value
    return out


def _enum(enum, number: int, prefix: str) -> str:
    name = enum.Name(number) if number in enum.values() else str(number)
    return name[len(prefix):].lower() if name.startswith(prefix) else name.lower()


def _version(m) -> Optional[Version]:
    if not m.HasField("version"):
        return None
    v = m.version
    return Version(v.protocol, v.spec_revision, v.binary_version, v.vcs_revision)


def _budget_result(b: scoring_pb2.BudgetScore) -> BudgetResult:
    o, r = b.oracle, b.random
    return BudgetResult(
        budget=b.budget,
        alpha=b.alpha if b.HasField("alpha") else None,
        over_budget=b.over_budget,
        oracle=OracleReference(o.value, o.cost, tuple(Step(s.id, s.tokens) for s in o.plan)),
        random=RandomReference(
            r.mean, r.standard_error, r.samples, _enum(oracle_pb2.RandomMethod, r.method, "RANDOM_METHOD_"), r.seed
        ),
        degeneracy=_enum(scoring_pb2.Degeneracy, b.degeneracy, "DEGENERACY_"),
        regimes=tuple(_regime_result(g) for g in b.regimes),
        decomposition=_decomposition(b.decomposition) if b.HasField("decomposition") else None,
    )


def _decomposition(d: scoring_pb2.RegretDecomposition) -> Decomposition:
    return Decomposition(d.planned_value, d.selection, d.order, d.enforcement)


def _diagnostics(d: scoring_pb2.PlanDiagnostics) -> Diagnostics:
    def opt(name: str) -> Optional[float]:
        return getattr(d, name) if d.HasField(name) else None

    return Diagnostics(opt("precision"), opt("recall"), opt("cost_forecast"), opt("under_allocation"))


def _regime_result(g: scoring_pb2.RegimeScore) -> RegimeResult:
    return RegimeResult(
        regime=_enum(executor_pb2.Regime, g.regime, "REGIME_"),
        value=g.value,
        remaining_budget=g.remaining_budget,
        eta=g.eta,
        regret=g.regret if g.HasField("regret") else None,
        trace=tuple(
            TraceEntry(
                t.id, t.tokens, t.cost, t.correct,
                _enum(executor_pb2.TraceOutcome, t.outcome, "TRACE_OUTCOME_"),
                t.gain, t.remaining_budget,
            )
            for t in g.trace
        ),
    )


def _error(s: status_pb2.Status) -> ScoreError:
    violations: List[FieldViolation] = []
    for detail in s.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
    code = next((c for c in grpc.StatusCode if c.value[0] == s.code), grpc.StatusCode.UNKNOWN)
    return ScoreError(code, s.message, tuple(violations))
