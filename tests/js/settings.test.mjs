// The settings fields (static/js/settings.js): the settings read from them, and the lines
// that describe a room's settings to everyone.
import { test } from "node:test";
import assert from "node:assert/strict";

import { describeHints, describeSettings, readSettings } from "../../static/js/settings.js";

/** A form as the settings functions use it: fields by name ({value} or {checked}), and
 * selects' options ({value, textContent}). */
function form(fields) {
  return { elements: { namedItem: (name) => fields[name] ?? null }, dataset: {} };
}
const select = (value, options = []) => ({ value, options: options.map(([v, text]) => ({ value: v, textContent: text })) });

const FULL = {
  preset: { value: "big" },
  dictionary: select("yawl", [["yawl", "YAWL (English)"], ["ods", "ODS (French)"]]),
  duration: select("180", [["120", "2 minutes"], ["180", " 3 minutes "]]),
  duplicates: { value: "cancel" },
  dice: select("big-boggle", [["big-boggle", "Big Boggle (5×5)"]]),
  rows: { value: "5" },
  cols: { value: "5" },
  min_length: { value: "4" },
  scoring: { value: "classic" },
  adjacency: { value: "king" },
  hints: { checked: true },
  hint_cost: { value: "2" },
  chat_in_rounds: { checked: false },
  richness: select("rich", [["", "Any board"], ["rich", "Rich"], ["words", "At least…"]]),
  min_words: { value: "40" },
};

test("the settings are read from the fields, sizes and times as numbers", () => {
  assert.deepEqual(readSettings(form(FULL)), {
    preset: "big", dictionary: "yawl", duration: 180, duplicates: "cancel", dice: "big-boggle",
    rows: 5, cols: 5, min_length: 4, scoring: "classic", adjacency: "king",
    hints: true, hint_cost: 2, chat_in_rounds: false, band: "rich", min_words: 0,
  });
});

test("a field the form lacks is left out: a solo room has no chat", () => {
  const { chat_in_rounds: _, ...solo } = FULL;
  assert.equal("chat_in_rounds" in readSettings(form(solo)), false);
  assert.deepEqual(readSettings(form({ preset: { value: "classic" } })), { preset: "classic" });
});

test("a hint's cost is a whole number of points, never below zero", () => {
  const cost = (value) => readSettings(form({ ...FULL, hint_cost: { value } })).hint_cost;
  assert.equal(cost("3"), 3);
  assert.equal(cost("2.6"), 3);
  assert.equal(cost("-4"), 0);
  assert.equal(cost(""), 0);
  assert.equal(cost("lots"), 0);
});

test("hints off are read as off, whatever the cost field says", () => {
  const settings = readSettings(form({ ...FULL, hints: { checked: false } }));
  assert.equal(settings.hints, false);
});

test("a board of at least some words asks for no band, and at least one word", () => {
  const words = (value) => readSettings(form({ ...FULL, richness: select("words"), min_words: { value } }));
  assert.deepEqual([words("40").band, words("40").min_words], ["", 40]);
  assert.equal(words("0").min_words, 1);
  assert.equal(words("").min_words, 1);
  assert.equal(words("-5").min_words, 1);
});

test("any board asks for neither a band nor a number of words", () => {
  const settings = readSettings(form({ ...FULL, richness: select("") }));
  assert.deepEqual([settings.band, settings.min_words], ["", 0]);
});

test("hints are described as off, free, or at their cost", () => {
  assert.equal(describeHints({ hints: false, hint_cost: 3 }), "Off");
  assert.equal(describeHints({}), "Off"); // settings saved before hints
  assert.equal(describeHints({ hints: true, hint_cost: 0 }), "On: free");
  assert.equal(describeHints({ hints: true, hint_cost: 1 }), "On: 1 point per hint");
  assert.equal(describeHints({ hints: true, hint_cost: 4 }), "On: 4 points per hint");
  assert.equal(describeHints({ hints: true }), "On: 1 point per hint"); // the default cost
});

const SETTINGS = {
  preset: "big", rows: 5, cols: 5, dice: "big-boggle", min_length: 4, adjacency: "king",
  duration: 180, scoring: "classic", duplicates: "cancel", dictionary: "yawl",
  band: "rich", min_words: 0, hints: true, hint_cost: 2, chat_in_rounds: false,
};
const describe = (settings, fields = FULL) => Object.fromEntries(describeSettings(form(fields), settings, { big: "Big Boggle 5×5" }));

test("the settings are described line by line, in the words of the form's choices", () => {
  assert.deepEqual(describe(SETTINGS), {
    Game: "Big Boggle 5×5",
    Board: "5×5, Big Boggle",
    Words: "4+ letters, 8 neighbours",
    Round: "3 minutes",
    Scoring: "Classic; shared words cancel",
    Dictionary: "YAWL (English)",
    Richness: "Rich",
    Hints: "On: 2 points per hint",
    Chat: "Between rounds only",
  });
});

test("a game off every preset is Custom, and rook adjacency has 4 neighbours", () => {
  const lines = describe({ ...SETTINGS, preset: "custom", adjacency: "rook", scoring: "linear", duplicates: "keep" });
  assert.equal(lines.Game, "Custom");
  assert.equal(lines.Words, "4+ letters, 4 neighbours");
  assert.equal(lines.Scoring, "Linear; every word counts");
});

test("a value the form does not offer is shown as it is", () => {
  assert.equal(describe({ ...SETTINGS, duration: 45 }).Round, "45");
});

test("richness is described as a band, a number of words, or any board", () => {
  assert.equal(describe({ ...SETTINGS, band: "", min_words: 40 }).Richness, "At least 40 words");
  assert.equal(describe({ ...SETTINGS, band: "", min_words: 0 }).Richness, "Any board");
});

test("the chat line is there only where the form offers the chat", () => {
  const { chat_in_rounds: _, ...solo } = FULL;
  assert.equal("Chat" in describe(SETTINGS, solo), false);
  assert.equal(describe({ ...SETTINGS, chat_in_rounds: true }).Chat, "Open during rounds too");
});
