// Hints during a round (static/js/hints.js): the counts less the words found since, the
// order they are shown in, and what is said and shown of them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { countsLess, hintAnnouncement, orderedKeys, takenText } from "../../static/js/hints.js";

test("a word found is taken off its length and its first letter", () => {
  const counts = { lengths: { 3: 2, 4: 1 }, letters: { T: 2, S: 1 } };
  assert.deepEqual(countsLess(counts, "TEA"), { lengths: { 3: 1, 4: 1 }, letters: { T: 1, S: 1 } });
});

test("a count that reaches zero goes from the list", () => {
  const counts = { lengths: { 3: 2, 4: 1 }, letters: { T: 2, S: 1 } };
  assert.deepEqual(countsLess(counts, "SITE"), { lengths: { 3: 2 }, letters: { T: 2 } });
});

test("only the kinds of hint taken are counted down", () => {
  assert.deepEqual(countsLess({ letters: { T: 1 } }, "TEA"), { letters: {} });
  assert.deepEqual(countsLess({}, "TEA"), {});
});

test("a word outside the counts changes none of them", () => {
  const counts = { lengths: { 5: 1 }, letters: { A: 1 } };
  assert.deepEqual(countsLess(counts, "TEA"), counts);
});

test("the counts answered by the server are left as they were", () => {
  const counts = { lengths: { 3: 1 } };
  countsLess(counts, "TEA");
  assert.deepEqual(counts, { lengths: { 3: 1 } });
});

test("lengths are shown shortest first, 10 after 9", () => {
  assert.deepEqual(orderedKeys({ 10: 1, 3: 4, 9: 1, 4: 2 }), ["3", "4", "9", "10"]);
});

test("letters are shown A to Z", () => {
  assert.deepEqual(orderedKeys({ T: 1, A: 3, S: 2 }), ["A", "S", "T"]);
  assert.deepEqual(orderedKeys({}), []);
});

test("an answer is said in full, kind by kind", () => {
  assert.equal(hintAnnouncement("lengths", { 3: 2, 4: 1 }), "Hint by length: 2 words of 3 letters, 1 word of 4 letters.");
  assert.equal(hintAnnouncement("letters", { T: 1 }), "Hint by first letter: 1 word starting with T.");
});

test("an answer with nothing left says every word is found", () => {
  assert.equal(hintAnnouncement("letters", {}), "Hint by first letter: you have found every word.");
});

test("the hints taken are shown with what they cost this round", () => {
  assert.equal(takenText(2, 3), "Hints taken: 2 × 3 points = −6 points this round.");
  assert.equal(takenText(1, 1), "Hints taken: 1 × 1 point = −1 point this round.");
  assert.equal(takenText(3, 0), "Hints taken: 3 × 0 points = −0 points this round.");
});

test("before any hint, the line says what a hint tells", () => {
  assert.equal(takenText(0, 2), "Each hint tells you how many words you have not found yet; none taken.");
});
