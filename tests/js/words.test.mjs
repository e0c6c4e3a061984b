// The player's own words (static/js/words.js): why a word was refused, and the line that
// sums up the words found.
import { test } from "node:test";
import assert from "node:assert/strict";

import { foundSummary, rejection, wordsStruck } from "../../static/js/words.js";

test("each refusal is explained in words, quoting the word", () => {
  const say = (reason, word = "QZX") => rejection({ reason, word }, 4);
  assert.equal(say("too_short", "AT"), "“AT” is too short: words need at least 4 letters.");
  assert.equal(say("not_a_word"), "“QZX” is not in the dictionary.");
  assert.equal(say("not_on_board", "ZEBRA"), "“ZEBRA” is a word, but it is not on this board.");
  assert.equal(say("bad_path", "TEA"), "Those dice do not spell “TEA” along touching dice.");
  assert.equal(say("already_found", "TEA"), "You already have “TEA”.");
  assert.equal(say("round_not_running", "TEA"), "Too late: the round is over.");
});

test("a traced path that spells nothing is refused as dice that do not touch", () => {
  assert.equal(rejection({ reason: "bad_path" }, 3), "Those dice do not touch in a row.");
});

test("a refusal this page does not know is given in the server's words", () => {
  assert.equal(rejection({ reason: "slow_down", message: "Slow down a little." }, 3), "Slow down a little.");
});

test("a refusal with neither a known reason nor a message still says something", () => {
  assert.equal(rejection({ reason: "newer_than_this_page" }, 3), "That word was not accepted.");
});

test("before any word the summary says there is none", () => {
  assert.equal(foundSummary([], true), "No words yet.");
});

test("in a room, the summary counts words and points that stand only if nobody else finds them", () => {
  assert.equal(foundSummary([{ points: 1 }], true), "1 word, 1 point if nobody else finds them");
  assert.equal(foundSummary([{ points: 1 }, { points: 3 }], true), "2 words, 4 points if nobody else finds them");
});

test("in the arena, where no word is struck, the points simply count", () => {
  assert.equal(foundSummary([{ points: 2 }, { points: 3 }], false), "2 words, 5 points");
  assert.equal(foundSummary([{ points: 0 }], false), "1 word, 0 points");
});

test("only a room of friends that cancels duplicates strikes shared words", () => {
  assert.equal(wordsStruck({ duplicates: "cancel" }, false), true);
  assert.equal(wordsStruck({ duplicates: "count" }, false), false); // a daily attempt's rules
  assert.equal(wordsStruck({ duplicates: "cancel" }, true), false); // solo: nobody to share with
  assert.equal(wordsStruck(null, false), false); // before the first snapshot
});
