from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

COST_RULE_COMPLETION: CostRule
COST_RULE_COMPLETION_PLUS_REASONING: CostRule
COST_RULE_HARNESS_OUTPUT: CostRule
COST_RULE_NONE: CostRule
COST_RULE_TOTAL_MINUS_PROMPT: CostRule
COST_RULE_UNSPECIFIED: CostRule
DESCRIPTOR: _descriptor.FileDescriptor
PLAN_DROP_REASON_DUPLICATE: PlanDropReason
PLAN_DROP_REASON_NEGATIVE: PlanDropReason
PLAN_DROP_REASON_UNKNOWN_ID: PlanDropReason
PLAN_DROP_REASON_UNSPECIFIED: PlanDropReason
PLAN_DROP_REASON_ZERO: PlanDropReason

class Budget(_message.Message):
    __slots__ = ["alpha", "tokens"]
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    tokens: int
    def __init__(self, tokens: _Optional[int] = ..., alpha: _Optional[float] = ...) -> None: ...

class GroundTruthItem(_message.Message):
    __slots__ = ["correct", "cost", "id", "value"]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    correct: bool
    cost: int
    id: str
    value: float
    def __init__(self, id: _Optional[str] = ..., cost: _Optional[int] = ..., correct: bool = ..., value: _Optional[float] = ...) -> None: ...

class PlanDrop(_message.Message):
    __slots__ = ["id", "index", "reason", "tokens"]
    ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    id: str
    index: int
    reason: PlanDropReason
    tokens: int
    def __init__(self, index: _Optional[int] = ..., id: _Optional[str] = ..., tokens: _Optional[int] = ..., reason: _Optional[_Union[PlanDropReason, str]] = ...) -> None: ...

class PlanStep(_message.Message):
    __slots__ = ["id", "tokens"]
    ID_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    id: str
    tokens: int
    def __init__(self, id: _Optional[str] = ..., tokens: _Optional[int] = ...) -> None: ...

class VersionStamp(_message.Message):
    __slots__ = ["binary_version", "protocol", "spec_revision", "vcs_revision"]
    BINARY_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    SPEC_REVISION_FIELD_NUMBER: _ClassVar[int]
    VCS_REVISION_FIELD_NUMBER: _ClassVar[int]
    binary_version: str
    protocol: str
    spec_revision: str
    vcs_revision: str
    def __init__(self, protocol: _Optional[str] = ..., spec_revision: _Optional[str] = ..., binary_version: _Optional[str] = ..., vcs_revision: _Optional[str] = ...) -> None: ...

class PlanDropReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CostRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
