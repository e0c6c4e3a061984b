// Tracing words on the board: tap dice one after another, or drag through them with a mouse,
// a finger or a pen (pointer events), or move with the arrow keys and press Space.

import { adjacent } from "./paths.js";

const HIT_RADIUS = 0.42; // of a cell's pitch: a drag enters a die near its centre, never a corner
const DOUBLE_TAP_MS = 450;
const SAMPLE = 0.25; // cells between samples of a fast drag, so no die is skipped

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
    const rect = this.board.root.getBoundingClientRect();
    const cx = ((x - rect.left) / rect.width) * cols;
    const cy = ((y - rect.top) / rect.height) * rows;
    const col = Math.floor(cx);
    const row = Math.floor(cy);
    if (col < 0 || row < 0 || col >= cols || row >= rows) return -1;
    if (strict && (cx - col - 0.5) ** 2 + (cy - row - 0.5) ** 2 > HIT_RADIUS ** 2) return -1;
    return row * cols + col;
  }

  usable(cell) {
    return cell >= 0 && this.model && this.model.faces[cell] !== "";
  }

  touches(a, b) {
    return adjacent(a, b, this.model.cols, this.model.adjacency);
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
    const path = this.entry.path;
    const last = path[path.length - 1];
    if (cell === last) return;
    if (path.length >= 2 && cell === path[path.length - 2]) {
      this.entry.trace(path.slice(0, -1)); // dragging back takes the last die back
    } else if (this.usable(cell) && !path.includes(cell) && (last === undefined || this.touches(last, cell))) {
      this.entry.trace([...path, cell]);
    }
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
    if (cell === last) this.entry.trace(path.slice(0, -1));
    else if (path.includes(cell)) this.entry.trace(path.slice(0, path.indexOf(cell) + 1));
    else if (this.addable(path, cell)) this.entry.trace([...path, cell]);
    else this.refuse(cell);
  }

  addable(path, cell) {
    const last = path[path.length - 1];
    return this.usable(cell) && !path.includes(cell) && (last === undefined || this.touches(last, cell));
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
    const moves = { ArrowUp: -cols, ArrowDown: cols, ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) {
      event.preventDefault();
      const row = Math.floor(cell / cols) + (event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0);
      const col = (cell % cols) + (event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : 0);
      if (row >= 0 && row < rows && col >= 0 && col < cols) this.board.focusCell(cell + moves[event.key]);
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
