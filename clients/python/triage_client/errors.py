"""Decoding the google.rpc.Status details of a failed call, and the hint
added to one that failed because client and server disagree on TLS."""

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


#: The hints transport_hint gives, as the Go CLI's (internal/cli).
_PLAINTEXT_TO_TLS_HINT = (
    " (the server closed the connection before speaking HTTP/2, as a TLS server does to a plaintext"
    " client: if it serves TLS, connect with ca_file=, or tls=True for the system's CAs)"
)
_TLS_TO_PLAINTEXT_HINT = (
    " (the server answered the TLS handshake in plaintext: if it serves no TLS, connect without"
    " tls, ca_file, cert_file and key_file)"
)


def transport_hint(err: grpc.RpcError) -> str:
    """Returns what an UNAVAILABLE error most likely means when its details
    are those of a plaintext client that a TLS server hung up on ("Socket
    closed" while connecting) or of a TLS client that a plaintext server
    answered (OpenSSL's "wrong version number", BoringSSL's
    WRONG_VERSION_NUMBER); "" else."""
    if not hasattr(err, "code") or err.code() != grpc.StatusCode.UNAVAILABLE:
        return ""
    details = err.details() or ""
    if "failed to connect" in details and "Socket closed" in details:
        return _PLAINTEXT_TO_TLS_HINT
    if "wrong version number" in details or "WRONG_VERSION_NUMBER" in details:
        return _TLS_TO_PLAINTEXT_HINT
    return ""


class TLSMismatchError(grpc.RpcError):
    """The grpc.RpcError of a call that failed because the client and the
    server disagree on TLS (see transport_hint): code(),
    trailing_metadata() and the rest are the failed call's (error), and
    details() and str() end with the hint."""

    def __init__(self, error: grpc.RpcError, hint: str):
        super().__init__(error, hint)
        self.error = error
        self.hint = hint

    def code(self) -> grpc.StatusCode:
        return self.error.code()

    def details(self) -> str:
        return (self.error.details() or "") + self.hint

    def trailing_metadata(self):
        return self.error.trailing_metadata()

    def initial_metadata(self):
        return self.error.initial_metadata()

    def __getattr__(self, name: str):
        # The rest of grpc.Call (debug_error_string, …); never error itself.
        if name == "error":
            raise AttributeError(name)
        return getattr(self.error, name)

    def __str__(self) -> str:
        return f"{self.code()}: {self.details()}"
