"""The Scoring service (SPEC §10) with typed requests and results.

:func:`score_plan` scores one plan on one pool and returns a
:class:`ScoreResult`; :func:`score_plans` scores a batch and yields one
:class:`BatchOutcome` per request, in request order, each with its result or
its own error. Both take a channel (or a ``ScoringServiceStub``) and build
the protobuf request from plain values; the results are frozen dataclasses,
not protobuf messages. Enumerations are the lower-case names of the proto's
values without their prefix ("advisory", "informative", "monte_carlo"); a
request may also give the proto's names ("REGIME_ENFORCED").

A value the request cannot carry (a cost of 1200.7, a seed of -1, an unknown
regime) is a TypeError or ValueError naming the field as the server does
("inline.items[0].cost: ..."), raised before anything is sent. A failed
:func:`score_plan` raises ``grpc.RpcError`` as every stub does (a
:class:`~triage_client.errors.TLSMismatchError`, with a hint, when the
client and the server disagree on TLS);
:func:`triage_client.field_violations` decodes an INVALID_ARGUMENT's fields.
"""

from __future__ import annotations

import collections.abc
import numbers
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import grpc
from google.rpc import error_details_pb2, status_pb2

from triage.v1 import executor_pb2, oracle_pb2, scoring_pb2, scoring_pb2_grpc, types_pb2
from triage_client.errors import TLSMismatchError, transport_hint


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
            given = "both" if self.tokens is not None else "neither"
            raise ValueError(
                f"Budget(tokens={self.tokens!r}, alpha={self.alpha!r}): "
                f"give tokens or alpha, exactly one, not {given}")


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
    include_trace, include_oracle_plan).

    Raises TypeError or ValueError naming the field (see :func:`to_proto`),
    before sending anything, when a value cannot be encoded; grpc.RpcError
    when the call fails (a TLSMismatchError when the error says the client
    and the server disagree on TLS)."""
    req = to_proto(ScoreRequest(**request))
    try:
        resp = _stub(target).ScorePlan(req, timeout=timeout, metadata=metadata)
    except grpc.RpcError as err:
        _raise_with_hint(err)
        raise
    return from_proto(resp)


def score_plans(
    target,
    requests: Iterable[ScoreRequest],
    *,
    timeout: Optional[float] = None,
    metadata: Optional[Sequence[Tuple[str, str]]] = None,
) -> Iterator[BatchOutcome]:
    """Scores a batch of requests in one streamed call and returns an
    iterator of their outcomes in request order; a request the server
    refuses gets its own error (BatchOutcome.error) and does not fail the
    others.

    A request the client cannot encode is the caller's bug, not an outcome:
    this function raises TypeError or ValueError naming it and its field
    ("requests[3].inline.items[0].cost: ..."), and refuses the whole batch
    before anything is sent. The iteration raises grpc.RpcError when the
    call as a whole fails (a TLSMismatchError, with a hint, when the client
    and the server disagree on TLS)."""
    batch = scoring_pb2.ScorePlansRequest(
        requests=[to_proto(r, f"requests[{i}].") for i, r in enumerate(requests)]
    )
    return _outcomes(_stub(target), batch, timeout, metadata)


def _outcomes(stub, batch, timeout, metadata) -> Iterator[BatchOutcome]:
    """Calls ScorePlans with batch and yields its outcomes."""
    try:
        for resp in stub.ScorePlans(batch, timeout=timeout, metadata=metadata):
            result, error = None, None
            if resp.HasField("result"):
                result = from_proto(resp.result)
            else:
                error = _error(resp.error)
            yield BatchOutcome(resp.index, result, error, _version(resp))
    except grpc.RpcError as err:
        _raise_with_hint(err)
        raise


def to_proto(r: ScoreRequest, path: str = "") -> scoring_pb2.ScorePlanRequest:
    """Returns the ScorePlanRequest r describes.

    A value the request cannot carry raises a TypeError (a wrong type: a
    float or a bool for a whole number, a non-Budget budget) or a ValueError
    (an integer out of its field's range, an unknown enumeration name)
    naming the field as the server names it, after path: "budgets[0]",
    "inline.items[2].cost", "options.random.seed". The ranges are those of
    the wire: int64 for costs and tokens, [0, 2^31 − 1] for the sample
    count, uint64 for the seed; the server checks the rest.
    """
    if not isinstance(r, ScoreRequest):
        raise TypeError(f"{path.rstrip('.') or 'request'}: must be a ScoreRequest, got {_show(r)}")
    out = scoring_pb2.ScorePlanRequest()
    for i, b in _seq(path + "budgets", r.budgets):
        at = f"{path}budgets[{i}]"
        if not isinstance(b, Budget):
            raise TypeError(f"{at}: must be a Budget, got {_show(b)}")
        if b.tokens is not None:
            out.budgets.add(tokens=_int(at + ".tokens", b.tokens, *_INT64))
        else:
            out.budgets.add(alpha=_float(at + ".alpha", b.alpha))
    for i, s in _seq(path + "plan", r.plan):
        at = f"{path}plan[{i}]"
        sid, tokens = _attrs(at, s, "Step", "id", "tokens")
        out.plan.add(id=_str(at + ".id", sid), tokens=_int(at + ".tokens", tokens, *_INT64))
    for i, g in _seq(path + "regimes", r.regimes):
        at = f"{path}regimes[{i}]"
        out.regimes.append(_enum_value(at, g, executor_pb2.Regime, "REGIME_", "regime", ("advisory", "enforced")))
    at = path + "options.random"
    rnd = out.options.random
    if r.random_method is not None:
        rnd.method = _enum_value(
            at + ".method", r.random_method, oracle_pb2.RandomMethod, "RANDOM_METHOD_", "method", ("monte_carlo", "exact")
        )
    if r.random_samples is not None:
        rnd.samples = _int(at + ".samples", r.random_samples, 0, (1 << 31) - 1)
    if r.random_seed is not None:
        rnd.seed = _int(at + ".seed", r.random_seed, *_UINT64)
    rnd.SetInParent()
    for name in ("include_trace", "include_oracle_plan"):
        if getattr(r, name) is not None:
            setattr(out.options, name, _bool(f"{path}options.{name}", getattr(r, name)))
    if isinstance(r.pool, StoredPool):
        at, p = path + "stored", r.pool
        out.stored.solver.model = _str(at + ".solver.model", p.model)
        out.stored.solver.mode = _enum_value(
            at + ".solver.mode", p.mode, executor_pb2.SolverMode, "SOLVER_MODE_", "mode", ("standard", "extended")
        )
        out.stored.dataset = _str(at + ".dataset", p.dataset)
        for i, pid in _seq(at + ".problem_ids", p.problem_ids):
            out.stored.problem_ids.append(_str(f"{at}.problem_ids[{i}]", pid))
    else:
        for i, it in _seq(path + "inline.items", r.pool):
            out.inline.items.append(_item(f"{path}inline.items[{i}]", it))
        out.inline.SetInParent()
    if r.unsolvable is not None:
        for i, u in _seq(path + "unsolvable.ids", r.unsolvable):
            out.unsolvable.ids.append(_str(f"{path}unsolvable.ids[{i}]", u))
        out.unsolvable.SetInParent()
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


def _raise_with_hint(err: grpc.RpcError) -> None:
    """Raises a TLSMismatchError from err when err says the client and the
    server disagree on TLS; returns otherwise."""
    hint = transport_hint(err)
    if hint:
        raise TLSMismatchError(err, hint) from err


def _item(at: str, i) -> types_pb2.GroundTruthItem:
    if isinstance(i, types_pb2.GroundTruthItem):
        return i
    iid, cost, correct = _attrs(at, i, "PoolItem", "id", "cost", "correct")
    out = types_pb2.GroundTruthItem(
        id=_str(at + ".id", iid), cost=_int(at + ".cost", cost, *_INT64), correct=_bool(at + ".correct", correct)
    )
    value = getattr(i, "value", None)
    if value is not None:
        out.value = _float(at + ".value", value)
    return out


# The ranges of int64 and uint64 fields.
_INT64 = (-(1 << 63), (1 << 63) - 1)
_UINT64 = (0, (1 << 64) - 1)


def _show(v) -> str:
    """v in an error message: its repr, with its type unless it is an int."""
    return repr(v) if type(v) is int else f"{v!r} ({type(v).__name__})"


def _seq(at: str, v) -> Iterator[Tuple[int, object]]:
    """Enumerates v, a sequence (not a str), or raises a TypeError naming at."""
    if isinstance(v, (str, bytes)) or not isinstance(v, collections.abc.Iterable):
        raise TypeError(f"{at}: must be a list, got {_show(v)}")
    return enumerate(v)


def _attrs(at: str, obj, kind: str, *names: str) -> list:
    """Returns the attributes names of obj, or raises a TypeError naming at
    when obj has not got them (is not a kind)."""
    try:
        return [getattr(obj, n) for n in names]
    except AttributeError:
        raise TypeError(f"{at}: must be a {kind}, got {_show(obj)}") from None


def _int(at: str, v, lo: int, hi: int) -> int:
    """Returns v, a whole number in [lo, hi] (not a bool, not a float), or
    raises a TypeError or ValueError naming at."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{at}: must be a whole number from {lo} to {hi}, got {_show(v)}")
    if not lo <= v <= hi:
        raise ValueError(f"{at}: must be a whole number from {lo} to {hi}, got {v}")
    return int(v)


def _float(at: str, v) -> float:
    """Returns v, a real number (not a bool), as a float, or raises a
    TypeError naming at. Its range is the server's to check."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError(f"{at}: must be a number, got {_show(v)}")
    return float(v)


def _bool(at: str, v) -> bool:
    """Returns v, a bool (or the int 0 or 1), or raises a TypeError naming at."""
    if isinstance(v, bool) or (isinstance(v, numbers.Integral) and v in (0, 1)):
        return bool(v)
    raise TypeError(f"{at}: must be True or False, got {_show(v)}")


def _str(at: str, v) -> str:
    """Returns v, a str, or raises a TypeError naming at."""
    if not isinstance(v, str):
        raise TypeError(f"{at}: must be a str, got {_show(v)}")
    return v


def _enum_value(at: str, v, enum, prefix: str, kind: str, names: Sequence[str]) -> int:
    """Returns the number of the value of enum named v, one of names in any
    case, with or without prefix ("enforced", "REGIME_ENFORCED"); raises a
    ValueError (TypeError) naming at for any other."""
    if not isinstance(v, str):
        raise TypeError(f"{at}: must be a str, got {_show(v)}")
    name = v.upper()
    if name.startswith(prefix):
        name = name[len(prefix):]
    if name.lower() in names:
        return enum.Value(prefix + name)
    choices = " or ".join(f'"{n}"' for n in names)
    raise ValueError(f'{at}: unknown {kind} "{v}"; use {choices}')


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
