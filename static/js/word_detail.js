// The word picked in the results, beside its path on the board: what it scored, who found it,
// what it means (its definition, asked for once the round is over), and a place for per-word
// actions (the element with class `word-actions`, filled by other modules).

import { h, replaceChildren } from "./dom.js";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A finished round's definitions, fetched word by word when a player opens one, each once. */
export class Definitions {
  constructor(urlOf) {
    this.urlOf = urlOf; // (round number, word) => the definition's URL
    this.known = new Map();
  }

  /** Return a promise of {word, definition, summary} (definition null when there is none);
   * it rejects with an Error worded for the player when the server cannot answer. */
  get(round, word) {
    const key = `${round}:${word}`;
    if (!this.known.has(key)) {
      const asked = fetch(this.urlOf(round, word), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(async (response) => {
          if (response.ok) return response.json();
          const body = await response.json().catch(() => ({}));
          throw new Error(body.message || `The server answered ${response.status}.`);
        })
        .catch((error) => {
          this.known.delete(key); // a failure is not remembered: the next look asks again
          throw new Error(error instanceof TypeError ? "The definition could not be loaded: the connection failed." : error.message);
        });
      this.known.set(key, asked);
    }
    return this.known.get(key);
  }
}

/** Return the line saying where a definition comes from: "QUASHED → quash", or "quash". */
export function heading(definition) {
  return definition.base.toUpperCase() === definition.word ? definition.base : `${definition.word} → ${definition.base}`;
}

export class WordDetail {
  /** Draw into `root` (the panel beside the board); `definitions` is a Definitions. */
  constructor(root, definitions) {
    this.root = root;
    this.definitions = definitions;
    this.word = null;
  }

  /** Show what to do, before any word is picked (the panel keeps its place, so that the
   * first word tapped does not move the page under the finger); hidden with `shown` false. */
  clear({ shown = false } = {}) {
    this.word = null;
    this.root.hidden = !shown;
    replaceChildren(this.root, h("p", { class: "hint", "data-testid": "word-detail-empty" }, "Tap or focus a word: its path lights up on the board and what it means shows here."));
  }

  /** Show a word of round `round`: `entry` is its solution entry ({word, points, found_by,
   * commonness}), `mine` the player's own entry of it if they found it, `names` player names. */
  show(round, entry, { mine = null, names = new Map(), struck = false } = {}) {
    if (this.word === entry.word) return;
    this.word = entry.word;
    const who = entry.found_by.map((id) => names.get(id) || "?");
    let found;
    if (!who.length) found = "Nobody found it.";
    else if (struck) found = `Found by ${who.join(", ")}: struck, no points.`;
    else if (mine) found = "You found it.";
    else found = `Found by ${who.join(", ")}.`;
    const meaning = h("div", { class: "definition", "data-testid": "definition", "aria-live": "polite" }, h("p", { class: "hint" }, "Looking it up…"));
    this.actions = h("div", { class: "word-actions", "data-word": entry.word, "data-round": round });
    replaceChildren(
      this.root,
      h("h3", { class: "word-detail-title" },
        h("span", { class: "word", "data-testid": "word-detail-word" }, entry.word),
        h("span", { class: "points" }, mine && mine.struck ? "0" : `+${entry.points}`),
        entry.commonness ? h("span", { class: `commonness ${entry.commonness}` }, entry.commonness) : null,
      ),
      h("p", { class: "word-detail-found" }, found),
      meaning,
      this.actions,
    );
    this.root.hidden = false;
    this.root.dispatchEvent(new CustomEvent("word-shown", { bubbles: true, detail: { round, word: entry.word, entry, actions: this.actions } }));
    this.definitions.get(round, entry.word).then(
      (answer) => {
        if (this.word === entry.word) replaceChildren(meaning, describe(answer));
      },
      (error) => {
        if (this.word === entry.word) replaceChildren(meaning, h("p", { class: "results-error" }, error.message));
      },
    );
  }
}

/** Return the nodes showing a definition: the base form it is defined under, then its senses;
 * "No definition" when there is none. */
export function describe(answer) {
  const definition = answer.definition;
  if (!definition || !definition.senses.length) return h("p", { class: "hint no-definition" }, "No definition.");
  return [
    h("p", { class: "definition-heading" }, h("strong", {}, heading(definition)),
      definition.source ? h("span", { class: "source" }, ` (${definition.source})`) : null),
    h("ol", { class: "senses", "aria-label": plural(definition.senses.length, "sense") },
      definition.senses.map((s) => h("li", {}, s.pos ? h("em", {}, `${s.pos} `) : null, s.gloss))),
  ];
}
