// The word being built: traced on the board or typed, kept in step in both places.

import { isEditable, isLetterKey } from "./dom.js";
import { findPath, normalise, spell } from "./paths.js";

export class WordEntry {
  /** form holds the text input; onSubmit({word} or {path}, shown) sends a word. */
  constructor(form, board, onSubmit) {
    this.form = form;
    this.input = form.querySelector("input");
    this.board = board;
    this.onSubmit = onSubmit;
    this.path = [];
    this.traced = false; // the path came from the board, not from typing
    this.enabled = false;
    this.input.addEventListener("input", () => this.typed());
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        this.clear();
      }
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    form.querySelector("[data-clear]").addEventListener("click", () => this.clear());
    document.addEventListener("keydown", (e) => this.stray(e));
  }

  /** Turn entry on (a round is being played) or off. */
  enable(on) {
    this.enabled = on;
    this.input.disabled = !on;
    this.form.querySelectorAll("button").forEach((b) => (b.disabled = !on));
    if (!on) this.clear();
  }

  /** Use a path traced on the board; the input shows what it spells. */
  trace(path) {
    if (!this.enabled) return;
    this.path = path;
    this.traced = true;
    this.input.value = spell(this.board.model.faces, path);
    this.input.classList.remove("off-board");
    this.board.show(path);
  }

  typed() {
    const text = normalise(this.input.value);
    if (this.input.value !== text) this.input.value = text;
    this.traced = false;
    const found = this.board.model && text ? findPath(this.board.model, text, { prefer: this.path }) : null;
    this.path = found || [];
    this.input.classList.toggle("off-board", !!text && !found);
    this.board.show(this.path);
  }

  /** Send the word: a traced path as a path, typed text as a word. */
  submit() {
    if (!this.enabled) return;
    const text = normalise(this.input.value);
    if (this.traced && this.path.length) this.onSubmit({ path: this.path.slice() }, text);
    else if (text) this.onSubmit({ word: text }, text);
    this.clear();
  }

  clear() {
    this.path = [];
    this.traced = false;
    this.input.value = "";
    this.input.classList.remove("off-board");
    if (this.board.model) this.board.show([]);
  }

  /** Letters typed anywhere on the page go to the input; Enter and Escape work there too. */
  stray(event) {
    if (!this.enabled || isEditable(event.target) || event.defaultPrevented) return;
    const onBoard = this.board.cellOf(event.target) >= 0;
    if (isLetterKey(event)) {
      this.input.focus(); // the key's letter then lands in the input
    } else if (event.key === "Enter" && !onBoard && event.target === document.body) {
      this.submit();
    } else if (event.key === "Escape" && !onBoard) {
      this.clear();
    }
  }
}
