// Board geometry and paths: neighbours, spelling a path, finding a path that spells text.

/** Return whether cells a and b touch under the adjacency ("king": 8 neighbours, "rook": 4). */
export function adjacent(a, b, cols, adjacency) {
  const dr = Math.abs(Math.floor(a / cols) - Math.floor(b / cols));
  const dc = Math.abs((a % cols) - (b % cols));
  if (a === b || dr > 1 || dc > 1) return false;
  return adjacency === "rook" ? dr + dc === 1 : true;
}

/** Return, for each cell, the cells that touch it. */
export function neighbourTable(rows, cols, adjacency) {
  const table = [];
  for (let cell = 0; cell < rows * cols; cell += 1) {
    const around = [];
    for (let other = 0; other < rows * cols; other += 1) {
      if (adjacent(cell, other, cols, adjacency)) around.push(other);
    }
    table.push(around);
  }
  return table;
}

/** Return a face as printed on a die: "Qu", "In", "A"; "" for a blank. */
export function faceLabel(face) {
  return face.length > 1 ? face[0] + face.slice(1).toLowerCase() : face;
}

/** Return the letters a path spells, upper case. */
export function spell(faces, path) {
  return path.map((cell) => faces[cell]).join("");
}

/** Return text as the board reads it: letters only, upper case. */
export function normalise(text) {
  return text.toUpperCase().replace(/[^\p{L}]/gu, "");
}

const BUDGET = 40000; // search steps per call: a pathological board gives up, never hangs

/**
 * Return a path of distinct touching cells that spells text (a multi-letter face matches as
 * one unit; the last face may be only begun, so "Q" already finds a Qu die), or null.
 * Cells of `prefer` are tried first at each step, so the path shown while typing is stable.
 * With `through`, only a path using that cell counts.
 */
export function findPath(board, text, { prefer = [], through = -1 } = {}) {
  const { faces, neighbours } = board;
  if (!text) return null;
  const used = new Uint8Array(faces.length);
  const path = [];
  let steps = 0;

  function order(cells, depth) {
    const first = prefer[depth];
    return first !== undefined && cells.includes(first) ? [first, ...cells.filter((c) => c !== first)] : cells;
  }

  function visit(cell, at) {
    steps += 1;
    const face = faces[cell];
    if (!face || used[cell] || steps > BUDGET) return false;
    const rest = text.slice(at);
    const whole = rest.startsWith(face);
    if (!whole && !(face.startsWith(rest) && rest.length > 0)) return false;
    used[cell] = 1;
    path.push(cell);
    const next = at + face.length;
    if (next >= text.length) {
      if (through < 0 || used[through]) return true;
    } else {
      for (const other of order(neighbours[cell], path.length)) {
        if (visit(other, next)) return true;
      }
    }
    used[cell] = 0;
    path.pop();
    return false;
  }

  const starts = order([...faces.keys()], 0);
  for (const start of starts) {
    if (visit(start, 0)) return path;
    if (steps > BUDGET) break;
  }
  return null;
}

/** Return a board as the path functions take it: faces, size, adjacency, neighbour table. */
export function boardModel({ rows, cols, faces }, adjacency = "king") {
  return { rows, cols, faces, adjacency, neighbours: neighbourTable(rows, cols, adjacency) };
}
