// Every word on the board as ONE list with filters: missed by me, found or all; by length; by
// commonness; through a tapped die; sorted most common, longest or alphabetically first.
// The list is one Tab stop: the arrow keys move between its words (roving.js).

import { h, replaceChildren } from "./dom.js";
import { faceLabel, findPath } from "./paths.js";
import { RovingList } from "./roving.js";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const LABELS = ["everyday", "common", "uncommon", "rare"];
const SORTS = {
  common: ["Common first", (a, b) => b.zipf - a.zipf || b.word.length - a.word.length || a.word.localeCompare(b.word)],
  long: ["Longest first", (a, b) => b.word.length - a.word.length || b.points - a.points || a.word.localeCompare(b.word)],
  abc: ["A to Z", (a, b) => a.word.localeCompare(b.word)],
};
let made = 0; // numbers the controls' ids, so two lists on a page never share one

/** A word's commonness label (the server's, else from its Zipf figure; results stored before
 * every word carried one show none). */
export function labelOf(w) {
  return w.commonness || (typeof w.zipf === "number" ? commonness(w.zipf) : "");
}

/** How common a word is, in words, from its Zipf frequency (wordfreq's scale): the same
 * figures as solver/engine/commonness.py's COMMONNESS_LABELS. */
export function commonness(zipf) {
  if (zipf >= 4.5) return "everyday";
  if (zipf >= 3) return "common";
  if (zipf >= 1.5) return "uncommon";
  return "rare";
}

export class WordList {
  /** `words`: the solution's entries; `mine`: the words the player found; `names`: id → name;
   * `struck`: the words struck; `board`: the results board (for the die filter). */
  constructor({ words, mine, names, struck, board, hasMe }) {
    Object.assign(this, { mine, names, struck, board });
    this.id = `words-${++made}`;
    this.words = words.map((w) => ({ ...w, zipf: typeof w.zipf === "number" ? w.zipf : 0, label: labelOf(w) }));
    this.state = { view: hasMe ? "missed" : "all", length: "", label: "", sort: "common", cell: -1 };
    this.counts = {
      missed: this.words.filter((w) => !mine.has(w.word)).length,
      found: this.words.filter((w) => w.found_by.length).length,
      all: this.words.length,
    };
    this.chips = new Map(this.words.map((w) => [w.word, this.chip(w)]));
    this.list = h("ul", { class: "chips word-list", "data-testid": "word-list", "aria-labelledby": `${this.id}-title` },
      [...this.chips.values()].map((chip) => chip.parentElement));
    this.status = h("p", { class: "hint list-status", role: "status", "data-testid": "list-status" });
    this.element = h("section", { class: "solution", "aria-labelledby": `${this.id}-title` },
      h("h3", { id: `${this.id}-title` }, "Words on the board"),
      this.controls(hasMe),
      this.status,
      this.list,
    );
    this.roving = new RovingList(this.list, "[data-testid=board-word]");
    this.apply();
  }

  chip(w) {
    const who = w.found_by.map((id) => this.names.get(id) || "?");
    const isMine = this.mine.has(w.word);
    const struck = this.struck.has(w.word);
    const classes = ["word-chip", who.length ? "found" : "nobody", struck ? "struck" : "", isMine ? "mine" : ""];
    const button = h("button",
      {
        type: "button",
        class: classes.filter(Boolean).join(" "),
        "data-testid": "board-word",
        "data-word": w.word,
        "data-path": w.path.join(","),
        "data-found-by": who.join(", "),
        "data-mine": String(isMine),
        "data-length": w.word.length,
        "data-commonness": w.label,
      },
      h("span", { class: "word" }, w.word),
      h("span", { class: "points" }, struck ? "0" : `+${w.points}`),
      w.label ? h("span", { class: `commonness ${w.label}`, "data-testid": "commonness", title: `Zipf frequency ${w.zipf} (7 is “the”, 0 is never seen)` }, ` ${w.label}`) : null,
      who.length ? h("span", { class: "who" }, who.join(", ")) : h("span", { class: "visually-hidden" }, " (nobody found it)"),
      struck ? h("span", { class: "visually-hidden" }, " (struck: found by two or more players)") : null,
    );
    h("li", {}, button);
    return button;
  }

  controls(hasMe) {
    const views = [["missed", hasMe ? "Missed by me" : "Missed"], ["found", "Found"], ["all", "All"]];
    const radios = h("fieldset", { class: "segmented", "data-testid": "view-filter" },
      h("legend", { class: "visually-hidden" }, "Show"),
      views.map(([value, label]) => h("label", {},
        h("input", { type: "radio", name: `${this.id}-view`, value, checked: this.state.view === value }),
        h("span", {}, `${label} (${this.counts[value]})`),
      )),
    );
    radios.addEventListener("change", (e) => this.set({ view: e.target.value }));
    const lengths = [...new Set(this.words.map((w) => w.word.length))].sort((a, b) => a - b);
    const labels = LABELS.filter((l) => this.words.some((w) => w.label === l));
    const select = (key, text, options) => {
      const el = h("select", { id: `${this.id}-${key}`, "data-testid": `${key}-filter` },
        options.map(([value, label]) => h("option", { value }, label)));
      el.addEventListener("change", () => this.set({ [key]: el.value }));
      return h("span", { class: "filter" }, h("label", { for: `${this.id}-${key}` }, text), el);
    };
    return h("div", { class: "list-filters" },
      radios,
      h("div", { class: "filter-selects" },
        select("length", "Letters", [["", "Any"], ...lengths.map((n) => [String(n), String(n)])]),
        select("label", "How common", [["", "Any"], ...labels.map((l) => [l, l])]),
        select("sort", "Order", Object.entries(SORTS).map(([value, [label]]) => [value, label])),
      ),
    );
  }

  set(change) {
    Object.assign(this.state, change);
    this.apply();
  }

  /** A die was tapped on the results board: show only the words through it (again: all). */
  through(cell) {
    this.set({ cell: this.state.cell === cell ? -1 : cell });
    this.board.mark(this.state.cell);
    if (this.state.cell < 0) this.board.show([]);
  }

  keep(w) {
    const { view, length, label } = this.state;
    if (view === "missed" && this.mine.has(w.word)) return false;
    if (view === "found" && !w.found_by.length) return false;
    if (length && w.word.length !== Number(length)) return false;
    return !label || w.label === label;
  }

  apply() {
    const { cell, sort } = this.state;
    const model = this.board.model;
    const order = [...this.words].sort(SORTS[sort][1]);
    let shown = 0;
    for (const w of order) {
      const chip = this.chips.get(w.word);
      let path = w.path;
      if (cell >= 0 && model && !path.includes(cell)) path = findPath(model, w.word, { through: cell });
      const visible = this.keep(w) && !!path;
      chip.parentElement.hidden = !visible;
      chip.dataset.path = (path || w.path).join(",");
      shown += visible ? 1 : 0;
    }
    replaceChildren(this.list, order.map((w) => this.chips.get(w.word).parentElement));
    this.roving.refresh();
    const what = { missed: "missed by you", found: "found", all: "on the board" }[this.state.view];
    let text = `Showing ${shown} of ${plural(this.words.length, "word")}`;
    if (this.state.view !== "all") text += ` (${what})`;
    if (cell >= 0 && model) {
      const face = faceLabel(model.faces[cell]) || "blank";
      const where = `row ${Math.floor(cell / model.cols) + 1}, column ${(cell % model.cols) + 1}`;
      text += ` through the ${face} die (${where}); tap it again to show all`;
    }
    this.status.textContent = `${text}.`;
    this.list.dataset.shown = String(shown);
  }
}
