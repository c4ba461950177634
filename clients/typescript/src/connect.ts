import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import * as grpc from "@grpc/grpc-js";
import { ExecutorServiceClient } from "./gen/triage/v1/executor";
import { OracleServiceClient } from "./gen/triage/v1/oracle";
import { PlannerServiceClient } from "./gen/triage/v1/planner";
import { ScoringServiceClient } from "./gen/triage/v1/scoring";

/** Where the services are and how to reach them. */
export interface ConnectOptions {
  /** "host:port". */
  address: string;
  /** Use TLS with the system's CAs; implied by caFile, certFile and keyFile. */
  tls?: boolean;
  /** PEM file of the CA(s) the server's certificate must chain to. */
  caFile?: string;
  /** PEM client certificate for mutual TLS, with keyFile. */
  certFile?: string;
  /** PEM key of certFile. */
  keyFile?: string;
  /** The name the server's certificate is checked against, if not the address's host. */
  serverName?: string;
  /**
   * Bearer token sent with every call as "authorization: Bearer <token>";
   * over plaintext only to a loopback address. The whitespace around it is
   * dropped, so a file can be read as it is (`openssl rand -hex 32 >
   * ci.token` ends it with a newline); a token empty without it, or holding
   * a character no header may carry (a control character, non-ASCII), is
   * refused with an error that does not show it.
   */
  token?: string;
}

/** Clients of the four services over one channel. */
export interface Clients {
  /** The Oracle: knapsack oracle and random reference. */
  oracle: OracleServiceClient;
  /** The Executor: ground truth and plan scoring. */
  executor: ExecutorServiceClient;
  /** The Planner: plans and plan repair. */
  planner: PlannerServiceClient;
  /** The Scoring service: the paper's metric as one call (see scorePlan). */
  scoring: ScoringServiceClient;
  /** Closes the channel. */
  close(): void;
}

/**
 * Returns clients of the Oracle, Executor, Planner and Scoring service at
 * o.address; throws an Error for options that cannot work together or a
 * token that cannot be sent.
 */
export function connect(o: ConnectOptions): Clients {
  if (!o.certFile !== !o.keyFile) {
    throw new Error("a client certificate needs both certFile and keyFile");
  }
  const token = o.token == null ? undefined : bearerToken(o.token);
  const useTLS = Boolean(o.tls || o.caFile || o.certFile);
  if (token && !useTLS && !isLoopback(o.address)) {
    throw new Error(`refusing to send the token in plaintext to ${o.address}, which is not loopback: use TLS`);
  }
  const creds = useTLS
    ? grpc.credentials.createSsl(read(o.caFile), read(o.keyFile), read(o.certFile))
    : grpc.credentials.createInsecure();
  const channelOptions: grpc.ChannelOptions = {};
  if (o.serverName) {
    channelOptions["grpc.ssl_target_name_override"] = o.serverName;
    channelOptions["grpc.default_authority"] = o.serverName;
  }
  const channel = new grpc.Channel(o.address, creds, channelOptions);
  const options: Partial<grpc.ClientOptions> = { channelOverride: channel };
  if (token) {
    options.interceptors = [bearer(token)];
  }
  return {
    oracle: new OracleServiceClient(o.address, creds, options),
    executor: new ExecutorServiceClient(o.address, creds, options),
    planner: new PlannerServiceClient(o.address, creds, options),
    scoring: new ScoringServiceClient(o.address, creds, options),
    close: () => channel.close(),
  };
}

/** Reports whether address names this machine: localhost, a loopback IP or a Unix socket. */
export function isLoopback(address: string): boolean {
  if (address.startsWith("unix:")) {
    return true;
  }
  const host = hostOf(address);
  if (host === "localhost") {
    return true;
  }
  switch (isIP(host)) {
    case 4:
      return host.startsWith("127.");
    case 6:
      return host === "::1";
    default:
      return false;
  }
}

/** The host of a "host:port" address ("[::1]:50051": "::1"), with any "dns:///" before it. */
function hostOf(address: string): string {
  const host = address.split("///").pop() ?? "";
  if (host.startsWith("[")) {
    return host.slice(1).split("]")[0];
  }
  return host.split(":").length === 2 ? host.split(":")[0] : host;
}

/**
 * Returns token without the whitespace around it; throws when nothing is
 * left or it holds a character a header value cannot (grpc-js allows
 * printable ASCII only), naming neither the token nor the character: the
 * error of grpc-js, thrown at the first call, showed the whole token.
 */
function bearerToken(token: string): string {
  const t = token.trim();
  if (t === "") {
    throw new Error("token: empty (or only whitespace); leave token unset to send none");
  }
  if (!/^[\x20-\x7e]*$/.test(t)) {
    throw new Error("token: contains a character not allowed in a header (a control character or non-ASCII); the token is not shown");
  }
  return t;
}

/** An interceptor adding the bearer token to every call's metadata. */
function bearer(token: string): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set("authorization", `Bearer ${token}`);
        next(metadata, listener);
      },
    });
}

/** The contents of the file at path; null for no path. */
function read(path?: string): Buffer | null {
  return path ? readFileSync(path) : null;
}
