// The room's websocket (static/js/socket.js): how long it waits before reconnecting, and how
// it tells a numbered event seen already from the next one and from a gap.
import { test } from "node:test";
import assert from "node:assert/strict";

import { backoffDelay, eventOrder } from "../../static/js/socket.js";

const LOWEST = () => 0;
const HIGHEST = () => 1 - Number.EPSILON; // Math.random never reaches 1

test("the first reconnect waits between a quarter and half a second", () => {
  assert.equal(backoffDelay(1, LOWEST), 250);
  assert.ok(backoffDelay(1, HIGHEST) < 500);
  assert.ok(backoffDelay(1, HIGHEST) > 499);
});

test("the wait's ceiling doubles with every failed try: 0.5, 1, 2, 4, 8 seconds", () => {
  const ceilings = [1, 2, 3, 4, 5].map((attempt) => 2 * backoffDelay(attempt, LOWEST));
  assert.deepEqual(ceilings, [500, 1000, 2000, 4000, 8000]);
});

test("the wait never exceeds fifteen seconds, however many tries failed", () => {
  for (const attempt of [6, 7, 10, 100, 10_000]) {
    assert.equal(backoffDelay(attempt, LOWEST), 7500);
    assert.ok(backoffDelay(attempt, HIGHEST) < 15_000);
  }
});

test("the jitter spreads the wait over the upper half of the ceiling", () => {
  assert.equal(backoffDelay(3, () => 0.5), 1500); // ceiling 2 s: 1 s + half of 1 s
  assert.equal(backoffDelay(3, () => 0.25), 1250);
});

test("pages dropped together by a restarted server come back at different times", () => {
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647); // a fixed sequence
  const delays = Array.from({ length: 20 }, () => backoffDelay(4, random));
  assert.equal(new Set(delays).size, 20);
  assert.ok(delays.every((d) => d >= 2000 && d < 4000));
});

test("without a random function given, the wait is drawn by Math.random within its bounds", () => {
  for (let i = 0; i < 50; i += 1) {
    const delay = backoffDelay(2);
    assert.ok(delay >= 500 && delay < 1000);
  }
});

test("before any snapshot, every event is the next one", () => {
  assert.equal(eventOrder(null, 1), "next");
  assert.equal(eventOrder(null, 57), "next");
});

test("the event after the last one seen is the next one", () => {
  assert.equal(eventOrder(4, 5), "next");
  assert.equal(eventOrder(0, 1), "next");
});

test("an event numbered at or below the last one seen was seen already", () => {
  assert.equal(eventOrder(4, 4), "seen");
  assert.equal(eventOrder(4, 1), "seen");
  assert.equal(eventOrder(0, 0), "seen");
});

test("an event beyond the next one reveals a gap of missed events", () => {
  assert.equal(eventOrder(4, 6), "gap");
  assert.equal(eventOrder(1, 100), "gap");
});
