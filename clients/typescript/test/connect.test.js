// Tests of connect() — the bearer token, TLS to an IP address, and the hint
// a client and a server that disagree on TLS get — against in-process
// servers, plaintext and TLS (a certificate openssl makes; those tests skip
// without openssl). They run on the build (dist/): `npm test`.
"use strict";

const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { after, before, test } = require("node:test");
const grpc = require("@grpc/grpc-js");
const { connect, scorePlan, scorePlans, scoring } = require("../dist/index.js");
const { transportHint } = require("../dist/errors.js");

const REQUEST = { pool: [{ id: "p1", cost: 1, correct: true }], plan: [], budgets: [{ alpha: 1 }] };

// dir holds the certificates: cert.pem for 127.0.0.1 (an IP SAN), dns.pem
// for localhost only, other.pem for 127.0.0.1 from another issuer.
let dir;
let openssl = true;
const servers = {};
// authorization is the header of the last call.
let authorization;

/** Returns a started Scoring server with creds, and its port. */
async function serve(creds) {
  const server = new grpc.Server();
  server.addService(scoring.ScoringServiceService, {
    scorePlan(call, callback) {
      authorization = call.metadata.get("authorization")[0];
      callback(null, scoring.ScorePlanResponse.fromPartial({ poolSize: 1 }));
    },
    scorePlans(call) {
      call.end();
    },
  });
  const port = await new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", creds, (err, p) => (err ? reject(err) : resolve(p))));
  return { server, port };
}

/** Makes a self-signed certificate name.pem (key name.key) with the SAN san. */
function certificate(name, san) {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", `/CN=${name}`, "-addext", `subjectAltName=${san}`, "-keyout", join(dir, `${name}.key`), "-out", join(dir, `${name}.pem`)], { stdio: "ignore" });
}

before(async () => {
  servers.plain = await serve(grpc.ServerCredentials.createInsecure());
  dir = mkdtempSync(join(tmpdir(), "triage-client-"));
  try {
    certificate("cert", "IP:127.0.0.1");
    certificate("dns", "DNS:localhost");
    certificate("other", "IP:127.0.0.1");
  } catch {
    openssl = false;
    return;
  }
  const tlsCreds = (name) =>
    grpc.ServerCredentials.createSsl(null, [{ private_key: readFileSync(join(dir, `${name}.key`)), cert_chain: readFileSync(join(dir, `${name}.pem`)) }]);
  servers.tls = await serve(tlsCreds("cert"));
  servers.dns = await serve(tlsCreds("dns"));
});

after(() => {
  for (const s of Object.values(servers)) {
    s.server.forceShutdown();
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Calls scorePlan over a connect(o), closing it after. */
async function call(o) {
  const c = connect(o);
  try {
    return await scorePlan(c.scoring, REQUEST);
  } finally {
    c.close();
  }
}

test("a token is sent without the whitespace around it", async () => {
  // As `openssl rand -hex 32 > ci.token` writes it, read with readFileSync.
  await call({ address: `127.0.0.1:${servers.plain.port}`, token: " 9d11a3\r\n" });
  assert.equal(authorization, "Bearer 9d11a3");
});

test("a token no header can carry is refused without showing it", () => {
  const address = "127.0.0.1:1";
  for (const token of ["abc\ndef", "abc\u0000def", "abcdéf", "abc\tdef"]) {
    assert.throws(
      () => connect({ address, token }),
      (err) => /^token: contains a character not allowed in a header .*; the token is not shown$/.test(err.message) && !err.message.includes("abc"),
    );
  }
  for (const token of ["", " \n"]) {
    assert.throws(() => connect({ address, token }), { message: /^token: empty/ });
  }
  assert.doesNotThrow(() => connect({ address, token: undefined }).close());
});

test("transportHint names the TLS options on the errors of a TLS mismatch, and only those", () => {
  const plaintext = "14 UNAVAILABLE: No connection established. Last error: Failed to connect (2026-11-27T21:18:55.659Z). Resolution note: ";
  const tls = "14 UNAVAILABLE: No connection established. Last error: Error: 80BCE1F0657F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n. Resolution note: ";
  assert.match(transportHint(plaintext), /as a TLS server does to a plaintext client: if it serves TLS, connect with caFile/);
  assert.match(transportHint(tls), /the server answered in plaintext: if it serves no TLS, connect without tls, caFile/);
  for (const other of ["14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ", "3 INVALID_ARGUMENT: x", ""]) {
    assert.equal(transportHint(other), "");
  }
});

/** Asserts that p rejects with UNAVAILABLE, its ServiceError's fields kept, and a message matching hint. */
async function rejectsWithHint(p, hint) {
  await assert.rejects(p, (err) => {
    assert.equal(err.code, grpc.status.UNAVAILABLE);
    assert.ok(err.metadata instanceof grpc.Metadata);
    assert.equal(typeof err.details, "string");
    assert.match(err.message, hint);
    return true;
  });
}

/** Runs a scorePlans batch over a connect(o) to its end. */
async function batch(o) {
  const c = connect(o);
  try {
    for await (const _ of scorePlans(c.scoring, [REQUEST]));
  } finally {
    c.close();
  }
}

test("a plaintext client of a TLS server is told to connect with TLS", { skip: !openssl && "no openssl" }, async () => {
  const o = { address: `127.0.0.1:${servers.tls.port}` };
  const hint = /Failed to connect .*\(the server closed the connection before speaking HTTP\/2, as a TLS server does to a plaintext client: if it serves TLS, connect with caFile/s;
  await rejectsWithHint(call(o), hint);
  await rejectsWithHint(batch(o), hint);
});

test("a TLS client of a plaintext server is told to connect without TLS", { skip: !openssl && "no openssl" }, async () => {
  const o = { address: `127.0.0.1:${servers.plain.port}`, caFile: join(dir, "cert.pem") };
  const hint = /wrong version number.*\(the server answered in plaintext: if it serves no TLS, connect without tls, caFile/s;
  await rejectsWithHint(call(o), hint);
  await rejectsWithHint(batch(o), hint);
});

test("TLS to an IP address checks the certificate's IP SAN", { skip: !openssl && "no openssl" }, async () => {
  const ca = join(dir, "cert.pem");
  assert.equal((await call({ address: `127.0.0.1:${servers.tls.port}`, caFile: ca })).poolSize, 1);
  assert.equal((await call({ address: `127.0.0.1:${servers.tls.port}`, caFile: ca, serverName: "127.0.0.1" })).poolSize, 1);
  // A certificate of another CA, or one that does not name the address, is refused.
  await assert.rejects(call({ address: `127.0.0.1:${servers.tls.port}`, caFile: join(dir, "other.pem") }), {
    code: grpc.status.UNAVAILABLE,
    message: /self[- ]signed certificate/,
  });
  await assert.rejects(call({ address: `127.0.0.1:${servers.dns.port}`, caFile: join(dir, "dns.pem") }), {
    code: grpc.status.UNAVAILABLE,
    message: /IP: 127\.0\.0\.1 is not in the cert's list/,
  });
  // The name checked instead of the address's, as before.
  assert.equal((await call({ address: `127.0.0.1:${servers.dns.port}`, caFile: join(dir, "dns.pem"), serverName: "localhost" })).poolSize, 1);
});
