"""Decoding the google.rpc.Status details of a failed call."""

from __future__ import annotations

from typing import List, Optional

import grpc
from google.rpc import error_details_pb2, status_pb2

_DETAILS_KEY = "grpc-status-details-bin"


def status_details(err: grpc.RpcError) -> Optional[status_pb2.Status]:
    """Returns the google.rpc.Status a failed call carries in its trailers,
    or None when it carries none."""
    trailers = err.trailing_metadata() if hasattr(err, "trailing_metadata") else None
    for key, value in trailers or ():
        if key == _DETAILS_KEY:
            return status_pb2.Status.FromString(value)
    return None


def field_violations(err: grpc.RpcError) -> List[error_details_pb2.BadRequest.FieldViolation]:
    """Returns the field violations of the google.rpc.BadRequest details of a
    failed call (INVALID_ARGUMENT: every invalid field of the request), or an
    empty list."""
    status = status_details(err)
    out: List[error_details_pb2.BadRequest.FieldViolation] = []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            out.extend(bad.field_violations)
    return out
