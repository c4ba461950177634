from google.api import annotations_pb2 as _annotations_pb2
from google.rpc import status_pb2 as _status_pb2
from triage.v1 import executor_pb2 as _executor_pb2
from triage.v1 import oracle_pb2 as _oracle_pb2
from triage.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DEGENERACY_COLLAPSE: Degeneracy
DEGENERACY_INFORMATIVE: Degeneracy
DEGENERACY_NO_VALUE: Degeneracy
DEGENERACY_UNSPECIFIED: Degeneracy
DESCRIPTOR: _descriptor.FileDescriptor

class BudgetScore(_message.Message):
    __slots__ = ["alpha", "budget", "decomposition", "degeneracy", "oracle", "over_budget", "random", "regimes"]
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    DECOMPOSITION_FIELD_NUMBER: _ClassVar[int]
    DEGENERACY_FIELD_NUMBER: _ClassVar[int]
    ORACLE_FIELD_NUMBER: _ClassVar[int]
    OVER_BUDGET_FIELD_NUMBER: _ClassVar[int]
    RANDOM_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    budget: int
    decomposition: RegretDecomposition
    degeneracy: Degeneracy
    oracle: _oracle_pb2.OracleReference
    over_budget: bool
    random: _oracle_pb2.RandomReference
    regimes: _containers.RepeatedCompositeFieldContainer[RegimeScore]
    def __init__(self, budget: _Optional[int] = ..., alpha: _Optional[float] = ..., over_budget: bool = ..., oracle: _Optional[_Union[_oracle_pb2.OracleReference, _Mapping]] = ..., random: _Optional[_Union[_oracle_pb2.RandomReference, _Mapping]] = ..., degeneracy: _Optional[_Union[Degeneracy, str]] = ..., regimes: _Optional[_Iterable[_Union[RegimeScore, _Mapping]]] = ..., decomposition: _Optional[_Union[RegretDecomposition, _Mapping]] = ...) -> None: ...

class InjectionScore(_message.Message):
    __slots__ = ["detection", "unsolvable", "waste"]
    DETECTION_FIELD_NUMBER: _ClassVar[int]
    UNSOLVABLE_FIELD_NUMBER: _ClassVar[int]
    WASTE_FIELD_NUMBER: _ClassVar[int]
    detection: float
    unsolvable: int
    waste: float
    def __init__(self, unsolvable: _Optional[int] = ..., detection: _Optional[float] = ..., waste: _Optional[float] = ...) -> None: ...

class PlanDiagnostics(_message.Message):
    __slots__ = ["cost_forecast", "precision", "recall", "under_allocation"]
    COST_FORECAST_FIELD_NUMBER: _ClassVar[int]
    PRECISION_FIELD_NUMBER: _ClassVar[int]
    RECALL_FIELD_NUMBER: _ClassVar[int]
    UNDER_ALLOCATION_FIELD_NUMBER: _ClassVar[int]
    cost_forecast: float
    precision: float
    recall: float
    under_allocation: float
    def __init__(self, precision: _Optional[float] = ..., recall: _Optional[float] = ..., cost_forecast: _Optional[float] = ..., under_allocation: _Optional[float] = ...) -> None: ...

class RegimeScore(_message.Message):
    __slots__ = ["eta", "regime", "regret", "remaining_budget", "trace", "value"]
    ETA_FIELD_NUMBER: _ClassVar[int]
    REGIME_FIELD_NUMBER: _ClassVar[int]
    REGRET_FIELD_NUMBER: _ClassVar[int]
    REMAINING_BUDGET_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    eta: float
    regime: _executor_pb2.Regime
    regret: float
    remaining_budget: int
    trace: _containers.RepeatedCompositeFieldContainer[_executor_pb2.TraceStep]
    value: float
    def __init__(self, regime: _Optional[_Union[_executor_pb2.Regime, str]] = ..., value: _Optional[float] = ..., remaining_budget: _Optional[int] = ..., eta: _Optional[float] = ..., regret: _Optional[float] = ..., trace: _Optional[_Iterable[_Union[_executor_pb2.TraceStep, _Mapping]]] = ...) -> None: ...

class RegretDecomposition(_message.Message):
    __slots__ = ["enforcement", "order", "planned_value", "selection"]
    ENFORCEMENT_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PLANNED_VALUE_FIELD_NUMBER: _ClassVar[int]
    SELECTION_FIELD_NUMBER: _ClassVar[int]
    enforcement: float
    order: float
    planned_value: float
    selection: float
    def __init__(self, planned_value: _Optional[float] = ..., selection: _Optional[float] = ..., order: _Optional[float] = ..., enforcement: _Optional[float] = ...) -> None: ...

class ScorePlanRequest(_message.Message):
    __slots__ = ["budgets", "inline", "options", "plan", "regimes", "stored", "unsolvable"]
    BUDGETS_FIELD_NUMBER: _ClassVar[int]
    INLINE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    STORED_FIELD_NUMBER: _ClassVar[int]
    UNSOLVABLE_FIELD_NUMBER: _ClassVar[int]
    budgets: _containers.RepeatedCompositeFieldContainer[_types_pb2.Budget]
    inline: _executor_pb2.InlinePool
    options: ScoringOptions
    plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    regimes: _containers.RepeatedScalarFieldContainer[_executor_pb2.Regime]
    stored: _executor_pb2.StoredPool
    unsolvable: UnsolvableItems
    def __init__(self, stored: _Optional[_Union[_executor_pb2.StoredPool, _Mapping]] = ..., inline: _Optional[_Union[_executor_pb2.InlinePool, _Mapping]] = ..., budgets: _Optional[_Iterable[_Union[_types_pb2.Budget, _Mapping]]] = ..., plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., regimes: _Optional[_Iterable[_Union[_executor_pb2.Regime, str]]] = ..., unsolvable: _Optional[_Union[UnsolvableItems, _Mapping]] = ..., options: _Optional[_Union[ScoringOptions, _Mapping]] = ...) -> None: ...

class ScorePlanResponse(_message.Message):
    __slots__ = ["diagnostics", "dropped_steps", "injection", "normalized_plan", "planned_tokens", "pool_size", "scores", "total_cost", "total_value", "ungradeable_problem_ids", "version"]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    DROPPED_STEPS_FIELD_NUMBER: _ClassVar[int]
    INJECTION_FIELD_NUMBER: _ClassVar[int]
    NORMALIZED_PLAN_FIELD_NUMBER: _ClassVar[int]
    PLANNED_TOKENS_FIELD_NUMBER: _ClassVar[int]
    POOL_SIZE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COST_FIELD_NUMBER: _ClassVar[int]
    TOTAL_VALUE_FIELD_NUMBER: _ClassVar[int]
    UNGRADEABLE_PROBLEM_IDS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    diagnostics: PlanDiagnostics
    dropped_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanDrop]
    injection: InjectionScore
    normalized_plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    planned_tokens: int
    pool_size: int
    scores: _containers.RepeatedCompositeFieldContainer[BudgetScore]
    total_cost: int
    total_value: float
    ungradeable_problem_ids: _containers.RepeatedScalarFieldContainer[str]
    version: _types_pb2.VersionStamp
    def __init__(self, scores: _Optional[_Iterable[_Union[BudgetScore, _Mapping]]] = ..., normalized_plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., dropped_steps: _Optional[_Iterable[_Union[_types_pb2.PlanDrop, _Mapping]]] = ..., planned_tokens: _Optional[int] = ..., ungradeable_problem_ids: _Optional[_Iterable[str]] = ..., pool_size: _Optional[int] = ..., total_cost: _Optional[int] = ..., total_value: _Optional[float] = ..., injection: _Optional[_Union[InjectionScore, _Mapping]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ..., diagnostics: _Optional[_Union[PlanDiagnostics, _Mapping]] = ...) -> None: ...

class ScorePlansRequest(_message.Message):
    __slots__ = ["requests"]
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[ScorePlanRequest]
    def __init__(self, requests: _Optional[_Iterable[_Union[ScorePlanRequest, _Mapping]]] = ...) -> None: ...

class ScorePlansResponse(_message.Message):
    __slots__ = ["error", "index", "result", "version"]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    error: _status_pb2.Status
    index: int
    result: ScorePlanResponse
    version: _types_pb2.VersionStamp
    def __init__(self, index: _Optional[int] = ..., result: _Optional[_Union[ScorePlanResponse, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class ScoringOptions(_message.Message):
    __slots__ = ["include_oracle_plan", "include_trace", "random"]
    INCLUDE_ORACLE_PLAN_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TRACE_FIELD_NUMBER: _ClassVar[int]
    RANDOM_FIELD_NUMBER: _ClassVar[int]
    include_oracle_plan: bool
    include_trace: bool
    random: _oracle_pb2.RandomReferenceOptions
    def __init__(self, random: _Optional[_Union[_oracle_pb2.RandomReferenceOptions, _Mapping]] = ..., include_trace: bool = ..., include_oracle_plan: bool = ...) -> None: ...

class UnsolvableItems(_message.Message):
    __slots__ = ["ids"]
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class Degeneracy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
