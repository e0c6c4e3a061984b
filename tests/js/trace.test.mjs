// Tracing a word on the board (static/js/trace.js): which die a point is on, and how a drag,
// a tap and the arrow keys change the path.
import { test } from "node:test";
import assert from "node:assert/strict";

import { boardModel } from "../../static/js/paths.js";
import { addableCell, arrowCell, cellAtPoint, dragPath, tapPath, usableCell } from "../../static/js/trace.js";

// 3 × 3, drawn 300 px square from (100, 50): each die is 100 px.
//   A B C
//   D _ E
//   F G H
const FACES = ["A", "B", "C", "D", "", "E", "F", "G", "H"];
const KING = boardModel({ rows: 3, cols: 3, faces: FACES });
const ROOK = boardModel({ rows: 3, cols: 3, faces: FACES }, "rook");
const RECT = { left: 100, top: 50, width: 300, height: 300 };

test("a point in a die's square is on that die", () => {
  assert.equal(cellAtPoint(150, 100, RECT, 3, 3, false), 0); // the centre of the first
  assert.equal(cellAtPoint(399, 349, RECT, 3, 3, false), 8); // the far corner of the last
  assert.equal(cellAtPoint(201, 151, RECT, 3, 3, false), 4);
});

test("a point off the board is on no die", () => {
  assert.equal(cellAtPoint(99, 100, RECT, 3, 3, false), -1);
  assert.equal(cellAtPoint(150, 49, RECT, 3, 3, false), -1);
  assert.equal(cellAtPoint(400, 100, RECT, 3, 3, false), -1);
  assert.equal(cellAtPoint(150, 350, RECT, 3, 3, false), -1);
});

test("a drag enters a die only near its centre, never at a corner", () => {
  // The hit circle has a radius of 0.42 of a die: 42 px here.
  assert.equal(cellAtPoint(150 + 41, 100, RECT, 3, 3, true), 0);
  assert.equal(cellAtPoint(150 + 43, 100, RECT, 3, 3, true), -1);
  assert.equal(cellAtPoint(199, 149, RECT, 3, 3, true), -1); // the corner between four dice
  assert.equal(cellAtPoint(150 + 29, 100 + 29, RECT, 3, 3, true), 0); // 41 px away, diagonally
  assert.equal(cellAtPoint(150 + 30, 100 + 30, RECT, 3, 3, true), -1); // 42.4 px away
});

test("a board wider than tall finds dice by rows and columns alike", () => {
  const wide = { left: 0, top: 0, width: 500, height: 200 }; // 2 rows of 5
  assert.equal(cellAtPoint(450, 150, wide, 2, 5, false), 9);
  assert.equal(cellAtPoint(250, 50, wide, 2, 5, true), 2);
});

test("a blank die, a cell off the board and a board not drawn cannot be used", () => {
  assert.equal(usableCell(KING, 0), true);
  assert.equal(usableCell(KING, 4), false); // the blank
  assert.equal(usableCell(KING, -1), false);
  assert.equal(usableCell(null, 0), false);
});

test("any usable die may start a path", () => {
  assert.equal(addableCell(KING, [], 8), true);
  assert.equal(addableCell(KING, [], 4), false);
});

test("the next die must touch the last: diagonally too under king adjacency, not under rook", () => {
  assert.equal(addableCell(KING, [0], 1), true);
  assert.equal(addableCell(KING, [1], 5), true); // a diagonal step
  assert.equal(addableCell(ROOK, [1], 5), false);
  assert.equal(addableCell(ROOK, [2], 5), true);
  assert.equal(addableCell(KING, [0], 2), false); // two columns away
  assert.equal(addableCell(KING, [2], 3), false); // the end of a row does not touch the next row's start
});

test("a die already on the path cannot be added again", () => {
  assert.equal(addableCell(KING, [0, 1, 3], 0), false);
});

test("a drag through touching dice adds each", () => {
  assert.deepEqual(dragPath(KING, [], 0), [0]);
  assert.deepEqual(dragPath(KING, [0], 1), [0, 1]);
  assert.deepEqual(dragPath(KING, [0, 1], 5), [0, 1, 5]);
});

test("dragging back onto the die before the last takes the last die back", () => {
  assert.deepEqual(dragPath(KING, [0, 1, 5], 1), [0, 1]);
});

test("a drag staying on the last die, or crossing one it cannot use, leaves the path", () => {
  assert.equal(dragPath(KING, [0, 1], 1), null);
  assert.equal(dragPath(KING, [0, 1], 4), null); // the blank
  assert.equal(dragPath(KING, [0, 1], 8), null); // too far
  assert.equal(dragPath(KING, [0, 1, 5], 0), null); // on the path, not just before the last
  assert.equal(dragPath(ROOK, [1], 3), null); // diagonal under rook adjacency
});

test("a tap adds a die that touches the last", () => {
  assert.deepEqual(tapPath(KING, [], 3), [3]);
  assert.deepEqual(tapPath(KING, [3], 6), [3, 6]);
});

test("a tap on the last die takes it back", () => {
  assert.deepEqual(tapPath(KING, [3, 6, 7], 7), [3, 6]);
  assert.deepEqual(tapPath(KING, [3], 3), []);
});

test("a tap on a die earlier on the path goes back to it", () => {
  assert.deepEqual(tapPath(KING, [0, 1, 5, 8], 1), [0, 1]);
  assert.deepEqual(tapPath(KING, [0, 1, 5, 8], 0), [0]);
});

test("a tap on a die that cannot come next is refused", () => {
  assert.equal(tapPath(KING, [0], 8), null);
  assert.equal(tapPath(KING, [0], 4), null); // the blank
  assert.equal(tapPath(KING, [], 4), null);
  assert.equal(tapPath(ROOK, [0], 4), null);
  assert.equal(tapPath(ROOK, [1], 5), null);
});

test("a path is never changed in place", () => {
  const path = [0, 1];
  tapPath(KING, path, 5);
  dragPath(KING, path, 0);
  assert.deepEqual(path, [0, 1]);
});

test("the arrow keys move the focus to the die beside, above or below", () => {
  assert.equal(arrowCell(4, "ArrowUp", 3, 3), 1);
  assert.equal(arrowCell(4, "ArrowDown", 3, 3), 7);
  assert.equal(arrowCell(4, "ArrowLeft", 3, 3), 3);
  assert.equal(arrowCell(4, "ArrowRight", 3, 3), 5);
});

test("at the board's edge the arrow keys stay put, and never wrap to the next row", () => {
  assert.equal(arrowCell(2, "ArrowRight", 3, 3), -1);
  assert.equal(arrowCell(3, "ArrowLeft", 3, 3), -1);
  assert.equal(arrowCell(1, "ArrowUp", 3, 3), -1);
  assert.equal(arrowCell(7, "ArrowDown", 3, 3), -1);
  assert.equal(arrowCell(4, "ArrowRight", 2, 5), -1); // the end of the first row of five
});

test("the arrow keys reach blank dice too: the focus moves over the whole board", () => {
  assert.equal(arrowCell(1, "ArrowDown", 3, 3), 4);
});
