// The board as drawn (static/js/board.js): the names a screen reader gives the dice, and the
// line drawn through a path.
import { test } from "node:test";
import assert from "node:assert/strict";

import { cellName, pathPoints } from "../../static/js/board.js";

test("a die is named by its letters and where it is, counted from 1", () => {
  assert.equal(cellName("A", 0, 0), "A, row 1, column 1");
  assert.equal(cellName("E", 3, 2), "E, row 4, column 3");
});

test("a multi-letter die is spelt out letter by letter, as printed", () => {
  assert.equal(cellName("QU", 1, 0), "Q u, row 2, column 1");
  assert.equal(cellName("TH", 0, 4), "T h, row 1, column 5");
});

test("a blank die is named blank", () => {
  assert.equal(cellName("", 2, 2), "blank, row 3, column 3");
});

test("the path's line runs through the dice's centres, in cells", () => {
  assert.deepEqual(pathPoints([0, 5, 10], 4), ["0.5,0.5", "1.5,1.5", "2.5,2.5"]);
  assert.deepEqual(pathPoints([3, 4], 4), ["3.5,0.5", "0.5,1.5"]);
  assert.deepEqual(pathPoints([], 4), []);
});
