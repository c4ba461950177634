import { status, type ServiceError } from "@grpc/grpc-js";
import { BadRequest, type BadRequest_FieldViolation } from "./gen/google/rpc/error_details";
import { Status } from "./gen/google/rpc/status";

const detailsKey = "grpc-status-details-bin";
const badRequestType = "type.googleapis.com/google.rpc.BadRequest";

/**
 * Returns the google.rpc.Status a failed call carries in its trailers, or
 * undefined when it carries none.
 */
export function statusDetails(err: Pick<ServiceError, "metadata">): Status | undefined {
  const raw = err.metadata?.get(detailsKey)[0];
  if (raw === undefined) {
    return undefined;
  }
  return Status.decode(typeof raw === "string" ? Buffer.from(raw, "base64") : raw);
}

/**
 * Returns the field violations of the google.rpc.BadRequest details of a
 * failed call (INVALID_ARGUMENT: every invalid field of the request), or an
 * empty list.
 */
export function fieldViolations(err: Pick<ServiceError, "metadata">): BadRequest_FieldViolation[] {
  return (statusDetails(err)?.details ?? [])
    .filter((d) => d.typeUrl === badRequestType)
    .flatMap((d) => BadRequest.decode(d.value).fieldViolations);
}

/**
 * Returns what a failed call's message most likely means when it is that of
 * a client and a server that disagree on TLS, to append to it; "" else. A
 * TLS server closes the connection of a plaintext client without a word
 * (grpc-js: "Failed to connect"); a TLS client reads a plaintext server's
 * first bytes as a TLS record (OpenSSL: "wrong version number").
 */
export function transportHint(message: string): string {
  if (message.includes("Last error: Failed to connect (")) {
    return " (the server closed the connection before speaking HTTP/2, as a TLS server does to a plaintext client: if it serves TLS, connect with caFile, or tls: true for the system's CAs)";
  }
  if (message.includes("wrong version number")) {
    return " (the server answered in plaintext: if it serves no TLS, connect without tls, caFile, certFile and keyFile)";
  }
  return "";
}

/**
 * Returns err, a failed call's error, with transportHint appended to its
 * message when it is UNAVAILABLE: the same object, its code, details and
 * metadata kept.
 */
export function withTransportHint<E>(err: E): E {
  if (err instanceof Error && (err as Partial<ServiceError>).code === status.UNAVAILABLE) {
    err.message += transportHint(err.message);
  }
  return err;
}
