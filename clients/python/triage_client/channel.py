"""A gRPC channel to the TRIAGE services, with TLS and a bearer token."""

from __future__ import annotations

import collections
import ipaddress
from typing import Optional, Sequence, Tuple

import grpc


def connect(
    address: str,
    *,
    tls: bool = False,
    ca_file: Optional[str] = None,
    cert_file: Optional[str] = None,
    key_file: Optional[str] = None,
    server_name: Optional[str] = None,
    token: Optional[str] = None,
    options: Sequence[Tuple[str, object]] = (),
) -> grpc.Channel:
    """Returns a channel to address ("host:port").

    TLS is used when tls is true or any of ca_file, cert_file and key_file is
    given: the server's certificate must chain to ca_file (the system's CAs
    when None); cert_file and key_file, together, are a client certificate
    for mutual TLS. server_name overrides the name the certificate is checked
    against. A token is sent with every call as "authorization: Bearer
    <token>"; over plaintext only to a loopback address, as the server's own
    clients do. Surrounding whitespace (the newline ending a token file) is
    removed from it, as the Go CLI does; a token that is then empty, or
    holds a character a header cannot carry, is a ValueError that does not
    show it.
    """
    if token is not None:
        token = _check_token(token)
    if bool(cert_file) != bool(key_file):
        raise ValueError("a client certificate needs both cert_file and key_file")
    opts = list(options)
    if server_name:
        opts.append(("grpc.ssl_target_name_override", server_name))
    if tls or ca_file or cert_file:
        creds = grpc.ssl_channel_credentials(
            root_certificates=_read(ca_file),
            private_key=_read(key_file),
            certificate_chain=_read(cert_file),
        )
        if token:
            creds = grpc.composite_channel_credentials(creds, grpc.access_token_call_credentials(token))
        return grpc.secure_channel(address, creds, opts)
    if token and not is_loopback(address):
        raise ValueError(
            f"refusing to send the token in plaintext to {address}, which is not loopback: use TLS"
        )
    channel = grpc.insecure_channel(address, opts)
    if token:
        channel = grpc.intercept_channel(channel, _BearerToken(token))
    return channel


def is_loopback(address: str) -> bool:
    """Reports whether address names this machine: localhost, a loopback IP
    or a Unix socket."""
    if address.startswith("unix:"):
        return True
    host = address.split("///", 1)[-1]
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_token(token: str) -> str:
    """Returns token without surrounding whitespace; raises a ValueError
    (TypeError) that never contains it when it cannot be sent as a header."""
    if not isinstance(token, str):
        raise TypeError(f"token: must be a str, got {type(token).__name__}")
    token = token.strip()
    if not token:
        raise ValueError("token: empty (or only whitespace); pass token=None to send none")
    if any(not " " <= c <= "~" for c in token):
        raise ValueError(
            "token: contains a character not allowed in a header (a control character or non-ASCII); "
            "the token is not shown"
        )
    return token


def _read(path: Optional[str]) -> Optional[bytes]:
    if not path:
        return None
    with open(path, "rb") as f:
        return f.read()


class _CallDetails(
    collections.namedtuple(
        "_CallDetails",
        ("method", "timeout", "metadata", "credentials", "wait_for_ready", "compression"),
    ),
    grpc.ClientCallDetails,
):
    """grpc.ClientCallDetails with the metadata replaced."""


class _BearerToken(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Adds "authorization: Bearer <token>" to every call on a plaintext
    channel, where gRPC refuses call credentials."""

    def __init__(self, token: str):
        self._header = ("authorization", "Bearer " + token)

    def _details(self, d: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        metadata = list(d.metadata or []) + [self._header]
        return _CallDetails(
            d.method,
            d.timeout,
            metadata,
            d.credentials,
            getattr(d, "wait_for_ready", None),
            getattr(d, "compression", None),
        )

    def intercept_unary_unary(self, continuation, client_call_details, request):
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(self, continuation, client_call_details, request):
        return continuation(self._details(client_call_details), request)

    def intercept_stream_unary(self, continuation, client_call_details, request_iterator):
        return continuation(self._details(client_call_details), request_iterator)

    def intercept_stream_stream(self, continuation, client_call_details, request_iterator):
        return continuation(self._details(client_call_details), request_iterator)
