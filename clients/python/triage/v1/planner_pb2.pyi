from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from triage.v1 import executor_pb2 as _executor_pb2
from triage.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PARSE_STATUS_OK: ParseStatus
PARSE_STATUS_REPAIRED: ParseStatus
PARSE_STATUS_UNPARSEABLE: ParseStatus
PARSE_STATUS_UNSPECIFIED: ParseStatus
PLANNER_STRATEGY_ALL_IN_ORDER: PlannerStrategy
PLANNER_STRATEGY_LLM: PlannerStrategy
PLANNER_STRATEGY_RANDOM: PlannerStrategy
PLANNER_STRATEGY_SHORTEST_FIRST: PlannerStrategy
PLANNER_STRATEGY_UNSPECIFIED: PlannerStrategy
PROMPT_VARIANT_AGENT: PromptVariant
PROMPT_VARIANT_DEFAULT: PromptVariant
PROMPT_VARIANT_EXAM: PromptVariant
PROMPT_VARIANT_NEUTRAL: PromptVariant
PROMPT_VARIANT_UNSPECIFIED: PromptVariant

class ConfiguredEndpoint(_message.Message):
    __slots__ = ["family", "max_output_tokens", "mode", "model", "name", "settings_sha256", "unusable"]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_SHA256_FIELD_NUMBER: _ClassVar[int]
    UNUSABLE_FIELD_NUMBER: _ClassVar[int]
    family: str
    max_output_tokens: int
    mode: _executor_pb2.SolverMode
    model: str
    name: str
    settings_sha256: str
    unusable: str
    def __init__(self, name: _Optional[str] = ..., model: _Optional[str] = ..., mode: _Optional[_Union[_executor_pb2.SolverMode, str]] = ..., family: _Optional[str] = ..., max_output_tokens: _Optional[int] = ..., settings_sha256: _Optional[str] = ..., unusable: _Optional[str] = ...) -> None: ...

class CreatePlanRequest(_message.Message):
    __slots__ = ["budget", "domain", "endpoint_name", "inline_endpoint", "problems", "seed", "strategy", "structured_output", "variant"]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_NAME_FIELD_NUMBER: _ClassVar[int]
    INLINE_ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    STRUCTURED_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    budget: int
    domain: str
    endpoint_name: str
    inline_endpoint: LLMEndpoint
    problems: _containers.RepeatedCompositeFieldContainer[PlannerProblem]
    seed: int
    strategy: PlannerStrategy
    structured_output: bool
    variant: PromptVariant
    def __init__(self, endpoint_name: _Optional[str] = ..., inline_endpoint: _Optional[_Union[LLMEndpoint, _Mapping]] = ..., problems: _Optional[_Iterable[_Union[PlannerProblem, _Mapping]]] = ..., budget: _Optional[int] = ..., domain: _Optional[str] = ..., variant: _Optional[_Union[PromptVariant, str]] = ..., strategy: _Optional[_Union[PlannerStrategy, str]] = ..., seed: _Optional[int] = ..., structured_output: bool = ...) -> None: ...

class CreatePlanResponse(_message.Message):
    __slots__ = ["attempts", "cache_hit", "finish_reason", "latency", "model", "parsed", "planner_ids", "prompt", "raw_output", "reasoning", "strategy", "template_name", "template_sha256", "truncated", "usage", "version"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CACHE_HIT_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    LATENCY_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    PARSED_FIELD_NUMBER: _ClassVar[int]
    PLANNER_IDS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    RAW_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    REASONING_FIELD_NUMBER: _ClassVar[int]
    STRATEGY_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_NAME_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_SHA256_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    attempts: int
    cache_hit: bool
    finish_reason: str
    latency: _duration_pb2.Duration
    model: str
    parsed: ParsedPlan
    planner_ids: _containers.RepeatedCompositeFieldContainer[PlannerId]
    prompt: str
    raw_output: str
    reasoning: str
    strategy: PlannerStrategy
    template_name: str
    template_sha256: str
    truncated: bool
    usage: Usage
    version: _types_pb2.VersionStamp
    def __init__(self, parsed: _Optional[_Union[ParsedPlan, _Mapping]] = ..., raw_output: _Optional[str] = ..., reasoning: _Optional[str] = ..., prompt: _Optional[str] = ..., template_name: _Optional[str] = ..., template_sha256: _Optional[str] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ..., finish_reason: _Optional[str] = ..., truncated: bool = ..., latency: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., cache_hit: bool = ..., attempts: _Optional[int] = ..., strategy: _Optional[_Union[PlannerStrategy, str]] = ..., model: _Optional[str] = ..., planner_ids: _Optional[_Iterable[_Union[PlannerId, _Mapping]]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class LLMEndpoint(_message.Message):
    __slots__ = ["base_url", "extra_body", "family", "max_output_tokens", "mode", "model", "timeout"]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    EXTRA_BODY_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    base_url: str
    extra_body: _struct_pb2.Struct
    family: str
    max_output_tokens: int
    mode: _executor_pb2.SolverMode
    model: str
    timeout: _duration_pb2.Duration
    def __init__(self, base_url: _Optional[str] = ..., model: _Optional[str] = ..., mode: _Optional[_Union[_executor_pb2.SolverMode, str]] = ..., family: _Optional[str] = ..., max_output_tokens: _Optional[int] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., extra_body: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ListEndpointsRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListEndpointsResponse(_message.Message):
    __slots__ = ["endpoints", "version"]
    ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    endpoints: _containers.RepeatedCompositeFieldContainer[ConfiguredEndpoint]
    version: _types_pb2.VersionStamp
    def __init__(self, endpoints: _Optional[_Iterable[_Union[ConfiguredEndpoint, _Mapping]]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class ParsedPlan(_message.Message):
    __slots__ = ["dropped_steps", "fixes", "over_budget", "parse_error", "plan", "planned_tokens", "status"]
    DROPPED_STEPS_FIELD_NUMBER: _ClassVar[int]
    FIXES_FIELD_NUMBER: _ClassVar[int]
    OVER_BUDGET_FIELD_NUMBER: _ClassVar[int]
    PARSE_ERROR_FIELD_NUMBER: _ClassVar[int]
    PLANNED_TOKENS_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    dropped_steps: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanDrop]
    fixes: _containers.RepeatedCompositeFieldContainer[RepairFix]
    over_budget: bool
    parse_error: str
    plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    planned_tokens: int
    status: ParseStatus
    def __init__(self, status: _Optional[_Union[ParseStatus, str]] = ..., parse_error: _Optional[str] = ..., plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., dropped_steps: _Optional[_Iterable[_Union[_types_pb2.PlanDrop, _Mapping]]] = ..., fixes: _Optional[_Iterable[_Union[RepairFix, _Mapping]]] = ..., planned_tokens: _Optional[int] = ..., over_budget: bool = ...) -> None: ...

class PlannerId(_message.Message):
    __slots__ = ["planner_id", "problem_id"]
    PLANNER_ID_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_ID_FIELD_NUMBER: _ClassVar[int]
    planner_id: str
    problem_id: str
    def __init__(self, planner_id: _Optional[str] = ..., problem_id: _Optional[str] = ...) -> None: ...

class PlannerProblem(_message.Message):
    __slots__ = ["id", "text", "value"]
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    text: str
    value: float
    def __init__(self, id: _Optional[str] = ..., text: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...

class RepairFix(_message.Message):
    __slots__ = ["detail", "step"]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    detail: str
    step: str
    def __init__(self, step: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class RepairPlanRequest(_message.Message):
    __slots__ = ["budget", "opaque_ids", "problem_ids", "raw_output"]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    OPAQUE_IDS_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_IDS_FIELD_NUMBER: _ClassVar[int]
    RAW_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    budget: int
    opaque_ids: bool
    problem_ids: _containers.RepeatedScalarFieldContainer[str]
    raw_output: str
    def __init__(self, raw_output: _Optional[str] = ..., problem_ids: _Optional[_Iterable[str]] = ..., budget: _Optional[int] = ..., opaque_ids: bool = ...) -> None: ...

class RepairPlanResponse(_message.Message):
    __slots__ = ["parsed", "planner_ids", "version"]
    PARSED_FIELD_NUMBER: _ClassVar[int]
    PLANNER_IDS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    parsed: ParsedPlan
    planner_ids: _containers.RepeatedCompositeFieldContainer[PlannerId]
    version: _types_pb2.VersionStamp
    def __init__(self, parsed: _Optional[_Union[ParsedPlan, _Mapping]] = ..., planner_ids: _Optional[_Iterable[_Union[PlannerId, _Mapping]]] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ["completion_tokens", "output_tokens", "output_tokens_rule", "prompt_tokens", "reasoning_tokens", "total_tokens"]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_RULE_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    REASONING_TOKENS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_TOKENS_FIELD_NUMBER: _ClassVar[int]
    completion_tokens: int
    output_tokens: int
    output_tokens_rule: _types_pb2.CostRule
    prompt_tokens: int
    reasoning_tokens: int
    total_tokens: int
    def __init__(self, prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ..., total_tokens: _Optional[int] = ..., reasoning_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., output_tokens_rule: _Optional[_Union[_types_pb2.CostRule, str]] = ...) -> None: ...

class PlannerStrategy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PromptVariant(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ParseStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
