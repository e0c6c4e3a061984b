// The board's geometry and the path that typed letters follow (static/js/paths.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { adjacent, boardModel, faceLabel, findPath, neighbourTable, normalise, spell } from "../../static/js/paths.js";

// 2 × 3:  QU E  _
//         N  E  S
const QUEEN = { rows: 2, cols: 3, faces: ["QU", "E", "", "N", "E", "S"] };

test("king adjacency joins the eight cells around a die, diagonals included", () => {
  assert.equal(adjacent(0, 1, 3, "king"), true);
  assert.equal(adjacent(0, 3, 3, "king"), true);
  assert.equal(adjacent(0, 4, 3, "king"), true);
  assert.equal(adjacent(0, 2, 3, "king"), false);
  assert.equal(adjacent(0, 5, 3, "king"), false);
});

test("rook adjacency joins only the four cells beside a die, never diagonals", () => {
  assert.equal(adjacent(0, 1, 3, "rook"), true);
  assert.equal(adjacent(0, 3, 3, "rook"), true);
  assert.equal(adjacent(0, 4, 3, "rook"), false);
  assert.equal(adjacent(4, 2, 3, "rook"), false);
});

test("a die never touches itself", () => {
  assert.equal(adjacent(4, 4, 3, "king"), false);
  assert.equal(adjacent(4, 4, 3, "rook"), false);
});

test("the last die of a row does not touch the first of the next: rows never wrap", () => {
  // 3 columns: cell 2 ends row 1, cell 3 starts row 2.
  assert.equal(adjacent(2, 3, 3, "king"), false);
  assert.equal(adjacent(2, 3, 3, "rook"), false);
  assert.equal(adjacent(3, 2, 3, "king"), false);
});

test("the neighbour table gives corners, edges and the centre their due number of neighbours", () => {
  const king = neighbourTable(3, 3, "king");
  const rook = neighbourTable(3, 3, "rook");
  assert.deepEqual(king.map((around) => around.length), [3, 5, 3, 5, 8, 5, 3, 5, 3]);
  assert.deepEqual(rook.map((around) => around.length), [2, 3, 2, 3, 4, 3, 2, 3, 2]);
  assert.deepEqual(king[0], [1, 3, 4]);
  assert.deepEqual(rook[4], [1, 3, 5, 7]);
});

test("a one-cell board has a cell with no neighbours", () => {
  assert.deepEqual(neighbourTable(1, 1, "king"), [[]]);
});

test("a face is printed as on the die: Qu, In and Th with one capital, a blank as nothing", () => {
  assert.equal(faceLabel("QU"), "Qu");
  assert.equal(faceLabel("IN"), "In");
  assert.equal(faceLabel("TH"), "Th");
  assert.equal(faceLabel("A"), "A");
  assert.equal(faceLabel(""), "");
});

test("a path spells the faces of its dice in order, a multi-letter face in full", () => {
  assert.equal(spell(QUEEN.faces, [0, 1, 4, 3]), "QUEEN");
  assert.equal(spell(QUEEN.faces, []), "");
});

test("typed text is read as the board reads it: upper-case letters only", () => {
  assert.equal(normalise("qu-een's 2"), "QUEENS");
  assert.equal(normalise("  tea\t"), "TEA");
  assert.equal(normalise("éTé"), "ÉTÉ"); // letters of any alphabet are letters
  assert.equal(normalise("123 !?"), "");
});

test("the board model carries the faces, the size, the adjacency and the neighbour table", () => {
  const model = boardModel(QUEEN);
  assert.equal(model.adjacency, "king");
  assert.equal(model.rows, 2);
  assert.equal(model.cols, 3);
  assert.deepEqual(model.neighbours, neighbourTable(2, 3, "king"));
  assert.equal(boardModel(QUEEN, "rook").adjacency, "rook");
});

test("a typed QU follows the Qu die as one cell", () => {
  const board = boardModel(QUEEN);
  assert.deepEqual(findPath(board, "QUEEN"), [0, 1, 4, 3]);
  assert.deepEqual(findPath(board, "QUE"), [0, 1]);
});

test("a lone Q typed last already finds the Qu die: the last face may be only begun", () => {
  const board = boardModel(QUEEN);
  assert.deepEqual(findPath(board, "Q"), [0]);
});

test("a Qu die is not a Q in the middle of a word", () => {
  const board = boardModel(QUEEN);
  assert.equal(findPath(board, "QE"), null);
  assert.equal(findPath(board, "QUIZ"), null);
});

test("only the last face may be begun: a two-letter face is matched whole before the end", () => {
  // In S
  const board = boardModel({ rows: 1, cols: 2, faces: ["IN", "S"] });
  assert.deepEqual(findPath(board, "INS"), [0, 1]);
  assert.deepEqual(findPath(board, "I"), [0]);
  assert.equal(findPath(board, "IS"), null);
});

test("a word spelt across Th and In faces uses each as one die", () => {
  // Th In
  // E  G
  const board = boardModel({ rows: 2, cols: 2, faces: ["TH", "IN", "E", "G"] });
  assert.deepEqual(findPath(board, "THING"), [0, 1, 3]);
  assert.deepEqual(findPath(board, "THE"), [0, 2]);
});

test("a blank face is never on a path", () => {
  const board = boardModel({ rows: 1, cols: 3, faces: ["A", "", "B"] });
  assert.equal(findPath(board, "AB"), null);
  assert.deepEqual(findPath(board, "A"), [0]);
});

test("rook adjacency finds no diagonal step, but goes round by the sides", () => {
  const faces = ["A", "B", "C", "D"];
  assert.deepEqual(findPath(boardModel({ rows: 2, cols: 2, faces }), "AD"), [0, 3]);
  assert.equal(findPath(boardModel({ rows: 2, cols: 2, faces }, "rook"), "AD"), null);
  assert.deepEqual(findPath(boardModel({ rows: 2, cols: 2, faces }, "rook"), "ABDC"), [0, 1, 3, 2]);
});

test("a die is used once in a word: a word longer than the board allows has no path", () => {
  const board = boardModel({ rows: 2, cols: 2, faces: ["A", "B", "C", "D"] });
  assert.deepEqual(findPath(board, "ABCD"), [0, 1, 2, 3]);
  assert.equal(findPath(board, "ABCDA"), null);
  assert.equal(findPath(board, "ABA"), null);
});

test("nothing typed has no path", () => {
  assert.equal(findPath(boardModel(QUEEN), ""), null);
});

test("letters the board lacks have no path", () => {
  assert.equal(findPath(boardModel(QUEEN), "Z"), null);
  assert.equal(findPath(boardModel(QUEEN), "NS"), null); // both there, but apart
});

test("preferred cells are tried first, so the path shown while typing stays put", () => {
  const board = boardModel({ rows: 1, cols: 3, faces: ["A", "B", "A"] });
  assert.deepEqual(findPath(board, "AB"), [0, 1]);
  assert.deepEqual(findPath(board, "AB", { prefer: [2] }), [2, 1]);
  assert.deepEqual(findPath(board, "ABA", { prefer: [2, 1] }), [2, 1, 0]);
  assert.deepEqual(findPath(board, "AB", { prefer: [1] }), [0, 1]); // a preference that cannot start is ignored
});

test("a path through a chosen die is found when one exists, and only then", () => {
  const board = boardModel({ rows: 2, cols: 3, faces: ["T", "E", "A", "A", "E", "T"] });
  assert.deepEqual(findPath(board, "TEA"), [0, 1, 2]);
  assert.ok(findPath(board, "TEA", { through: 4 }).includes(4));
  assert.ok(findPath(board, "TEA", { through: 2 }).includes(2));
  assert.equal(findPath(board, "TE", { through: 3 }), null);
});

test("a hopeless search gives up instead of hanging", { timeout: 5000 }, () => {
  const board = boardModel({ rows: 10, cols: 10, faces: Array(100).fill("E") });
  assert.equal(findPath(board, "E".repeat(40) + "X"), null);
});
