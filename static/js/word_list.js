// Every word on the board as ONE list with filters: missed by me, found or all; by length; by
// commonness; through a tapped die; sorted most common, longest or alphabetically first.
// The list is one Tab stop: the arrow keys move between its words (roving.js).

import { h, replaceChildren } from "./dom.js";
import { faceLabel, findPath } from "./paths.js";
import { RovingList } from "./roving.js";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const LABELS = ["everyday", "common", "uncommon", "rare"];
/** The orders the list offers: value -> [label, compare]. */
export const SORTS = {
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

/** Return the solution's entries as the list keeps them: a Zipf figure on each (0 when the
 * server sent none) and its commonness label. */
export function listEntries(words) {
  return words.map((w) => ({ ...w, zipf: typeof w.zipf === "number" ? w.zipf : 0, label: labelOf(w) }));
}

/** Return the entries in the order `sort` ("common", "long" or "abc"), as a new array. */
export function sortWords(words, sort) {
  return [...words].sort(SORTS[sort][1]);
}

/** Return how many words each view shows: missed by me, missed by everyone, found by anyone,
 * all. */
export function viewCounts(words, mine) {
  return {
    missed: words.filter((w) => !mine.has(w.word)).length,
    unfound: words.filter((w) => !w.found_by.length).length,
    found: words.filter((w) => w.found_by.length).length,
    all: words.length,
  };
}

/** Return the word lengths and the commonness labels the filters offer, in their order. */
export function filterChoices(words) {
  return {
    lengths: [...new Set(words.map((w) => w.word.length))].sort((a, b) => a - b),
    labels: LABELS.filter((l) => words.some((w) => w.label === l)),
  };
}

/** Return whether an entry passes the filters: `view` ("missed" by me: not in `mine`;
 * "unfound": missed by everyone; "found" by anyone; "all"), `length` ("" or a number of
 * letters) and `label` ("" or a commonness). */
export function keepWord(w, { view, length, label }, mine) {
  if (view === "missed" && mine.has(w.word)) return false;
  if (view === "unfound" && w.found_by.length) return false;
  if (view === "found" && !w.found_by.length) return false;
  if (length && w.word.length !== Number(length)) return false;
  return !label || w.label === label;
}

/** Return the path an entry is shown with while the list is filtered through die `cell` (-1:
 * no die): its own path when that goes through the die, else another path on the board
 * (`model`, paths.js) that does, or null when none does (the word is not shown). */
export function pathThrough(w, cell, model) {
  if (cell >= 0 && model && !w.path.includes(cell)) return findPath(model, w.word, { through: cell });
  return w.path;
}

/** Return the views the list offers, [value, label]: a player's words missed, or for one
 * with no words of their own (a spectator) the words nobody found; then found, and all. */
export function listViews(hasMe) {
  return [hasMe ? ["missed", "Missed by me"] : ["unfound", "Missed by everyone"], ["found", "Found"], ["all", "All"]];
}

/** Return the line that says what the list shows: `shown` of `total` words in `view`,
 * through die `cell` of the board `model` (-1: none). */
export function listStatus({ shown, total, view, cell, model }) {
  const what = { missed: "missed by you", unfound: "missed by everyone", found: "found", all: "on the board" }[view];
  let text = `Showing ${shown} of ${plural(total, "word")}`;
  if (view !== "all") text += ` (${what})`;
  if (cell >= 0 && model) {
    const face = faceLabel(model.faces[cell]) || "blank";
    const where = `row ${Math.floor(cell / model.cols) + 1}, column ${(cell % model.cols) + 1}`;
    text += ` through the ${face} die (${where}); tap it again to show all`;
  }
  return `${text}.`;
}

export class WordList {
  /** `words`: the solution's entries; `mine`: the words the player found; `names`: id → name;
   * `struck`: the words struck; `board`: the results board (for the die filter). */
  constructor({ words, mine, names, struck, board, hasMe }) {
    Object.assign(this, { mine, names, struck, board });
    this.id = `words-${++made}`;
    this.words = listEntries(words);
    this.state = { view: hasMe ? "missed" : "all", length: "", label: "", sort: "common", cell: -1 };
    this.counts = viewCounts(this.words, mine);
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
    const views = listViews(hasMe);
    const radios = h("fieldset", { class: "segmented", "data-testid": "view-filter" },
      h("legend", { class: "visually-hidden" }, "Show"),
      views.map(([value, label]) => h("label", {},
        h("input", { type: "radio", name: `${this.id}-view`, value, checked: this.state.view === value }),
        h("span", {}, `${label} (${this.counts[value]})`),
      )),
    );
    radios.addEventListener("change", (e) => this.set({ view: e.target.value }));
    const { lengths, labels } = filterChoices(this.words);
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
    return keepWord(w, this.state, this.mine);
  }

  apply() {
    const { cell, sort, view } = this.state;
    const model = this.board.model;
    const order = sortWords(this.words, sort);
    let shown = 0;
    for (const w of order) {
      const chip = this.chips.get(w.word);
      const path = pathThrough(w, cell, model);
      const visible = this.keep(w) && !!path;
      chip.parentElement.hidden = !visible;
      chip.dataset.path = (path || w.path).join(",");
      shown += visible ? 1 : 0;
    }
    replaceChildren(this.list, order.map((w) => this.chips.get(w.word).parentElement));
    this.roving.refresh();
    this.status.textContent = listStatus({ shown, total: this.words.length, view, cell, model });
    this.list.dataset.shown = String(shown);
  }
}
