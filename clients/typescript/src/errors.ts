import type { ServiceError } from "@grpc/grpc-js";
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
