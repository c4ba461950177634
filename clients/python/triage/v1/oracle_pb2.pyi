from google.api import annotations_pb2 as _annotations_pb2
from triage.v1 import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PARTIAL_REFERENCE_POPULATION: PartialReference
PARTIAL_REFERENCE_SELF_COST: PartialReference
PARTIAL_REFERENCE_SELF_FEASIBILITY: PartialReference
PARTIAL_REFERENCE_UNSPECIFIED: PartialReference
RANDOM_METHOD_EXACT: RandomMethod
RANDOM_METHOD_MONTE_CARLO: RandomMethod
RANDOM_METHOD_UNSPECIFIED: RandomMethod

class BudgetReferences(_message.Message):
    __slots__ = ["alpha", "budget", "oracle", "partial_references", "random"]
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    ORACLE_FIELD_NUMBER: _ClassVar[int]
    PARTIAL_REFERENCES_FIELD_NUMBER: _ClassVar[int]
    RANDOM_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    budget: int
    oracle: OracleReference
    partial_references: _containers.RepeatedCompositeFieldContainer[PartialReferencePlan]
    random: RandomReference
    def __init__(self, budget: _Optional[int] = ..., alpha: _Optional[float] = ..., oracle: _Optional[_Union[OracleReference, _Mapping]] = ..., random: _Optional[_Union[RandomReference, _Mapping]] = ..., partial_references: _Optional[_Iterable[_Union[PartialReferencePlan, _Mapping]]] = ...) -> None: ...

class ComputeReferencesRequest(_message.Message):
    __slots__ = ["budgets", "items", "population", "random"]
    BUDGETS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    POPULATION_FIELD_NUMBER: _ClassVar[int]
    RANDOM_FIELD_NUMBER: _ClassVar[int]
    budgets: _containers.RepeatedCompositeFieldContainer[_types_pb2.Budget]
    items: _containers.RepeatedCompositeFieldContainer[_types_pb2.GroundTruthItem]
    population: Population
    random: RandomReferenceOptions
    def __init__(self, items: _Optional[_Iterable[_Union[_types_pb2.GroundTruthItem, _Mapping]]] = ..., budgets: _Optional[_Iterable[_Union[_types_pb2.Budget, _Mapping]]] = ..., random: _Optional[_Union[RandomReferenceOptions, _Mapping]] = ..., population: _Optional[_Union[Population, _Mapping]] = ...) -> None: ...

class ComputeReferencesResponse(_message.Message):
    __slots__ = ["no_population", "references", "total_cost", "total_value", "version"]
    NO_POPULATION_FIELD_NUMBER: _ClassVar[int]
    REFERENCES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COST_FIELD_NUMBER: _ClassVar[int]
    TOTAL_VALUE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    no_population: bool
    references: _containers.RepeatedCompositeFieldContainer[BudgetReferences]
    total_cost: int
    total_value: float
    version: _types_pb2.VersionStamp
    def __init__(self, references: _Optional[_Iterable[_Union[BudgetReferences, _Mapping]]] = ..., total_cost: _Optional[int] = ..., total_value: _Optional[float] = ..., version: _Optional[_Union[_types_pb2.VersionStamp, _Mapping]] = ..., no_population: bool = ...) -> None: ...

class OracleReference(_message.Message):
    __slots__ = ["cost", "plan", "value"]
    COST_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    cost: int
    plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    value: float
    def __init__(self, value: _Optional[float] = ..., plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ..., cost: _Optional[int] = ...) -> None: ...

class PartialReferencePlan(_message.Message):
    __slots__ = ["plan", "reference"]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_FIELD_NUMBER: _ClassVar[int]
    plan: _containers.RepeatedCompositeFieldContainer[_types_pb2.PlanStep]
    reference: PartialReference
    def __init__(self, reference: _Optional[_Union[PartialReference, str]] = ..., plan: _Optional[_Iterable[_Union[_types_pb2.PlanStep, _Mapping]]] = ...) -> None: ...

class Population(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[PopulationItem]
    def __init__(self, items: _Optional[_Iterable[_Union[PopulationItem, _Mapping]]] = ...) -> None: ...

class PopulationItem(_message.Message):
    __slots__ = ["id", "records"]
    ID_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    id: str
    records: _containers.RepeatedCompositeFieldContainer[PopulationRecord]
    def __init__(self, id: _Optional[str] = ..., records: _Optional[_Iterable[_Union[PopulationRecord, _Mapping]]] = ...) -> None: ...

class PopulationRecord(_message.Message):
    __slots__ = ["correct", "cost"]
    CORRECT_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    correct: bool
    cost: int
    def __init__(self, cost: _Optional[int] = ..., correct: bool = ...) -> None: ...

class RandomReference(_message.Message):
    __slots__ = ["mean", "method", "samples", "seed", "standard_error"]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    mean: float
    method: RandomMethod
    samples: int
    seed: int
    standard_error: float
    def __init__(self, mean: _Optional[float] = ..., standard_error: _Optional[float] = ..., samples: _Optional[int] = ..., method: _Optional[_Union[RandomMethod, str]] = ..., seed: _Optional[int] = ...) -> None: ...

class RandomReferenceOptions(_message.Message):
    __slots__ = ["method", "samples", "seed"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    method: RandomMethod
    samples: int
    seed: int
    def __init__(self, method: _Optional[_Union[RandomMethod, str]] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class RandomMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PartialReference(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
