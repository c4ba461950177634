// Calls the four TRIAGE services from Node with the typed client generated
// in clients/typescript (ts-proto on @grpc/grpc-js).
//
// It computes the references of a four-problem pool (Oracle), repairs a
// planner's messy answer into a plan (Planner), scores that plan
// (Executor), scores it again with η and regret in one call (Scoring, with
// the typed scorePlan), lists the Planner's endpoints, and sends a deliberately
// invalid request to show the google.rpc.BadRequest field violations that
// come back. The output is the same line for line as examples/python's.
//
//   (cd clients/typescript && npm ci)   # dependencies, and the build
//   (cd examples/node && npm ci)        # links clients/typescript
//   node examples/node/main.js --addr 127.0.0.1:50051
//
// Every flag can also be set with an environment variable: TRIAGE_ADDR,
// TRIAGE_TLS (1 for TLS with the system's CAs), TRIAGE_TLS_CA,
// TRIAGE_TLS_CERT, TRIAGE_TLS_KEY, TRIAGE_TLS_SERVER_NAME, TRIAGE_TOKEN,
// TRIAGE_TOKEN_FILE. With a CA (or --tls) the channel uses TLS; with a token
// every call carries "authorization: Bearer <token>".
"use strict";

const { readFileSync } = require("node:fs");
const { parseArgs } = require("node:util");
const { connect, executor, fieldViolations, grpc, oracle, planner, scorePlan } = require("triage-client");

// The pool: four problems with one solver's ground truth (cost in tokens,
// whether its answer was correct); p4 is worth two points.
const POOL = [
  { id: "p1", cost: 1200, correct: true },
  { id: "p2", cost: 800, correct: false },
  { id: "p3", cost: 3000, correct: true },
  { id: "p4", cost: 500, correct: true, value: 2 },
];

// A planner's answer as models write it: prose, a code fence, a number in a
// string, an unknown id and a trailing comma.
const RAW_PLAN =
  "Here is my plan:\n```json\n" +
  '{"plan": [{"id": "p4", "tokens": "600"}, {"id": "p1", "tokens": 1300}, ' +
  '{"id": "p9", "tokens": 50},]}\n```';

/** Reads the flags, each defaulting to its TRIAGE_* variable. */
function options(argv) {
  const env = process.env;
  const { values } = parseArgs({
    args: argv,
    options: {
      addr: { type: "string", default: env.TRIAGE_ADDR || "127.0.0.1:50051" },
      tls: { type: "boolean", default: ["1", "true"].includes(env.TRIAGE_TLS || "") },
      "tls-ca": { type: "string", default: env.TRIAGE_TLS_CA },
      "tls-cert": { type: "string", default: env.TRIAGE_TLS_CERT },
      "tls-key": { type: "string", default: env.TRIAGE_TLS_KEY },
      "tls-server-name": { type: "string", default: env.TRIAGE_TLS_SERVER_NAME },
      token: { type: "string", default: env.TRIAGE_TOKEN },
      "token-file": { type: "string", default: env.TRIAGE_TOKEN_FILE },
    },
  });
  const token = values["token-file"] ? readFileSync(values["token-file"], "utf8").trim() : values.token;
  return {
    address: values.addr,
    tls: values.tls,
    caFile: values["tls-ca"],
    certFile: values["tls-cert"],
    keyFile: values["tls-key"],
    serverName: values["tls-server-name"],
    token: token || undefined, // TRIAGE_TOKEN set but empty sends none, as the CLI does
  };
}

/** Calls a unary method of a grpc-js client as a promise, with a deadline. */
function call(client, method, request) {
  const deadline = new Date(Date.now() + 30_000);
  return new Promise((resolve, reject) =>
    client[method](request, new grpc.Metadata(), { deadline }, (err, resp) => (err ? reject(err) : resolve(resp))),
  );
}

async function main(argv) {
  let c;
  try {
    c = connect(options(argv));
  } catch (err) {
    console.error(`error: ${err.message}`);
    return 2;
  }
  try {
    // Oracle: the best value any plan can reach at α = 0.5, and what a
    // random planner gets on average.
    const refs = await call(
      c.oracle,
      "computeReferences",
      oracle.ComputeReferencesRequest.fromPartial({
        items: POOL,
        budgets: [{ alpha: 0.5 }],
        random: { samples: 2000, seed: 1 },
      }),
    );
    const ref = refs.references[0];
    console.log(
      `oracle: α=0.5 budget=${ref.budget} oracle=${ref.oracle.value.toFixed(4)} ` +
        `random=${ref.random.mean.toFixed(4)}±${ref.random.standardError.toFixed(4)}`,
    );

    // Planner: repair the raw answer into a plan over the pool's ids.
    const repaired = await call(
      c.planner,
      "repairPlan",
      planner.RepairPlanRequest.fromPartial({ rawOutput: RAW_PLAN, problemIds: POOL.map((i) => i.id) }),
    );
    const parsed = repaired.parsed;
    const steps = parsed.plan.map((s) => `${s.id}:${s.tokens}`).join(" ");
    console.log(
      `planner: ${planner.parseStatusToJSON(parsed.status)} with ${parsed.fixes.length} fixes ` +
        `and ${parsed.droppedSteps.length} dropped: ${steps}`,
    );

    // Executor: score the plan on the inline pool under both regimes.
    const scored = await call(
      c.executor,
      "executePlan",
      executor.ExecutePlanRequest.fromPartial({ inline: { items: POOL }, budget: { alpha: 0.5 }, plan: parsed.plan }),
    );
    for (const r of scored.results) {
      console.log(`executor: ${executor.regimeToJSON(r.regime)} value=${r.value.toFixed(4)} remaining=${r.remainingBudget}`);
    }

    // Scoring: the same plan's η and regret at α = 0.5 in one call, which
    // runs the Executor and the Oracle on the server.
    const score = await scorePlan(
      c.scoring,
      { pool: POOL, plan: parsed.plan, budgets: [{ alpha: 0.5 }], random: { samples: 2000, seed: 1 } },
      { deadline: Date.now() + 30_000 },
    );
    const at = score.scores[0];
    console.log(
      `scoring: α=0.5 budget=${at.budget} oracle=${at.oracle.value.toFixed(4)} ` +
        `random=${at.random.mean.toFixed(4)}±${at.random.standardError.toFixed(4)} ${at.degeneracy}`,
    );
    for (const r of at.regimes) {
      const regret = r.regret === undefined ? "none" : r.regret.toFixed(4);
      console.log(`scoring: ${r.regime} value=${r.value.toFixed(4)} eta=${r.eta.toFixed(4)} regret=${regret}`);
    }
    console.log(`scoring: computed by ${score.version.protocol} (spec ${score.version.specRevision})`);

    // Planner: the endpoints the server was configured with.
    const eps = (await call(c.planner, "listEndpoints", planner.ListEndpointsRequest.fromPartial({}))).endpoints;
    const names = eps.map((e) => `${e.name} (${e.model}, ${executor.solverModeToJSON(e.mode)})`).join(", ");
    console.log(`planner: endpoints: ${names || "none"}`);

    // A bad request: every invalid field comes back at once, as the
    // google.rpc.BadRequest details of an INVALID_ARGUMENT status.
    try {
      await call(
        c.oracle,
        "computeReferences",
        oracle.ComputeReferencesRequest.fromPartial({ items: [{ id: "", cost: -1 }], budgets: [{ alpha: 1.5 }] }),
      );
      console.error("bad request: accepted, but it should not be");
      return 1;
    } catch (err) {
      if (err.code === undefined) {
        throw err;
      }
      const violations = fieldViolations(err);
      console.log(`bad request: ${grpc.status[err.code]} with ${violations.length} field violations`);
      for (const v of violations) {
        console.log(`  ${v.field}: ${v.description}`);
      }
      if (err.code !== grpc.status.INVALID_ARGUMENT || violations.length === 0) {
        return 1;
      }
    }
    return 0;
  } finally {
    c.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`error: ${err.message}`);
    process.exitCode = 1;
  },
);
