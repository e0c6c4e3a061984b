// Hints during a round, when the host turned them on: how many words this player has left
// per length or per first letter. The server counts them (it alone knows the solution) and
// charges each hint; this page only shows the counts and takes off the words found since.

import { h, replaceChildren } from "./dom.js";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
// How long the buttons wait for an answer before they can be used again (ms); the server
// takes 3 hints at once, then one every two seconds.
const ANSWER_WAIT_MS = 2000;

const KINDS = {
  lengths: {
    title: "By length",
    keyOf: (word) => String(word.length),
    said: (key, n) => `${plural(n, "word")} of ${key} letters`,
  },
  letters: {
    title: "By first letter",
    keyOf: (word) => word[0],
    said: (key, n) => `${plural(n, "word")} starting with ${key}`,
  },
};

/** Return the hint counts (kind -> {key: words left}) less a word the player found: one fewer
 * under its length and under its first letter, a key gone at none. The counts given are
 * left as they were. */
export function countsLess(counts, word) {
  const after = {};
  for (const [kind, left] of Object.entries(counts)) {
    const key = KINDS[kind].keyOf(word);
    after[kind] = { ...left };
    if (!left[key]) continue;
    after[kind][key] -= 1;
    if (!after[kind][key]) delete after[kind][key];
  }
  return after;
}

/** Return a count's keys in the order shown: shortest first, then alphabetically (so lengths
 * read 3, 4, …, 10, and letters A to Z). */
export function orderedKeys(counts) {
  return Object.keys(counts).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** Return what the live region says of an answer to a hint of `kind` with these counts. */
export function hintAnnouncement(kind, counts) {
  const said = Object.entries(counts).map(([key, n]) => KINDS[kind].said(key, n));
  return `Hint ${KINDS[kind].title.toLowerCase()}: ${said.length ? said.join(", ") : "you have found every word"}.`;
}

/** Return the line under the hints: how many taken this round, and what they cost. */
export function takenText(taken, cost) {
  return taken
    ? `Hints taken: ${taken} × ${plural(cost, "point")} = −${plural(taken * cost, "point")} this round.`
    : "Each hint tells you how many words you have not found yet; none taken.";
}

export class Hints {
  constructor(root, send, announce = () => {}) {
    this.root = root;
    this.send = send;
    this.announce = announce; // says an answer once (the counts below change quietly)
    this.buttons = [...root.querySelectorAll("[data-hint]")];
    this.costLine = root.querySelector("[data-hint-cost]");
    this.list = root.querySelector("[data-hint-counts]");
    this.takenLine = root.querySelector("[data-hints-taken]");
    this.round = null; // the round number the counts are of
    this.counts = {}; // kind -> {key: count}, as last answered, less the words found since
    this.taken = 0;
    this.cost = 1;
    this.waiting = 0;
    for (const button of this.buttons) button.addEventListener("click", () => this.ask(button.dataset.hint));
  }

  /** Forget the counts: a new round (number), or one restored from a snapshot's hints. */
  reset(number, restored = null) {
    this.round = number;
    this.counts = restored ? { ...restored.counts } : {};
    this.taken = restored ? restored.taken : 0;
    if (restored) this.cost = restored.cost;
    this.idle();
    this.render();
  }

  /** Show the hints (on, with their cost) or hide them; `ready` once the board is shown. */
  draw({ on, cost, ready }) {
    this.root.hidden = !on;
    if (!on) return;
    if (this.round === null || !this.taken) this.cost = cost;
    this.ready = ready;
    for (const button of this.buttons) button.disabled = !ready || !!this.waiting;
    this.render();
  }

  ask(kind) {
    if (!this.ready || this.waiting || !this.send({ type: "hint", kind })) return;
    for (const button of this.buttons) button.disabled = true;
    this.waiting = setTimeout(() => this.idle(), ANSWER_WAIT_MS);
  }

  /** The buttons may be used again (an answer or a refusal came, or the wait is over). */
  idle() {
    clearTimeout(this.waiting);
    this.waiting = 0;
    for (const button of this.buttons) button.disabled = !this.ready;
  }

  /** The server's answer to a hint of round `message.round`. */
  answer(message) {
    if (message.round !== this.round) return;
    this.counts[message.kind] = message.counts;
    this.taken = message.taken;
    this.cost = message.cost;
    this.idle();
    this.render();
    this.announce(hintAnnouncement(message.kind, message.counts));
  }

  /** The player found a word: it is no longer left in any count shown. */
  found(word) {
    this.counts = countsLess(this.counts, word);
    this.render();
  }

  render() {
    this.costLine.textContent = this.cost ? `${plural(this.cost, "point")} each` : "free";
    const rows = Object.keys(KINDS)
      .filter((kind) => this.counts[kind])
      .map((kind) => this.row(kind, this.counts[kind]));
    replaceChildren(this.list, rows);
    this.takenLine.textContent = takenText(this.taken, this.cost);
  }

  row(kind, counts) {
    const keys = orderedKeys(counts);
    const left = keys.reduce((sum, key) => sum + counts[key], 0);
    return h("div", { class: "hint-row", "data-kind": kind, "data-testid": `hint-${kind}-counts` },
      h("h4", {}, `${KINDS[kind].title} `, h("span", { class: "hint" }, `(${plural(left, "word")} left)`)),
      left
        ? h("ul", { class: "hint-counts" }, keys.map((key) =>
          h("li", { "data-key": key, "data-count": counts[key] },
            h("span", { class: "key", "aria-hidden": "true" }, key),
            h("span", { class: "arrow", "aria-hidden": "true" }, "→"),
            h("span", { class: "count", "aria-hidden": "true" }, String(counts[key])),
            h("span", { class: "visually-hidden" }, KINDS[kind].said(key, counts[key])),
          )))
        : h("p", { class: "hint" }, "You have found every word."),
    );
  }
}
