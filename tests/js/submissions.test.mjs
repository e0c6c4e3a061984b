// Words sent to the server (static/js/submissions.js): client ids, the submit frames, which
// words a reconnect sends again and when, and the words kept over a reload.
import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";

import { Submissions, clientId, resendPlan, submitMessage } from "../../static/js/submissions.js";

/** A sessionStorage: a Map, or one that refuses to store (private mode, a full store). */
function storage({ full = false, items = {} } = {}) {
  const kept = new Map(Object.entries(items));
  return {
    kept,
    getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, value) => {
      if (full) throw new Error("QuotaExceededError");
      kept.set(key, String(value));
    },
  };
}

beforeEach(() => {
  globalThis.sessionStorage = storage();
});
afterEach(() => {
  delete globalThis.sessionStorage;
});

/** Run `body` with setTimeout held: it returns the timers set, [delay, callback] in order,
 * for the test to run when it likes. */
function heldTimers(body) {
  const timers = [];
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (callback, delay) => timers.push([delay, callback]);
  try {
    body();
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  return timers;
}

/** A Submissions whose send is recorded, and goes out while `link.open`. */
function submissions(key = "boggle-pending-ABC") {
  const link = { open: true, sent: [] };
  const subs = new Submissions((message) => {
    if (link.open) link.sent.push(message);
    return link.open;
  }, key);
  return { subs, link };
}

test("a client id names the round, the tab, the time and a counter", () => {
  assert.equal(clientId(3, "k2x9ab", 1_700_000_000_000, 7), `r3-k2x9ab-${(1_700_000_000_000).toString(36)}-7`);
  assert.notEqual(clientId(3, "k2x9ab", 1000, 1), clientId(3, "k2x9ab", 1000, 2));
});

test("a typed word is sent as a word, a traced one as its path", () => {
  assert.deepEqual(submitMessage("id1", { round: 1, word: "TEA" }), { type: "submit", client_id: "id1", word: "TEA" });
  assert.deepEqual(submitMessage("id2", { round: 1, path: [0, 1, 2] }), { type: "submit", client_id: "id2", path: [0, 1, 2] });
});

test("a resend sends this round's words again, 150 ms apart, and forgets other rounds'", () => {
  const pending = new Map([
    ["a", { round: 2, word: "OLD" }],
    ["b", { round: 3, word: "TEA" }],
    ["c", { round: 3, path: [0, 1] }],
    ["d", { round: 1, word: "OLDER" }],
    ["e", { round: 3, word: "EAT" }],
  ]);
  assert.deepEqual(resendPlan(pending, 3), { send: [["b", 0], ["c", 150], ["e", 300]], forget: ["a", "d"] });
  assert.deepEqual(resendPlan(pending, 3, 10).send, [["b", 0], ["c", 10], ["e", 20]]);
  assert.equal(pending.size, 5); // the plan changes nothing itself
});

test("a resend with nothing pending sends nothing", () => {
  assert.deepEqual(resendPlan(new Map(), 1), { send: [], forget: [] });
});

test("a word sent while the socket is open leaves at once, and waits for its answer", () => {
  const { subs, link } = submissions();
  assert.equal(subs.submit(4, { word: "TEA" }, "TEA"), true);
  assert.equal(link.sent.length, 1);
  assert.equal(link.sent[0].word, "TEA");
  assert.match(link.sent[0].client_id, /^r4-[a-z0-9]+-[a-z0-9]+-\d+$/);
  assert.equal(subs.waiting, 1);
});

test("two words in the same millisecond get different client ids", () => {
  const { subs, link } = submissions();
  subs.submit(1, { word: "TEA" }, "TEA");
  subs.submit(1, { word: "TEA" }, "TEA");
  assert.notEqual(link.sent[0].client_id, link.sent[1].client_id);
});

test("a word sent while the socket is closed says so, and is kept", () => {
  const { subs, link } = submissions();
  link.open = false;
  assert.equal(subs.submit(1, { path: [0, 1, 2] }, "TEA"), false);
  assert.equal(subs.waiting, 1);
});

test("the answer to a word returns what was sent and forgets it", () => {
  const { subs, link } = submissions();
  subs.submit(2, { word: "TEA" }, "TEA");
  const id = link.sent[0].client_id;
  assert.deepEqual(subs.answered(id), { round: 2, shown: "TEA", word: "TEA" });
  assert.equal(subs.waiting, 0);
  assert.equal(subs.answered(id), null); // a second answer (a retry's) is nobody's
});

test("after a reconnect, the words not yet answered go again with their ids, spaced out", () => {
  const { subs, link } = submissions();
  link.open = false;
  subs.submit(5, { word: "TEA" }, "TEA");
  subs.submit(5, { path: [3, 4] }, "AT");
  subs.submit(4, { word: "OLD" }, "OLD"); // a word of an earlier round
  link.open = true;
  const timers = heldTimers(() => subs.resend(5));
  assert.equal(subs.waiting, 2);
  assert.deepEqual(timers.map(([delay]) => delay), [0, 150]);
  timers.forEach(([, send]) => send());
  assert.deepEqual(link.sent.map((m) => m.word ?? m.path.join(",")), ["TEA", "3,4"]);
  assert.ok(link.sent.every((m) => m.client_id.startsWith("r5-")));
});

test("a word answered before its turn to go again is not sent again", () => {
  const { subs, link } = submissions();
  link.open = false;
  subs.submit(5, { word: "TEA" }, "TEA");
  subs.submit(5, { word: "EAT" }, "EAT");
  link.open = true;
  const timers = heldTimers(() => subs.resend(5));
  timers[0][1]();
  subs.answered(link.sent[0].client_id);
  const second = [...subs.pending.keys()][0];
  subs.answered(second); // its answer came from the first connection after all
  timers[1][1]();
  assert.equal(link.sent.length, 1);
});

test("words not yet answered are kept over a reload of the page", () => {
  const first = submissions("boggle-pending-XYZ");
  first.link.open = false;
  first.subs.submit(2, { word: "TEA" }, "TEA");
  first.subs.submit(2, { path: [0, 1] }, "AT");
  const reloaded = submissions("boggle-pending-XYZ");
  assert.equal(reloaded.subs.waiting, 2);
  assert.deepEqual([...reloaded.subs.pending.values()].map((item) => item.shown), ["TEA", "AT"]);
  assert.equal(submissions("boggle-pending-OTHER").subs.waiting, 0); // another room's are its own
});

test("a damaged store of pending words is ignored", () => {
  globalThis.sessionStorage = storage({ items: { "boggle-pending-ABC": "{not json" } });
  assert.equal(submissions().subs.waiting, 0);
});

test("a store that refuses to keep words still leaves them pending in memory", () => {
  globalThis.sessionStorage = storage({ full: true });
  const { subs, link } = submissions();
  link.open = false;
  assert.equal(subs.submit(1, { word: "TEA" }, "TEA"), false);
  assert.equal(subs.waiting, 1);
});

test("a page without a session store at all still takes words", () => {
  delete globalThis.sessionStorage;
  const { subs, link } = submissions();
  assert.equal(subs.submit(1, { word: "TEA" }, "TEA"), true);
  assert.equal(link.sent.length, 1);
  assert.equal(subs.waiting, 1);
});
