from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from triage.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
GRADE_OUTCOME_CORRECT: GradeOutcome
GRADE_OUTCOME_INCORRECT: GradeOutcome
GRADE_OUTCOME_NOT_GRADEABLE: GradeOutcome
GRADE_OUTCOME_NO_ANSWER: GradeOutcome
GRADE_OUTCOME_RUNTIME_ERROR: GradeOutcome
GRADE_OUTCOME_TIMEOUT: GradeOutcome
GRADE_OUTCOME_TRUNCATED: GradeOutcome
GRADE_OUTCOME_UNSPECIFIED: GradeOutcome
GRADE_OUTCOME_WRONG_ANSWER: GradeOutcome
REGIME_ADVISORY: Regime
REGIME_ENFORCED: Regime
REGIME_UNSPECIFIED: Regime
SOLVER_MODE_EXTENDED: SolverMode
SOLVER_MODE_STANDARD: SolverMode
SOLVER_MODE_UNSPECIFIED: SolverMode
TRACE_OUTCOME_NOT_REACHED: TraceOutcome
TRACE_OUTCOME_SCORED: TraceOutcome
TRACE_OUTCOME_STOPPED: TraceOutcome
TRACE_OUTCOME_TRUNCATED: TraceOutcome
TRACE_OUTCOME_UNSPECIFIED: TraceOutcome

class BaselineBatch(_message.Message):
    __slots__ = ["batch_ids", "cached", "missing", "requests", "resumed", "stored", "submitted", "unreported", "warning"]
    BATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    STORED_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_FIELD_NUMBER: _ClassVar[int]
    UNREPORTED_FIELD_NUMBER: _ClassVar[int]
    WARNING_FIELD_NUMBER: _ClassVar[int]
    batch_ids: _containers.RepeatedScalarFieldContainer[str]
    cached: int
    missing: int
    requests: int
    resumed: int
    stored: int
    submitted: int
    unreported: int
    warning: str
    def __init__(self, batch_ids: _Optional[_Iterable[str]] = ..., requests: _Optional[int] = ..., cached: _Optional[int] = ..., resumed: _Optional[int] = ..., submitted: _Optional[int] = ..., stored: _Optional[int] = ..., missing: _Optional[int] = ..., warning: _Optional[str] = ..., unreported: _Optional[int] = ...) -> None: ...

class BaselineItem(_message.Message):
    __slots__ = ["batch_id", "cached", "call_failed", "done", "extracted_answer", "grade_detail", "judge", "outcome", "output_tokens", "prompt_sha256", "prompt_template", "prompt_tokens", "record", "sample"]
    BATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    CALL_FAILED_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    EXTRACTED_ANSWER_FIELD_NUMBER: _ClassVar[int]
    GRADE_DETAIL_FIELD_NUMBER: _ClassVar[int]
    JUDGE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_SHA256_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SAMPLE_FIELD_NUMBER: _ClassVar[int]
    batch_id: str
    cached: bool
    call_failed: bool
    done: int
    extracted_answer: str
    grade_detail: str
    judge: JudgeCall
    outcome: GradeOutcome
    output_tokens: int
    prompt_sha256: str
    prompt_template: str
    prompt_tokens: int
    record: GroundTruthRecord
    sample: int
    def __init__(self, record: _Optional[_Union[GroundTruthRecord, _Mapping]] = ..., outcome: _Optional[_Union[GradeOutcome, str]] = ..., extracted_answer: _Optional[str] = ..., grade_detail: _Optional[str] = ..., cached: bool = ..., prompt_template: _Optional[str] = ..., prompt_sha256: _Optional[str] = ..., done: _Optional[int] = ..., call_failed: bool = ..., sample: _Optional[int] = ..., prompt_tokens: _Optional[int] = ..., batch_id: _Optional[str] = ..., output_tokens: _Optional[int] = ..., judge: _Optional[_Union[JudgeCall, _Mapping]] = ...) -> None: ...

class BaselineStarted(_message.Message):
    __slots__ = ["pending", "skipped", "stale", "total"]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    STALE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    pending: int
    skipped: int
    stale: int
    total: int
    def __init__(self, total: _Optional[int] = ..., skipped: _Optional[int] = ..., pending: _Optional[int] = ..., stale: _Optional[int] = ...) -> None: ...

class BaselineSummary(_message.Message):
    __slots__ = ["cached", "correct", "failed_calls", "gradeable", "lucky_guesses", "not_gradeable", "solved", "truncated"]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    FAILED_CALLS_FIELD_NUMBER: _ClassVar[int]
    GRADEABLE_FIELD_NUMBER: _ClassVar[int]
    LUCKY_GUESSES_FIELD_NUMBER: _ClassVar[int]
    NOT_GRADEABLE_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    cached: int
    correct: int
    failed_calls: int
    gradeable: int
    lucky_guesses: int
    not_gradeable: int
    solved: int
    truncated: int
    def __init__(self, solved: _Optional[int] = ..., gradeable: _Optional[int] = ..., correct: _Optional[int] = ..., truncated: _Optional[int] = ..., not_gradeable: _Optional[int] = ..., cached: _Optional[int] = ..., lucky_guesses: _Optional[int] = ..., failed_calls: _Optional[int] = ...) -> None: ...

class CheckEndpointsRequest(_message.Message):
    __slots__ = ["names"]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class CheckEndpointsResponse(_message.Message):
    __slots__ = ["checks", "configured", "version"]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    CONFIGURED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    checks: _containers.RepeatedCompositeFieldContainer[EndpointCheck]
    configured: _containers.RepeatedScalarFieldContainer[str]
    version: _types_pb2.VersionStamp
    def __init__(self, checks: _Optional[_Iterable[_Union[EndpointCheck, _Mapping]]] = ..., configured: _Optional[_Iterable[str]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class EndpointCheck(_message.Message):
    __slots__ = ["answered", "configured", "mode", "model", "name", "reason"]
    ANSWERED_FIELD_NUMBER: _ClassVar[int]
    CONFIGURED_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    answered: bool
    configured: bool
    mode: SolverMode
    model: str
    name: str
    reason: str
    def __init__(self, name: _Optional[str] = ..., configured: bool = ..., model: _Optional[str] = ..., mode: _Optional[_Union[SolverMode, str]] = ..., answered: bool = ..., reason: _Optional[str] = ...) -> None: ...

class ExecutePlanRequest(_message.Message):
    __slots__ = ["budget", "include_pool_items", "inline", "omit_trace", "plan", "regimes", "stored"]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_POOL_ITEMS_FIELD_NUMBER: _ClassVar[int]
    INLINE_FIELD_NUMBER: _ClassVar[int]
    OMIT_TRACE_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    REGIMES_FIELD_NUMBER: _ClassVar[int]
    STORED_FIELD_NUMBER: _ClassVar[int]
    budget: _types_pb2.Budget
    include_pool_items: bool
    inline: InlinePool
    omit_trace: bool
    plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    regimes: _containers.RepeatedScalarFieldContainer[Regime]
    stored: StoredPool
    def __init__(self, stored: _Optional[_Union[StoredPool, _Mapping]] = ..., inline: _Optional[_Union[InlinePool, _Mapping]] = ..., budget: _Optional[_Union[_types_pb2.Budget, _Mapping]] = ..., plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., regimes: _Optional[_Iterable[_Union[Regime, str]]] = ..., omit_trace: bool = ..., include_pool_items: bool = ...) -> None: ...

class ExecutePlanResponse(_message.Message):
    __slots__ = ["budget", "dropped_steps", "normalized_plan", "over_budget", "planned_tokens", "pool_items", "pool_size", "results", "total_cost", "ungradeable_problem_ids", "version"]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    DROPPED_STEPS_FIELD_NUMBER: _ClassVar[int]
    NORMALIZED_PLAN_FIELD_NUMBER: _ClassVar[int]
    OVER_BUDGET_FIELD_NUMBER: _ClassVar[int]
    PLANNED_TOKENS_FIELD_NUMBER: _ClassVar[int]
    POOL_ITEMS_FIELD_NUMBER: _ClassVar[int]
    POOL_SIZE_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COST_FIELD_NUMBER: _ClassVar[int]
    UNGRADEABLE_PROBLEM_IDS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    budget: int
    dropped_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanDrop]
    normalized_plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    over_budget: bool
    planned_tokens: int
    pool_items: _containers.RepeatedCompositeFieldContainer[_types_pb2.GroundTruthItem]
    pool_size: int
    results: _containers.RepeatedCompositeFieldContainer[RegimeResult]
    total_cost: int
    ungradeable_problem_ids: _containers.RepeatedScalarFieldContainer[str]
    version: _types_pb2.VersionStamp
    def __init__(self, budget: _Optional[int] = ..., results: _Optional[_Iterable[_Union[RegimeResult, _Mapping]]] = ..., normalized_plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., dropped_steps: _Optional[_Iterable[_Union[_types_pb2.PlanDrop, _Mapping]]] = ..., planned_tokens: _Optional[int] = ..., over_budget: bool = ..., ungradeable_problem_ids: _Optional[_Iterable[str]] = ..., pool_size: _Optional[int] = ..., total_cost: _Optional[int] = ..., pool_items: _Optional[_Iterable[_Union[_types_pb2.GroundTruthItem, _Mapping]]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class GroundTruthRecord(_message.Message):
    __slots__ = ["correct", "cost", "cost_rule", "dataset", "error", "finish_reason", "gradeable", "latency", "lucky_guess", "measured_time", "problem_id", "problem_sha256", "response_sha256", "sample", "solver", "source"]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    COST_RULE_FIELD_NUMBER: _ClassVar[int]
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    GRADEABLE_FIELD_NUMBER: _ClassVar[int]
    LATENCY_FIELD_NUMBER: _ClassVar[int]
    LUCKY_GUESS_FIELD_NUMBER: _ClassVar[int]
    MEASURED_TIME_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_ID_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_SHA256_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_SHA256_FIELD_NUMBER: _ClassVar[int]
    SAMPLE_FIELD_NUMBER: _ClassVar[int]
    SOLVER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    correct: bool
    cost: int
    cost_rule: _types_pb2.CostRule
    dataset: str
    error: str
    finish_reason: str
    gradeable: bool
    latency: _duration_pb2.Duration
    lucky_guess: bool
    measured_time: _timestamp_pb2.Timestamp
    problem_id: str
    problem_sha256: str
    response_sha256: str
    sample: int
    solver: Solver
    source: str
    def __init__(self, solver: _Optional[_Union[Solver, _Mapping]] = ..., dataset: _Optional[str] = ..., problem_id: _Optional[str] = ..., cost: _Optional[int] = ..., correct: bool = ..., gradeable: bool = ..., finish_reason: _Optional[str] = ..., latency: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., response_sha256: _Optional[str] = ..., error: _Optional[str] = ..., measured_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., lucky_guess: bool = ..., cost_rule: _Optional[_Union[_types_pb2.CostRule, str]] = ..., sample: _Optional[int] = ..., source: _Optional[str] = ..., problem_sha256: _Optional[str] = ...) -> None: ...

class ImportGroundTruthRequest(_message.Message):
    __slots__ = ["records"]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[GroundTruthRecord]
    def __init__(self, records: _Optional[_Iterable[_Union[GroundTruthRecord, _Mapping]]] = ...) -> None: ...

class ImportGroundTruthResponse(_message.Message):
    __slots__ = ["inserted", "received", "unchanged", "updated", "version"]
    INSERTED_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    inserted: int
    received: int
    unchanged: int
    updated: int
    version: _types_pb2.VersionStamp
    def __init__(self, received: _Optional[int] = ..., inserted: _Optional[int] = ..., updated: _Optional[int] = ..., unchanged: _Optional[int] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class InlinePool(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[_types_pb2.GroundTruthItem]
    def __init__(self, items: _Optional[_Iterable[_Union[_types_pb2.GroundTruthItem, _Mapping]]] = ...) -> None: ...

class JudgeCall(_message.Message):
    __slots__ = ["cached", "endpoint", "output_tokens", "prompt_tokens"]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    cached: bool
    endpoint: str
    output_tokens: int
    prompt_tokens: int
    def __init__(self, endpoint: _Optional[str] = ..., prompt_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cached: bool = ...) -> None: ...

class ListGroundTruthRequest(_message.Message):
    __slots__ = ["all_samples", "dataset", "page_size", "page_token", "solver"]
    ALL_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    DATASET_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SOLVER_FIELD_NUMBER: _ClassVar[int]
    all_samples: bool
    dataset: str
    page_size: int
    page_token: str
    solver: Solver
    def __init__(self, solver: _Optional[_Union[Solver, _Mapping]] = ..., dataset: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., all_samples: bool = ...) -> None: ...

class ListGroundTruthResponse(_message.Message):
    __slots__ = ["next_page_token", "records", "version"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    records: _containers.RepeatedCompositeFieldContainer[GroundTruthRecord]
    version: _types_pb2.VersionStamp
    def __init__(self, records: _Optional[_Iterable[_Union[GroundTruthRecord, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class Problem(_message.Message):
    __slots__ = ["dataset", "grading_json", "id", "text", "unsolvable"]
    DATASET_FIELD_NUMBER: _ClassVar[int]
    GRADING_JSON_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    UNSOLVABLE_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    grading_json: str
    id: str
    text: str
    unsolvable: bool
    def __init__(self, id: _Optional[str] = ..., dataset: _Optional[str] = ..., text: _Optional[str] = ..., grading_json: _Optional[str] = ..., unsolvable: bool = ...) -> None: ...

class RegimeResult(_message.Message):
    __slots__ = ["regime", "remaining_budget", "trace", "value"]
    REGIME_FIELD_NUMBER: _ClassVar[int]
    REMAINING_BUDGET_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    regime: Regime
    remaining_budget: int
    trace: _containers.RepeatedCompositeFieldContainer[TraceStep]
    value: float
    def __init__(self, regime: _Optional[_Union[Regime, str]] = ..., value: _Optional[float] = ..., remaining_budget: _Optional[int] = ..., trace: _Optional[_Iterable[_Union[TraceStep, _Mapping]]] = ...) -> None: ...

class RunBaselineRequest(_message.Message):
    __slots__ = ["batch", "concurrency", "endpoint", "keep_ungradeable", "problems", "rerun", "samples", "solver"]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    KEEP_UNGRADEABLE_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    RERUN_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SOLVER_FIELD_NUMBER: _ClassVar[int]
    batch: bool
    concurrency: int
    endpoint: str
    keep_ungradeable: bool
    problems: _containers.RepeatedCompositeFieldContainer[Problem]
    rerun: bool
    samples: int
    solver: Solver
    def __init__(self, solver: _Optional[_Union[Solver, _Mapping]] = ..., endpoint: _Optional[str] = ..., problems: _Optional[_Iterable[_Union[Problem, _Mapping]]] = ..., concurrency: _Optional[int] = ..., rerun: bool = ..., keep_ungradeable: bool = ..., samples: _Optional[int] = ..., batch: bool = ...) -> None: ...

class RunBaselineResponse(_message.Message):
    __slots__ = ["batch", "item", "started", "summary", "version"]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    batch: BaselineBatch
    item: BaselineItem
    started: BaselineStarted
    summary: BaselineSummary
    version: _types_pb2.VersionStamp
    def __init__(self, started: _Optional[_Union[BaselineStarted, _Mapping]] = ..., item: _Optional[_Union[BaselineItem, _Mapping]] = ..., summary: _Optional[_Union[BaselineSummary, _Mapping]] = ..., batch: _Optional[_Union[BaselineBatch, _Mapping]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class Solver(_message.Message):
    __slots__ = ["mode", "model"]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    mode: SolverMode
    model: str
    def __init__(self, model: _Optional[str] = ..., mode: _Optional[_Union[SolverMode, str]] = ...) -> None: ...

class StoredPool(_message.Message):
    __slots__ = ["dataset", "problem_ids", "solver"]
    DATASET_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_IDS_FIELD_NUMBER: _ClassVar[int]
    SOLVER_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    problem_ids: _containers.RepeatedScalarFieldContainer[str]
    solver: Solver
    def __init__(self, solver: _Optional[_Union[Solver, _Mapping]] = ..., dataset: _Optional[str] = ..., problem_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TraceStep(_message.Message):
    __slots__ = ["correct", "cost", "gain", "id", "outcome", "remaining_budget", "tokens"]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    REMAINING_BUDGET_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    correct: bool
    cost: int
    gain: float
    id: str
    outcome: TraceOutcome
    remaining_budget: int
    tokens: int
    def __init__(self, id: _Optional[str] = ..., tokens: _Optional[int] = ..., cost: _Optional[int] = ..., correct: bool = ..., outcome: _Optional[_Union[TraceOutcome, str]] = ..., gain: _Optional[float] = ..., remaining_budget: _Optional[int] = ...) -> None: ...

class SolverMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Regime(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TraceOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class GradeOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
