// The board as dice on a grid, with the path shown as highlighted dice and a line through them.

import { h, svg, replaceChildren } from "./dom.js";
import { boardModel, faceLabel } from "./paths.js";

const UNDERLINED = new Set(["M", "W", "N", "Z"]); // so a die read upside down is not misread
const STEP_MS = 130; // one die at a time when a path is shown step by step

/** Return what a screen reader calls a die: its letters spelt out ("Q u"), or "blank", and
 * where it is (rows and columns counted from 1). */
export function cellName(face, row, col) {
  const what = face ? faceLabel(face).split("").join(" ") : "blank";
  return `${what}, row ${row + 1}, column ${col + 1}`;
}

/** Return the points of the line through a path's dice, in cells ("0.5,0.5 1.5,0.5"). */
export function pathPoints(path, cols) {
  return path.map((cell) => `${(cell % cols) + 0.5},${Math.floor(cell / cols) + 0.5}`);
}

export class Board {
  /** Draw into root (the element with data-testid="board"). */
  constructor(root) {
    this.root = root;
    this.model = null;
    this.cells = [];
    this.shown = [];
    this.timer = null;
    this.line = svg("polyline", { class: "path-line", points: "" });
    this.start = svg("circle", { class: "path-start", r: "0.2", cx: "-1", cy: "-1" });
    this.layer = svg("svg", { class: "path-layer", "aria-hidden": "true", focusable: "false" }, this.line, this.start);
  }

  /** Show a board's faces ({rows, cols, faces}); null faces draw empty placeholder dice. */
  draw(board, adjacency = "king") {
    const { rows, cols } = board;
    const faces = board.faces || Array(rows * cols).fill(null);
    this.model = board.faces ? boardModel(board, adjacency) : null;
    for (const el of [this.root, this.root.parentElement]) {
      el.style.setProperty("--rows", rows);
      el.style.setProperty("--cols", cols);
    }
    this.root.setAttribute("aria-label", `Board, ${rows} by ${cols}`);
    this.root.classList.toggle("placeholder", !board.faces);
    this.cells = faces.map((face, index) => this.die(face, Math.floor(index / cols), index % cols));
    this.layer.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
    replaceChildren(this.root, this.cells, this.layer);
    // Placeholder dice (the lobby, the countdown) do nothing: no Tab stop until there is a board.
    if (this.cells[0] && board.faces) this.cells[0].tabIndex = 0;
    this.shown = [];
    this.paint([]);
  }

  die(face, row, col) {
    const blank = face === "";
    const label = face ? faceLabel(face) : "";
    const classes = ["die"];
    if (blank) classes.push("blank");
    if (label.length > 1) classes.push("multi");
    if (UNDERLINED.has(face)) classes.push("underlined");
    const cell = h(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        tabindex: "-1",
        "data-testid": "cell",
        "data-row": row,
        "data-col": col,
        "data-face": face ?? "",
        "aria-label": face === null ? `row ${row + 1}, column ${col + 1}` : cellName(face, row, col),
        "aria-pressed": "false",
      },
      h("span", { class: "face", "aria-hidden": "true" }, label),
    );
    return cell;
  }

  /** Return the cell number under an element, or -1. */
  cellOf(el) {
    const die = el && el.closest ? el.closest(".die") : null;
    return die ? this.cells.indexOf(die) : -1;
  }

  /** Highlight a path at once, or die by die in order with {animate: true}. */
  show(path, { animate = false } = {}) {
    clearInterval(this.timer);
    this.shown = path.slice();
    if (!animate || path.length < 2) {
      this.paint(path);
      return;
    }
    let count = 1;
    this.paint(path.slice(0, count));
    this.timer = setInterval(() => {
      count += 1;
      this.paint(path.slice(0, count));
      if (count >= path.length) clearInterval(this.timer);
    }, STEP_MS);
  }

  /** Return the path currently shown. */
  get path() {
    return this.shown;
  }

  paint(path) {
    const steps = new Map(path.map((cell, i) => [cell, i + 1]));
    this.cells.forEach((cell, index) => {
      const step = steps.get(index);
      cell.dataset.highlighted = step ? "true" : "false";
      cell.setAttribute("aria-pressed", step ? "true" : "false");
      if (step) cell.dataset.step = step;
      else delete cell.dataset.step;
    });
    const cols = Number(this.root.style.getPropertyValue("--cols")) || 1;
    const points = pathPoints(path, cols);
    this.line.setAttribute("points", points.join(" "));
    const [x, y] = points.length ? points[0].split(",") : ["-1", "-1"];
    this.start.setAttribute("cx", x);
    this.start.setAttribute("cy", y);
    this.start.style.display = path.length ? "" : "none";
    this.root.classList.toggle("has-path", path.length > 0);
  }

  /** Mark one die as picked (the results filter), or none with -1. */
  mark(cell) {
    this.cells.forEach((el, index) => el.classList.toggle("picked", index === cell));
  }

  /** Move the keyboard focus to a cell, keeping exactly one cell in the tab order. */
  focusCell(cell) {
    if (!this.cells[cell]) return;
    this.cells.forEach((el, index) => {
      el.tabIndex = index === cell ? 0 : -1;
    });
    this.cells[cell].focus();
  }
}
