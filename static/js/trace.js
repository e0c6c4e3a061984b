// Tracing words on the board: tap dice one after another, or drag through them with a mouse,
// a finger or a pen (pointer events), or move with the arrow keys and press Space.

import { adjacent } from "./paths.js";

const HIT_RADIUS = 0.42; // of a cell's pitch: a drag enters a die near its centre, never a corner
const DOUBLE_TAP_MS = 450;
const SAMPLE = 0.25; // cells between samples of a fast drag, so no die is skipped
const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/** Return the cell of a board `rows` × `cols` drawn in `rect` ({left, top, width, height})
 * under the point (x, y): strict, only within a hit circle round a die's centre (a drag
 * passing a corner enters neither die); else anywhere in its square. -1 off the board. */
export function cellAtPoint(x, y, rect, rows, cols, strict) {
  const cx = ((x - rect.left) / rect.width) * cols;
  const cy = ((y - rect.top) / rect.height) * rows;
  const col = Math.floor(cx);
  const row = Math.floor(cy);
  if (col < 0 || row < 0 || col >= cols || row >= rows) return -1;
  if (strict && (cx - col - 0.5) ** 2 + (cy - row - 0.5) ** 2 > HIT_RADIUS ** 2) return -1;
  return row * cols + col;
}

/** Return whether a cell of the board `model` (paths.js) may be on a path: a die, not a blank. */
export function usableCell(model, cell) {
  return cell >= 0 && !!model && model.faces[cell] !== "";
}

/** Return whether `cell` may come next on `path`: a usable die, not on it yet, touching the last. */
export function addableCell(model, path, cell) {
  const last = path[path.length - 1];
  return usableCell(model, cell) && !path.includes(cell) && (last === undefined || adjacent(last, cell, model.cols, model.adjacency));
}

/** Return the path after a drag enters `cell`: back onto the die before the last takes the
 * last back; a die that may come next is added; else null (the path stays as it is). */
export function dragPath(model, path, cell) {
  const last = path[path.length - 1];
  if (cell === last) return null;
  if (path.length >= 2 && cell === path[path.length - 2]) return path.slice(0, -1);
  if (addableCell(model, path, cell)) return [...path, cell];
  return null;
}

/** Return the path after a single tap on `cell`: the last die again takes it back, a die
 * earlier on the path cuts the path back to it, one that may come next is added; null when
 * the die cannot be used (the tap is refused). */
export function tapPath(model, path, cell) {
  const last = path[path.length - 1];
  if (cell === last) return path.slice(0, -1);
  if (path.includes(cell)) return path.slice(0, path.indexOf(cell) + 1);
  if (addableCell(model, path, cell)) return [...path, cell];
  return null;
}

/** Return the cell an arrow key moves the focus to from `cell` on a board `rows` × `cols`,
 * or -1 at the edge (the focus stays; it never wraps to the next row). */
export function arrowCell(cell, key, rows, cols) {
  const row = Math.floor(cell / cols) + (key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0);
  const col = (cell % cols) + (key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0);
  return row >= 0 && row < rows && col >= 0 && col < cols ? row * cols + col : -1;
}

/**
 * Listen to the board. `entry` owns the path: entry.path, entry.trace(path), entry.submit(),
 * entry.clear(). In review mode (results) a tap calls onTap(cell) instead.
 */
export class Tracer {
  constructor(board, entry, { onTap = () => {} } = {}) {
    this.board = board;
    this.entry = entry;
    this.onTap = onTap;
    this.mode = "idle"; // "play", "review" or "idle"
    this.gesture = null;
    this.lastTap = null;
    const root = board.root;
    root.addEventListener("pointerdown", (e) => this.down(e));
    root.addEventListener("pointermove", (e) => this.move(e));
    root.addEventListener("pointerup", (e) => this.up(e));
    root.addEventListener("pointercancel", () => this.cancel());
    root.addEventListener("keydown", (e) => this.key(e));
    root.addEventListener("click", (e) => e.preventDefault());
  }

  get model() {
    return this.board.model;
  }

  /** Return the cell whose hit circle holds the point (strict), or whose square does. */
  cellAt(x, y, strict) {
    const { rows, cols } = this.model;
    return cellAtPoint(x, y, this.board.root.getBoundingClientRect(), rows, cols, strict);
  }

  usable(cell) {
    return usableCell(this.model, cell);
  }

  down(event) {
    if (this.mode === "idle" || !this.model || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault(); // no focus change, text selection, scrolling or zooming
    const cell = this.cellAt(event.clientX, event.clientY, false);
    if (cell < 0) return;
    this.board.root.setPointerCapture(event.pointerId);
    this.gesture = { id: event.pointerId, start: cell, moved: false, x: event.clientX, y: event.clientY };
    this.board.cells[cell].classList.add("pressed");
  }

  move(event) {
    const g = this.gesture;
    if (!g || event.pointerId !== g.id || this.mode !== "play") return;
    const points = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const p of points.length ? points : [event]) this.sweep(g, p.clientX, p.clientY);
  }

  sweep(g, x, y) {
    const rect = this.board.root.getBoundingClientRect();
    const pitch = rect.width / this.model.cols;
    const steps = Math.max(1, Math.ceil(Math.hypot(x - g.x, y - g.y) / (pitch * SAMPLE)));
    for (let i = 1; i <= steps; i += 1) {
      const cell = this.cellAt(g.x + ((x - g.x) * i) / steps, g.y + ((y - g.y) * i) / steps, true);
      if (cell >= 0 && (g.moved || cell !== g.start)) this.enter(g, cell);
    }
    g.x = x;
    g.y = y;
  }

  enter(g, cell) {
    if (!g.moved) {
      g.moved = true;
      const path = this.entry.path;
      if (path[path.length - 1] !== g.start) this.entry.trace(this.usable(g.start) ? [g.start] : []);
    }
    const next = dragPath(this.model, this.entry.path, cell); // dragging back takes the last die back
    if (next) this.entry.trace(next);
  }

  up(event) {
    const g = this.gesture;
    if (!g || event.pointerId !== g.id) return;
    this.gesture = null;
    this.board.cells.forEach((el) => el.classList.remove("pressed"));
    if (this.mode === "review") this.onTap(g.start);
    else if (g.moved) this.entry.submit();
    else if (this.mode === "play") this.tap(g.start);
  }

  cancel() {
    this.gesture = null;
    this.board.cells.forEach((el) => el.classList.remove("pressed"));
  }

  /** A tap or Space on a die: add it, take it back (the last one), or submit (a double tap;
   * the keyboard has Enter for that). */
  tap(cell, { keyboard = false } = {}) {
    const now = performance.now();
    const again = !keyboard && this.lastTap && this.lastTap.cell === cell && now - this.lastTap.at < DOUBLE_TAP_MS;
    this.lastTap = keyboard ? null : { cell, at: now };
    const path = this.entry.path;
    const last = path[path.length - 1];
    if (again) {
      this.lastTap = null;
      if (last !== cell && this.addable(path, cell)) this.entry.trace([...path, cell]);
      if (this.entry.path[this.entry.path.length - 1] === cell) this.entry.submit();
      return;
    }
    const next = tapPath(this.model, path, cell);
    if (next) this.entry.trace(next);
    else this.refuse(cell);
  }

  addable(path, cell) {
    return addableCell(this.model, path, cell);
  }

  refuse(cell) {
    const el = this.board.cells[cell];
    el.classList.remove("refused");
    void el.offsetWidth; // restart the animation
    el.classList.add("refused");
  }

  key(event) {
    if (this.mode === "idle" || !this.model) return;
    const cell = this.board.cellOf(event.target);
    if (cell < 0) return;
    const { rows, cols } = this.model;
    if (ARROWS.has(event.key)) {
      event.preventDefault();
      const next = arrowCell(cell, event.key, rows, cols);
      if (next >= 0) this.board.focusCell(next);
    } else if (event.key === " " || (event.key === "Enter" && this.mode === "review")) {
      event.preventDefault();
      if (this.mode === "review") this.onTap(cell);
      else this.tap(cell, { keyboard: true });
    } else if (event.key === "Enter") {
      event.preventDefault();
      this.entry.submit();
    } else if (event.key === "Backspace" && this.mode === "play") {
      event.preventDefault();
      this.entry.trace(this.entry.path.slice(0, -1));
    } else if (event.key === "Escape" && this.mode === "play") {
      this.entry.clear();
    }
  }
}
