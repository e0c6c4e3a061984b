// The player's own words this round, and the line that says what became of each submission.

import { h, replaceChildren } from "./dom.js";

const REASONS = {
  too_short: (w, min) => `${w} is too short: words need at least ${min} letters.`,
  not_a_word: (w) => `${w} is not in the dictionary.`,
  not_on_board: (w) => `${w} is a word, but it is not on this board.`,
  bad_path: (w) => (w ? `Those dice do not spell ${w} along touching dice.` : "Those dice do not touch in a row."),
  already_found: (w) => `You already have ${w}.`,
  round_not_running: () => "Too late: the round is over.",
};

/** Return the words a rejection is explained in. */
export function rejection(result, minLength) {
  const explain = REASONS[result.reason];
  const word = result.word ? `“${result.word}”` : "";
  return explain ? explain(word, minLength) : result.message || "That word was not accepted.";
}

/** Return the line under the player's words ({points}): how many, worth how much (`struck`:
 * in a room, only if nobody else finds them). */
export function foundSummary(words, struck) {
  const points = words.reduce((sum, w) => sum + w.points, 0);
  const n = words.length;
  return n ? `${n} word${n === 1 ? "" : "s"}, ${points} point${points === 1 ? "" : "s"}${struck ? " if nobody else finds them" : ""}` : "No words yet.";
}

/** Return whether a word another player also finds scores nothing, in a room with these
 * settings: a room of friends that cancels duplicates; never a solo game or a daily attempt,
 * whose one player shares words with nobody. */
export function wordsStruck(settings, solo) {
  return !solo && !!settings && settings.duplicates === "cancel";
}

export class FoundWords {
  /** `struck`: whether a word someone else finds scores nothing (rooms; not the arena). */
  constructor(list, summary, { struck = true } = {}) {
    this.list = list;
    this.summary = summary;
    this.struck = struck;
    this.words = new Map();
  }

  /** Say from now on whether a word someone else finds scores nothing (wordsStruck). */
  strikes(struck) {
    if (struck === this.struck) return;
    this.struck = struck;
    this.render();
  }

  /** Show these words ({word, points, path}), replacing any shown. */
  reset(words = []) {
    this.words = new Map(words.map((w) => [w.word, w]));
    this.render();
  }

  add(word) {
    this.addAll([word]);
  }

  /** Add words to those shown (a snapshot's later parts), drawing the list once. */
  addAll(words) {
    for (const w of words) this.words.set(w.word, w);
    this.render();
  }

  has(word) {
    return this.words.has(word);
  }

  get count() {
    return this.words.size;
  }

  render() {
    const items = [...this.words.values()].reverse().map((w) =>
      h(
        "li",
        { "data-word": w.word },
        h("span", { class: "word" }, w.word),
        h("span", { class: "points", "aria-label": `${w.points} points` }, `+${w.points}`),
      ),
    );
    replaceChildren(this.list, items);
    this.summary.textContent = foundSummary([...this.words.values()], this.struck);
  }
}

let said = 0;

/** Say something in the feedback line (a polite live region): kind "ok", "no" or "". */
export function say(line, text, kind = "") {
  // Emptied first, so a screen reader announces the same words twice in a row too.
  const turn = ++said;
  line.textContent = "";
  line.dataset.kind = kind;
  setTimeout(() => {
    if (turn === said) line.textContent = text;
  }, 30);
}
