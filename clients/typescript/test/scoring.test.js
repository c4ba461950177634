// Tests of scorePlan and scorePlans against an in-process fake Scoring
// service; they run on the build (dist/): `npm test` (make check-clients).
"use strict";

const assert = require("node:assert/strict");
const { after, before, test } = require("node:test");
const grpc = require("@grpc/grpc-js");
const { connect, scorePlan, scorePlans, scoring, errorDetails } = require("../dist/index.js");

const STAMP = { protocol: "triage.v1", specRevision: "r", binaryVersion: "(devel)", vcsRevision: "abc" };

// response is a canned ScorePlanResponse with every kind of field set.
function response() {
  return scoring.ScorePlanResponse.fromPartial({
    scores: [
      {
        budget: 2750,
        alpha: 0.5,
        oracle: { value: 3, cost: 1700, plan: [{ id: "p4", tokens: 500 }] },
        random: { mean: 1.25, standardError: 0.02, samples: 2000, method: 1, seed: 1 },
        degeneracy: scoring.Degeneracy.DEGENERACY_INFORMATIVE,
        regimes: [
          {
            regime: 1,
            value: 3,
            remainingBudget: 1050,
            eta: 1,
            regret: 0,
            trace: [{ id: "p4", tokens: 600, cost: 500, correct: true, outcome: 1, gain: 2, remainingBudget: 2250 }],
          },
          { regime: 2, value: 2, remainingBudget: 10, eta: 0.4 },
        ],
        decomposition: { plannedValue: 3, selection: 0, order: 0.25, enforcement: -0.125 },
      },
      { budget: 0, degeneracy: scoring.Degeneracy.DEGENERACY_NO_VALUE },
    ],
    normalizedPlan: [{ id: "p4", tokens: 600 }],
    droppedSteps: [{ index: 2, id: "p9", tokens: 50, reason: 1 }],
    plannedTokens: 600,
    poolSize: 4,
    totalCost: 5500,
    totalValue: 4,
    injection: { unsolvable: 1, detection: 1, waste: 0 },
    version: STAMP,
    diagnostics: { precision: 0.5, costForecast: -1, underAllocation: 0 },
  });
}

const badRequest = {
  code: grpc.status.INVALID_ARGUMENT,
  message: "invalid request",
  details: [
    {
      typeUrl: "type.googleapis.com/google.rpc.BadRequest",
      value: errorDetails.BadRequest.encode({
        fieldViolations: [{ field: "budgets[0].alpha", description: "must be in (0, 1]" }],
      }).finish(),
    },
  ],
};

const requests = [];
// HOLD, as a batch's first budget, makes the fake hold the call open;
// cancelled resolves when the client cancels it.
const HOLD = 424242;
const cancelled = {};
cancelled.promise = new Promise((resolve) => (cancelled.resolve = resolve));
let server;
let clients;

before(async () => {
  server = new grpc.Server();
  server.addService(scoring.ScoringServiceService, {
    scorePlan(call, callback) {
      requests.push(call.request);
      if (call.metadata.get("authorization")[0] !== "Bearer t") {
        callback({ code: grpc.status.UNAUTHENTICATED, details: "no token" });
        return;
      }
      callback(null, response());
    },
    scorePlans(call) {
      requests.push(call.request);
      if (call.request.requests[0]?.budgets[0]?.tokens === HOLD) {
        // A long batch: one outcome, then the call stays open until the
        // client cancels it.
        call.on("cancelled", () => cancelled.resolve());
        call.write({ index: 0, result: { ...response(), version: undefined }, version: STAMP });
        return;
      }
      call.request.requests.forEach((_, index) => {
        if (index === 1) {
          call.write({ index, error: badRequest, version: STAMP });
        } else {
          call.write({ index, result: { ...response(), version: undefined }, version: STAMP });
        }
      });
      call.end();
    },
  });
  const port = await new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  clients = connect({ address: `127.0.0.1:${port}`, token: "t" });
});

after(() => {
  clients.close();
  server.forceShutdown();
});

test("scorePlan builds the request", async () => {
  requests.length = 0;
  await scorePlan(clients.scoring, {
    pool: [
      { id: "p1", cost: 1200, correct: true },
      { id: "p4", cost: 500, correct: true, value: 2 },
    ],
    plan: [{ id: "p4", tokens: 600 }],
    budgets: [{ alpha: 0.5 }, { tokens: 900 }],
    regimes: ["enforced"],
    unsolvable: [],
    random: { samples: 2000, seed: 1 },
    includeTrace: true,
  });
  const want = scoring.ScorePlanRequest.fromPartial({
    inline: {
      items: [
        { id: "p1", cost: 1200, correct: true },
        { id: "p4", cost: 500, correct: true, value: 2 },
      ],
    },
    budgets: [{ alpha: 0.5 }, { tokens: 900 }],
    plan: [{ id: "p4", tokens: 600 }],
    regimes: [2],
    unsolvable: { ids: [] },
    options: { random: { samples: 2000, seed: 1 }, includeTrace: true },
  });
  assert.deepEqual(requests, [want]);
});

test("a stored pool and the exact method", () => {
  const { toProto } = require("../dist/scoring.js");
  const req = toProto({
    pool: { model: "qwen3-32b", mode: "extended", dataset: "aime", problemIds: ["a", "b"] },
    plan: [],
    budgets: [{ tokens: 1 }],
    random: { method: "exact" },
  });
  assert.equal(req.stored.solver.mode, 2);
  assert.deepEqual(req.stored.problemIds, ["a", "b"]);
  assert.equal(req.options.random.method, 2);
  assert.equal(req.unsolvable, undefined);
});

test("a cost or token count JavaScript cannot hold exactly is refused by name", () => {
  const { toProto } = require("../dist/scoring.js");
  const pool = [{ id: "p1", cost: 1200, correct: true }];
  const cases = [
    [{ pool: [{ id: "p1", cost: 1.5, correct: true }], plan: [], budgets: [{ alpha: 1 }] }, /^inline\.items\[0\]\.cost: .*got 1\.5/],
    [{ pool, plan: [{ id: "p1", tokens: 2 ** 60 }], budgets: [{ alpha: 1 }] }, /plan\[0\]\.tokens: /],
    [{ pool, plan: [], budgets: [{ alpha: 1 }, { tokens: NaN }] }, /budgets\[1\]\.tokens: .*got NaN/],
  ];
  for (const [request, message] of cases) {
    assert.throws(() => toProto(request), { name: "RangeError", message });
  }
  assert.doesNotThrow(() => toProto({ pool, plan: [{ id: "p1", tokens: 2 ** 53 - 1 }], budgets: [{ tokens: 0 }] }));
});

test("a budget with both tokens and alpha, or neither, is refused by name", () => {
  const { toProto } = require("../dist/scoring.js");
  const base = { pool: [{ id: "p1", cost: 1200, correct: true }], plan: [] };
  // Plain JavaScript can give both: the server would get the tokens only.
  for (const budget of [{ tokens: 5000, alpha: 0.1 }, {}, { tokens: null, alpha: undefined }]) {
    assert.throws(() => toProto({ ...base, budgets: [{ alpha: 1 }, budget] }), {
      name: "RangeError",
      message: "budgets[1]: a budget is tokens or alpha, exactly one",
    });
  }
  assert.deepEqual(toProto({ ...base, budgets: [{ tokens: 5, alpha: null }] }).budgets, [{ tokens: 5, alpha: undefined }]);
});

test("regimes are named in any case, with or without the proto's prefix", () => {
  const { toProto } = require("../dist/scoring.js");
  const base = { pool: [{ id: "p1", cost: 1200, correct: true }], plan: [], budgets: [{ alpha: 1 }] };
  const regimes = ["advisory", "Enforced", "REGIME_ADVISORY", "regime_enforced"];
  assert.deepEqual(toProto({ ...base, regimes }).regimes, [1, 2, 1, 2]);
  for (const regime of ["enforcd", "REGIME_UNSPECIFIED", "", 2]) {
    assert.throws(() => toProto({ ...base, regimes: ["advisory", regime] }), {
      name: "RangeError",
      message: `regimes[1]: unknown regime ${JSON.stringify(regime)}; use "advisory" or "enforced"`,
    });
  }
});

test("a random seed or sample count the wire cannot carry is refused by name", () => {
  const { toProto } = require("../dist/scoring.js");
  const base = { pool: [{ id: "p1", cost: 1200, correct: true }], plan: [], budgets: [{ alpha: 1 }] };
  const cases = [
    [{ seed: -1 }, /options\.random\.seed: .*got -1/],
    [{ seed: 1.5 }, /options\.random\.seed: .*got 1\.5/],
    [{ seed: 2 ** 53 + 2 }, /options\.random\.seed: /],
    [{ samples: 2 ** 32 + 7 }, /options\.random\.samples: .*got 4294967303/],
    [{ samples: 2.5 }, /options\.random\.samples: .*got 2\.5/],
  ];
  for (const [random, message] of cases) {
    assert.throws(() => toProto({ ...base, random }), { name: "RangeError", message });
  }
  assert.doesNotThrow(() => toProto({ ...base, random: { seed: 2 ** 53 - 1, samples: 1000000 } }));
});

test("scorePlan returns a typed result", async () => {
  const got = await scorePlan(clients.scoring, { pool: [], plan: [], budgets: [{ alpha: 0.5 }] });
  assert.deepEqual(got, {
    scores: [
      {
        budget: 2750,
        alpha: 0.5,
        overBudget: false,
        oracle: { value: 3, cost: 1700, plan: [{ id: "p4", tokens: 500 }] },
        random: { mean: 1.25, standardError: 0.02, samples: 2000, method: "monte_carlo", seed: 1 },
        degeneracy: "informative",
        regimes: [
          {
            regime: "advisory",
            value: 3,
            remainingBudget: 1050,
            eta: 1,
            regret: 0,
            trace: [{ id: "p4", tokens: 600, cost: 500, correct: true, outcome: "scored", gain: 2, remainingBudget: 2250 }],
          },
          { regime: "enforced", value: 2, remainingBudget: 10, eta: 0.4, regret: undefined, trace: [] },
        ],
        decomposition: { plannedValue: 3, selection: 0, order: 0.25, enforcement: -0.125 },
      },
      {
        budget: 0,
        alpha: undefined,
        overBudget: false,
        oracle: { value: 0, cost: 0, plan: [] },
        random: { mean: 0, standardError: 0, samples: 0, method: "unspecified", seed: 0 },
        degeneracy: "no_value",
        regimes: [],
        decomposition: undefined,
      },
    ],
    normalizedPlan: [{ id: "p4", tokens: 600 }],
    droppedSteps: [{ index: 2, id: "p9", tokens: 50, reason: "unknown_id" }],
    plannedTokens: 600,
    ungradeableProblemIds: [],
    poolSize: 4,
    totalCost: 5500,
    totalValue: 4,
    injection: { unsolvable: 1, detection: 1, waste: 0 },
    version: STAMP,
    // recall unset: undefined, not 0.
    diagnostics: { precision: 0.5, recall: undefined, costForecast: -1, underAllocation: 0 },
  });
});

test("scorePlan rejects with the call's error", async () => {
  const bare = new scoring.ScoringServiceClient(clients.scoring.getChannel().getTarget(), grpc.credentials.createInsecure());
  await assert.rejects(scorePlan(bare, { pool: [], plan: [], budgets: [{ tokens: 1 }] }), (err) => err.code === grpc.status.UNAUTHENTICATED);
  bare.close();
});

test("scorePlans yields each outcome in order", async () => {
  requests.length = 0;
  const got = [];
  for await (const o of scorePlans(
    clients.scoring,
    [0.5, 1.5, 1].map((alpha) => ({ pool: [], plan: [], budgets: [{ alpha }] })),
  )) {
    got.push(o);
  }
  assert.deepEqual(
    got.map((o) => o.index),
    [0, 1, 2],
  );
  assert.deepEqual(
    got.map((o) => o.version.protocol),
    ["triage.v1", "triage.v1", "triage.v1"],
  );
  assert.equal(got[0].error, undefined);
  assert.equal(got[0].result.version, undefined);
  assert.equal(got[2].result.scores[0].budget, 2750);
  assert.equal(got[1].result, undefined);
  assert.deepEqual(got[1].error, {
    code: grpc.status.INVALID_ARGUMENT,
    message: "invalid request",
    fieldViolations: [{ field: "budgets[0].alpha", description: "must be in (0, 1]" }],
  });
  assert.deepEqual(
    requests[0].requests.map((r) => r.budgets[0].alpha),
    [0.5, 1.5, 1],
  );
});

test("scorePlans refuses a batch with a request it cannot encode, naming the request, before sending it", async () => {
  requests.length = 0;
  const good = { pool: [{ id: "p1", cost: 1, correct: true }], plan: [], budgets: [{ alpha: 1 }] };
  const cases = [
    [{ ...good, pool: [{ id: "p1", cost: 1.5, correct: true }] }, /^requests\[3\]\.inline\.items\[0\]\.cost: .*got 1\.5$/],
    [{ ...good, budgets: [{ tokens: 1, alpha: 1 }] }, /^requests\[3\]\.budgets\[0\]: a budget is tokens or alpha, exactly one$/],
    [{ ...good, regimes: ["both"] }, /^requests\[3\]\.regimes\[0\]: unknown regime "both"/],
    [{ ...good, random: { seed: -1 } }, /^requests\[3\]\.options\.random\.seed: /],
  ];
  for (const [bad, message] of cases) {
    await assert.rejects(async () => {
      for await (const _ of scorePlans(clients.scoring, [good, good, good, bad])) {
        assert.fail("an outcome of a batch that should have been refused");
      }
    }, { name: "RangeError", message });
  }
  assert.deepEqual(requests, []);
});

test("leaving a scorePlans loop early cancels the call", async () => {
  const batch = [0, 1, 2].map(() => ({ pool: [], plan: [], budgets: [{ tokens: HOLD }] }));
  for await (const o of scorePlans(clients.scoring, batch)) {
    assert.equal(o.index, 0);
    break;
  }
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("the server's call was not cancelled within 5 s of the loop's break")), 5000);
  });
  try {
    await Promise.race([cancelled.promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
});
