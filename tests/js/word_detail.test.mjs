// The word picked in the results (static/js/word_detail.js): where its definition comes
// from, and definitions fetched once each.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";

import { Definitions, heading } from "../../static/js/word_detail.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answer fetch with these in turn ({status, body} or an Error); returns the URLs asked. */
function answers(...replies) {
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(url);
    const reply = replies.shift();
    if (reply instanceof Error) throw reply;
    return { ok: reply.status === 200, status: reply.status, json: async () => reply.body };
  };
  return asked;
}

const urlOf = (round, word) => `/r/ABC/rounds/${round}/words/${word}/definition.json`;

test("a word defined under another form shows both", () => {
  assert.equal(heading({ word: "TIES", base: "tie" }), "TIES → tie");
  assert.equal(heading({ word: "QUASHED", base: "quash" }), "QUASHED → quash");
});

test("a word defined under itself shows only its base form", () => {
  assert.equal(heading({ word: "SITE", base: "site" }), "site");
  assert.equal(heading({ word: "SEI", base: "Sei" }), "Sei");
});

test("a word's definition is fetched once, however often it is opened", async () => {
  const asked = answers({ status: 200, body: { word: "TEA", summary: "a drink" } });
  const definitions = new Definitions(urlOf);
  const [first, second] = await Promise.all([definitions.get(4, "TEA"), definitions.get(4, "TEA")]);
  assert.equal((await definitions.get(4, "TEA")).summary, "a drink");
  assert.equal(first, second);
  assert.deepEqual(asked, ["/r/ABC/rounds/4/words/TEA/definition.json"]);
});

test("the same word in another round is its own definition", async () => {
  const asked = answers({ status: 200, body: {} }, { status: 200, body: {} });
  const definitions = new Definitions(urlOf);
  await definitions.get(4, "TEA");
  await definitions.get(5, "TEA");
  assert.equal(asked.length, 2);
});

test("a refusal gives the server's reason, and the next look asks again", async () => {
  const asked = answers({ status: 409, body: { message: "The round is still being played." } }, { status: 200, body: { summary: "ok" } });
  const definitions = new Definitions(urlOf);
  await assert.rejects(definitions.get(1, "TEA"), { message: "The round is still being played." });
  assert.equal((await definitions.get(1, "TEA")).summary, "ok");
  assert.equal(asked.length, 2);
});

test("a refusal without a reason says what the server answered", async () => {
  answers({ status: 500, body: {} });
  await assert.rejects(new Definitions(urlOf).get(1, "TEA"), { message: "The server answered 500." });
});

test("a network failure says the connection failed", async () => {
  answers(new TypeError("Failed to fetch"));
  await assert.rejects(new Definitions(urlOf).get(1, "TEA"), { message: "The definition could not be loaded: the connection failed." });
});
