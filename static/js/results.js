// The results of a round: scores, every player's words (shared ones struck), the computer's
// full solution by length, the words nobody found; each word shows its path on the board.

import { h, replaceChildren } from "./dom.js";
import { faceLabel, findPath } from "./paths.js";
import { Reports } from "./reports.js";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// Waits before each new try after a network failure or a server that is away (ms).
const RETRY_WAITS_MS = [500, 1000, 2000, 4000, 8000];

class Refused extends Error {}

/**
 * Fetch a finished round's results over HTTP: the socket only announces them, as they can
 * be far larger than a websocket frame. A network failure or a server error is tried again
 * a few times; then, or when the server refuses, this throws an Error worded for the player.
 */
export async function fetchResults(url, waits = RETRY_WAITS_MS) {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) return await response.json();
      const body = await response.json().catch(() => ({}));
      const reason = body.message || `The server answered ${response.status}.`;
      if (response.status < 500 && response.status !== 429) throw new Refused(reason);
      if (attempt >= waits.length) throw new Refused(reason);
    } catch (error) {
      if (error instanceof Refused) throw new Error(`The results could not be loaded. ${error.message}`);
      if (attempt >= waits.length) throw new Error("The results could not be loaded: the connection failed.");
    }
    await new Promise((resolve) => setTimeout(resolve, waits[attempt]));
  }
}

/** A word's commonness label (the server's, else from its Zipf figure; results stored before
 * players' words carried a figure show none). */
function commonnessTag(w) {
  const label = w.commonness || (typeof w.zipf === "number" ? commonness(w.zipf) : "");
  if (!label) return null;
  return h("span", { class: `commonness ${label}`, "data-testid": "commonness", title: `Zipf frequency ${w.zipf} (7 is “the”, 0 is never seen)` }, ` ${label}`);
}

function wordButton(testid, w, extra = {}, ...children) {
  return h(
    "button",
    { type: "button", class: "word-chip", "data-testid": testid, "data-word": w.word, "data-path": w.path.join(","), ...extra },
    h("span", { class: "word" }, w.word),
    ...children,
  );
}

export class Results {
  constructor(root, board) {
    this.root = root;
    this.board = board;
    this.pinned = null;
    this.filter = -1;
    this.missed = [];
    root.addEventListener("mouseover", (e) => this.preview(e.target));
    root.addEventListener("focusin", (e) => this.preview(e.target));
    root.addEventListener("mouseout", (e) => this.unpreview(e.relatedTarget));
    root.addEventListener("focusout", (e) => this.unpreview(e.relatedTarget));
    root.addEventListener("click", (e) => this.pick(e));
    this.reports = new Reports(root); // word reports: the player's refused words, a report form
  }

  /** Draw the results of a round for player `me`. */
  show(results, me) {
    this.pinned = null;
    this.filter = -1;
    const names = new Map(results.players.map((p) => [p.id, p.nickname]));
    const mine = results.players.find((p) => p.id === me);
    const found = results.solution.filter((w) => w.found_by.length).length;
    // In the server's order (the most common words first), each with its path.
    const byWord = new Map(results.solution.map((w) => [w.word, w]));
    this.missed = results.missed.map((word) => byWord.get(word)).filter(Boolean);
    replaceChildren(
      this.root,
      h("h2", { class: "results-title" }, `Round ${results.round.number}: results`),
      h("p", { class: "results-summary" },
        results.standing
          ? h("span", { class: "board-standing", "data-testid": "board-standing" },
            `${results.standing.given ? "The host's board" : "The board"}: ${results.standing.text}. `)
          : `The board held ${plural(results.solution.length, "word")} worth ${plural(results.max_score, "point")}. `,
        `Together you found ${found}` + (mine ? `; you scored ${plural(mine.score, "point")}.` : "."),
      ),
      h("p", { class: "hint" },
        "Point at, focus or tap any word to see its path on the board.",
        results.players.some((p) => p.words.some((w) => w.struck)) ? " Struck words were found by two or more players and score for nobody." : "",
      ),
      results.computer ? this.computer(results.computer) : null,
      h("div", { class: "score-cards" }, results.players.map((p) => this.card(p, me))),
      this.totals(results.players),
      this.missedSection(),
      this.solution(results.solution, names),
    );
    this.board.mark(-1);
    this.reports.show(results);
  }

  /** Say that round `number`'s results are on their way, or why they did not come (with a
   * button that asks for them again). */
  pending(number, { error = "", retry = null } = {}) {
    this.pinned = null;
    this.filter = -1;
    this.missed = [];
    this.missedList = null;
    this.reports.clear();
    const again = retry ? h("button", { type: "button", class: "small", "data-testid": "results-retry" }, "Try again") : null;
    if (again) again.addEventListener("click", retry);
    replaceChildren(
      this.root,
      h("h2", { class: "results-title" }, `Round ${number}: results`),
      error
        ? h("p", { class: "results-error", role: "alert", "data-testid": "results-error" }, error)
        : h("p", { class: "hint", role: "status", "data-testid": "results-loading" }, "Loading the results…"),
      error ? again : null,
    );
    this.board.mark(-1);
  }

  card(player, me) {
    const words = player.words.map((w) =>
      h("li", {}, wordButton("result-word", w, { "data-player": player.nickname, "data-struck": String(w.struck), class: `word-chip${w.struck ? " struck" : ""}` },
        w.struck ? h("span", { class: "visually-hidden" }, " (found by someone else too: no points)") : null,
        h("span", { class: "points" }, w.struck ? "0" : `+${w.points}`),
        commonnessTag(w),
      )),
    );
    return h("article", { class: `score-card${player.id === me ? " me" : ""}`, "data-player": player.nickname },
      h("h3", {}, h("span", { class: "name" }, player.nickname), h("span", { class: "score" }, plural(player.score, "point"))),
      player.hints ? h("p", { class: "hint", "data-testid": "hints-charged" }, `hints: ${player.hints.taken} × ${plural(player.hints.cost, "point")} (−${player.hints.points}, taken off the score)`) : null,
      words.length ? h("ul", { class: "chips" }, words) : h("p", { class: "hint" }, "No words this round."),
    );
  }

  /** A solo game's second half: the computer took every word the player missed. */
  computer(turn) {
    return h("section", { class: "computer-turn", "aria-labelledby": "computer-title" },
      h("h3", { id: "computer-title" }, "The computer's turn"),
      h("p", { class: "verdict" }, turn.verdict),
      h("p", {}, `It took the ${plural(turn.words.length, "word")} you missed, for ${plural(turn.score, "point")}: they are listed under “Words nobody found”.`),
    );
  }

  totals(players) {
    const rows = [...players].sort((a, b) => b.total - a.total);
    return h("section", { class: "totals", "aria-labelledby": "totals-title" },
      h("h3", { id: "totals-title" }, "Game totals"),
      h("ol", {}, rows.map((p) => h("li", { "data-player": p.nickname }, h("span", { class: "name" }, p.nickname), h("span", { class: "total" }, plural(p.total, "point"))))),
    );
  }

  missedSection() {
    this.missedList = h("ul", { class: "chips" }, this.missed.map((w) => h("li", {}, wordButton("missed-word", w, {},
      h("span", { class: "points" }, `+${w.points}`),
      commonnessTag(w),
    ))));
    this.filterNote = h("p", { class: "hint filter-note", role: "status" }, "Tap a die on the board to see only the missed words through it.");
    return h("section", { class: "missed", "aria-labelledby": "missed-title" },
      h("h3", { id: "missed-title" }, `Words nobody found (${this.missed.length})`),
      this.missed.length ? h("p", { class: "hint" }, "The most common come first: those are the ones you could have had.") : null,
      this.filterNote,
      this.missed.length ? this.missedList : h("p", { class: "hint" }, "None: every word was found!"),
    );
  }

  solution(words, names) {
    const byLength = new Map();
    for (const w of words) {
      if (!byLength.has(w.word.length)) byLength.set(w.word.length, []);
      byLength.get(w.word.length).push(w);
    }
    const lengths = [...byLength.keys()].sort((a, b) => b - a);
    return h("section", { class: "solution", "aria-labelledby": "solution-title" },
      h("h3", { id: "solution-title" }, "Every word on the board"),
      lengths.map((n) => {
        const group = byLength.get(n).sort((a, b) => a.word.localeCompare(b.word));
        return h("div", { class: "length-group" },
          h("h4", {}, `${n} letters (${group.length})`),
          h("ul", { class: "chips" }, group.map((w) => {
            const who = w.found_by.map((id) => names.get(id) || "?");
            return h("li", {}, wordButton("solution-word", w, { class: `word-chip${who.length ? " found" : " nobody"}`, "data-found-by": who.join(", ") },
              h("span", { class: "points" }, `+${w.points}`),
              commonnessTag(w),
              who.length ? h("span", { class: "who" }, who.join(", ")) : h("span", { class: "visually-hidden" }, " (nobody found it)"),
            ));
          })),
        );
      }),
    );
  }

  chip(target) {
    return target && target.closest ? target.closest("[data-path]") : null;
  }

  pathOf(chip) {
    return chip.dataset.path ? chip.dataset.path.split(",").map(Number) : [];
  }

  preview(target) {
    const chip = this.chip(target);
    if (chip && this.root.contains(chip)) this.board.show(this.pathOf(chip), { animate: true });
  }

  unpreview(next) {
    if (this.chip(next)) return; // moving straight onto another word: it shows its own path
    this.board.show(this.pinned ? this.pathOf(this.pinned) : []);
  }

  pick(event) {
    const chip = this.chip(event.target);
    if (!chip) return;
    this.root.querySelectorAll(".pinned").forEach((el) => el.classList.remove("pinned"));
    this.pinned = this.pinned === chip ? null : chip;
    if (this.pinned) chip.classList.add("pinned");
    this.board.show(this.pinned ? this.pathOf(chip) : [], { animate: true });
  }

  /** A die was tapped on the results board: show only the missed words through it. */
  tapCell(cell) {
    if (!this.missedList) return; // still loading
    this.filter = this.filter === cell ? -1 : cell;
    this.board.mark(this.filter);
    const model = this.board.model;
    let shown = 0;
    this.missedList.querySelectorAll("[data-testid=missed-word]").forEach((chip, i) => {
      const w = this.missed[i];
      let path = w.path;
      if (this.filter >= 0 && !path.includes(this.filter)) path = findPath(model, w.word, { through: this.filter });
      chip.parentElement.hidden = !path;
      if (path) chip.dataset.path = path.join(",");
      shown += path ? 1 : 0;
    });
    if (this.filter < 0) {
      this.filterNote.textContent = "Tap a die on the board to see only the missed words through it.";
      this.board.show([]);
      return;
    }
    const row = Math.floor(this.filter / model.cols) + 1;
    const col = (this.filter % model.cols) + 1;
    const face = faceLabel(model.faces[this.filter]) || "blank";
    this.filterNote.textContent = `${plural(shown, "missed word")} through the ${face} die (row ${row}, column ${col}). Tap it again to show all.`;
  }
}

/** How common a word is, in words, from its Zipf frequency (wordfreq's scale): the same
 * figures as solver/commonness.py's COMMONNESS_LABELS, for results stored before the server
 * sent each word's label. */
export function commonness(zipf) {
  if (zipf >= 4.5) return "everyday";
  if (zipf >= 3) return "common";
  if (zipf >= 1.5) return "uncommon";
  return "rare";
}
