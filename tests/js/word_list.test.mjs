// The results' list of every word on the board (static/js/word_list.js): commonness labels,
// the filters (who found it, length, commonness, a die), the orders, and the status line.
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardModel } from "../../static/js/paths.js";
import {
  SORTS,
  commonness,
  filterChoices,
  keepWord,
  labelOf,
  listEntries,
  listStatus,
  listViews,
  pathThrough,
  sortWords,
  viewCounts,
} from "../../static/js/word_list.js";

// 2 × 3:  S I T
//         E S T
const BOARD = boardModel({ rows: 2, cols: 3, faces: ["S", "I", "T", "E", "S", "T"] });

const SOLUTION = [
  { word: "SIT", path: [0, 1, 2], points: 1, zipf: 4.9, found_by: [1, 2] },
  { word: "SITE", path: [0, 1, 2, 3], points: 1, zipf: 4.6, found_by: [1] },
  { word: "TIES", path: [2, 1, 3, 4], points: 1, zipf: 3.2, found_by: [] },
  { word: "ITS", path: [1, 2, 4], points: 1, zipf: 4.9, found_by: [] },
  { word: "STIES", path: [4, 5, 1, 3, 0], points: 2, zipf: 1.1, found_by: [2] },
  { word: "TES", path: [2, 3, 4], points: 1, found_by: [] }, // stored before Zipf figures
];
const MINE = new Set(["SIT", "SITE"]);
const words = () => listEntries(SOLUTION);
const names = (list) => list.map((w) => w.word);

test("commonness is read from the Zipf figure at 4.5, 3 and 1.5", () => {
  assert.equal(commonness(7), "everyday");
  assert.equal(commonness(4.5), "everyday");
  assert.equal(commonness(4.49), "common");
  assert.equal(commonness(3), "common");
  assert.equal(commonness(2.99), "uncommon");
  assert.equal(commonness(1.5), "uncommon");
  assert.equal(commonness(1.49), "rare");
  assert.equal(commonness(0), "rare");
});

test("a word's label is the server's when it sent one, else read from its Zipf figure", () => {
  assert.equal(labelOf({ commonness: "rare", zipf: 6 }), "rare");
  assert.equal(labelOf({ zipf: 3.5 }), "common");
  assert.equal(labelOf({ zipf: 0 }), "rare"); // never seen is a figure too
});

test("a word stored without a Zipf figure or label shows none", () => {
  assert.equal(labelOf({}), "");
  assert.equal(labelOf({ zipf: null }), "");
});

test("a word without a Zipf figure is listed as never seen but shows no label", () => {
  const tes = words().find((w) => w.word === "TES");
  assert.equal(tes.zipf, 0);
  assert.equal(tes.label, "");
});

test("the list keeps the solution's entries as they came", () => {
  const list = words();
  assert.notEqual(list[0], SOLUTION[0]);
  assert.equal(SOLUTION[5].zipf, undefined);
  assert.deepEqual(list[1].path, SOLUTION[1].path);
});

test("the list offers three orders: common first, longest first, A to Z", () => {
  assert.deepEqual(Object.keys(SORTS), ["common", "long", "abc"]);
  assert.deepEqual(Object.values(SORTS).map(([label]) => label), ["Common first", "Longest first", "A to Z"]);
});

test("common first puts the commonest first, then the longer, then A to Z", () => {
  assert.deepEqual(names(sortWords(words(), "common")), ["ITS", "SIT", "SITE", "TIES", "STIES", "TES"]);
});

test("longest first puts the longest first, then the higher scoring, then A to Z", () => {
  const list = listEntries([
    { word: "TIES", path: [], points: 1, found_by: [] },
    { word: "SITE", path: [], points: 3, found_by: [] },
    { word: "STIES", path: [], points: 2, found_by: [] },
    { word: "ITS", path: [], points: 1, found_by: [] },
    { word: "EST", path: [], points: 1, found_by: [] },
  ]);
  assert.deepEqual(names(sortWords(list, "long")), ["STIES", "SITE", "TIES", "EST", "ITS"]);
});

test("A to Z sorts alphabetically", () => {
  assert.deepEqual(names(sortWords(words(), "abc")), ["ITS", "SIT", "SITE", "STIES", "TES", "TIES"]);
});

test("sorting leaves the list it was given in its order", () => {
  const list = words();
  sortWords(list, "abc");
  assert.deepEqual(names(list), names(SOLUTION));
});

test("the view counts say how many words I missed, anyone found, and in all", () => {
  assert.deepEqual(viewCounts(words(), MINE), { missed: 4, unfound: 3, found: 3, all: 6 });
  assert.deepEqual(viewCounts(words(), new Set()), { missed: 6, unfound: 3, found: 3, all: 6 });
  assert.deepEqual(viewCounts([], MINE), { missed: 0, unfound: 0, found: 0, all: 0 });
});

test("the length filter offers the lengths on the board, shortest first, in number order", () => {
  const list = listEntries(["ABCDEFGHIJ", "ABCD", "ABC", "ABCDE", "ABD"].map((word) => ({ word, path: [], found_by: [] })));
  assert.deepEqual(filterChoices(list).lengths, [3, 4, 5, 10]);
});

test("the commonness filter offers only the labels on the board, commonest first", () => {
  assert.deepEqual(filterChoices(words()).labels, ["everyday", "common", "rare"]);
  assert.deepEqual(filterChoices([]), { lengths: [], labels: [] });
});

const ANY = { view: "all", length: "", label: "" };
const kept = (filters, mine = MINE) => names(words().filter((w) => keepWord(w, { ...ANY, ...filters }, mine)));

test("missed by me keeps the words I did not find, found by others or by nobody", () => {
  assert.deepEqual(kept({ view: "missed" }), ["TIES", "ITS", "STIES", "TES"]);
});

test("missed by everyone keeps the words nobody found, whoever looks (a spectator too)", () => {
  assert.deepEqual(kept({ view: "unfound" }), ["TIES", "ITS", "TES"]);
  assert.deepEqual(kept({ view: "unfound" }, new Set()), ["TIES", "ITS", "TES"]);
});

test("a spectator's views are missed by everyone, found and all; never missed by me", () => {
  assert.deepEqual(listViews(false).map(([v]) => v), ["unfound", "found", "all"]);
  assert.deepEqual(listViews(false)[0][1], "Missed by everyone");
  assert.deepEqual(listViews(true).map(([, label]) => label), ["Missed by me", "Found", "All"]);
  assert.equal(listStatus({ shown: 3, total: 11, view: "unfound", cell: -1, model: BOARD }), "Showing 3 of 11 words (missed by everyone).");
});

test("found keeps the words anyone found, mine and others'", () => {
  assert.deepEqual(kept({ view: "found" }), ["SIT", "SITE", "STIES"]);
});

test("all keeps every word", () => {
  assert.deepEqual(kept({ view: "all" }), names(SOLUTION));
});

test("the length filter keeps words of that many letters only", () => {
  assert.deepEqual(kept({ length: "4" }), ["SITE", "TIES"]);
  assert.deepEqual(kept({ length: "7" }), []);
});

test("the commonness filter keeps words of that label only, never one without a label", () => {
  assert.deepEqual(kept({ label: "everyday" }), ["SIT", "SITE", "ITS"]);
  assert.deepEqual(kept({ label: "rare" }), ["STIES"]);
});

test("the filters add up: missed by me, of three letters, everyday", () => {
  assert.deepEqual(kept({ view: "missed", length: "3", label: "everyday" }), ["ITS"]);
});

test("without a die tapped, a word shows its own path", () => {
  const site = words()[1];
  assert.equal(pathThrough(site, -1, BOARD), site.path);
});

test("through a tapped die, a word whose path goes through it shows that path", () => {
  const site = words()[1];
  assert.equal(pathThrough(site, 3, BOARD), site.path);
});

test("through a tapped die, a word spelt another way through it shows that way", () => {
  const sit = words()[0]; // its own path is S(0) I(1) T(2); another is S(4) I(1) T(5)
  const path = pathThrough(sit, 5, BOARD);
  assert.ok(path.includes(5));
  assert.equal(path.length, 3);
});

test("through a tapped die no path of the word crosses, the word is not shown", () => {
  const its = words()[3]; // ITS has no E: no path of it crosses the E die (3)
  assert.equal(pathThrough(its, 3, BOARD), null);
});

test("without a board to search, a word keeps its own path", () => {
  const sit = words()[0];
  assert.equal(pathThrough(sit, 5, null), sit.path);
});

test("the status line says how many words show, of how many, in which view", () => {
  assert.equal(listStatus({ shown: 10, total: 11, view: "missed", cell: -1, model: BOARD }), "Showing 10 of 11 words (missed by you).");
  assert.equal(listStatus({ shown: 1, total: 11, view: "found", cell: -1, model: BOARD }), "Showing 1 of 11 words (found).");
  assert.equal(listStatus({ shown: 11, total: 11, view: "all", cell: -1, model: BOARD }), "Showing 11 of 11 words.");
  assert.equal(listStatus({ shown: 1, total: 1, view: "all", cell: -1, model: null }), "Showing 1 of 1 word.");
});

test("the status line names the die tapped, where it is, and how to show all again", () => {
  assert.equal(
    listStatus({ shown: 2, total: 6, view: "all", cell: 5, model: BOARD }),
    "Showing 2 of 6 words through the T die (row 2, column 3); tap it again to show all.",
  );
  const qu = boardModel({ rows: 1, cols: 2, faces: ["QU", ""] });
  assert.match(listStatus({ shown: 0, total: 3, view: "missed", cell: 0, model: qu }), /\(missed by you\) through the Qu die \(row 1, column 1\)/);
  assert.match(listStatus({ shown: 0, total: 3, view: "all", cell: 1, model: qu }), /through the blank die \(row 1, column 2\)/);
});
