// What the room says as a round's board appears (static/js/stage.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { endLabel, goText } from "../../static/js/stage.js";

const ROUND = { number: 3, starts_at: 10_000, ends_at: 190_000 };

test("a board that appears at the start says go", () => {
  assert.equal(goText(ROUND, 10_000), "Round 3: go!");
  assert.equal(goText(ROUND, 9_000), "Round 3: go!"); // a clock a little behind
});

test("a board up to two seconds late still says go", () => {
  assert.equal(goText(ROUND, 12_000), "Round 3: go!");
});

test("a page that comes to a round under way says how long is left", () => {
  assert.equal(goText(ROUND, 12_001), "Round 3 is under way: 2 minutes 58 seconds left.");
  assert.equal(goText(ROUND, 125_000), "Round 3 is under way: 1 minute 5 seconds left.");
  assert.equal(goText(ROUND, 189_500), "Round 3 is under way: 1 second left.");
});

test("a page that comes to an untimed round under way says only that", () => {
  assert.equal(goText({ ...ROUND, ends_at: null }, 60_000), "Round 3 is under way.");
});

test("the button that ends a round early says what follows, per kind of room", () => {
  // A daily attempt's room is a solo room too (room.js sets both): its label is the daily's.
  const daily = "/daily/4x4/2026-12-05/"; // the day's page, which the results link to
  assert.equal(endLabel({ solo: true, daily }), "I'm done: show the results");
  assert.equal(endLabel({ solo: true, daily: null }), "I'm done: the computer's turn");
  assert.equal(endLabel({ solo: false, daily: null }), "End the round now");
});
