// One Tab stop per list of words (static/js/roving.js): the word that the up and down arrow
// keys move to in a list that wraps over several rows.
import { test } from "node:test";
import assert from "node:assert/strict";

import { nearestInNextRow } from "../../static/js/roving.js";

const chip = (left, top, width = 40, height = 20) => ({ left, top, width, bottom: top + height });

// Three rows of chips of different widths, as a wrapped list lays them out:
//   [0    ][1 ][2       ]        centres 20, 65, 120
//   [3 ][4          ]            centres 15, 75
//   [5          ][6 ]            centres 40, 95
const ROWS = [
  chip(0, 0, 40), chip(50, 0, 30), chip(90, 0, 60),
  chip(0, 30, 30), chip(40, 30, 70),
  chip(0, 60, 80), chip(90, 60, 10),
];

test("down goes to the word in the next row nearest under the current one's centre", () => {
  assert.equal(nearestInNextRow(ROWS, 0, 1), 3);
  assert.equal(nearestInNextRow(ROWS, 1, 1), 4);
  assert.equal(nearestInNextRow(ROWS, 4, 1), 6);
});

test("down goes to the next row only, never past it to a nearer word further down", () => {
  // From 2 (centre 120): 6 in the third row (centre 95) is nearer than 4 (centre 75).
  assert.equal(nearestInNextRow(ROWS, 2, 1), 4);
});

test("up goes to the word in the row before nearest above the current one's centre", () => {
  assert.equal(nearestInNextRow(ROWS, 4, -1), 1);
  assert.equal(nearestInNextRow(ROWS, 6, -1), 4);
  assert.equal(nearestInNextRow(ROWS, 3, -1), 0);
});

test("from the last row down, or the first row up, there is nowhere to go", () => {
  assert.equal(nearestInNextRow(ROWS, 6, 1), -1);
  assert.equal(nearestInNextRow(ROWS, 0, -1), -1);
  assert.equal(nearestInNextRow([chip(0, 0)], 0, 1), -1);
});

test("chips a pixel out of line are one row", () => {
  const rows = [chip(0, 0), chip(0, 30), chip(100, 30.8)];
  assert.equal(nearestInNextRow(rows, 0, 1), 1);
  const ragged = [chip(100, 0), chip(0, 30), chip(100, 30.8)];
  assert.equal(nearestInNextRow(ragged, 0, 1), 2);
});

test("a tie between two words goes to the first in the list's order", () => {
  const rows = [chip(50, 0), chip(0, 30), chip(100, 30)]; // both 50 px away
  assert.equal(nearestInNextRow(rows, 0, 1), 1);
});
