// The results of a round: scores, every player's words (shared ones struck), and every word
// on the board as one list with filters (word_list.js). A word tapped or focused shows its
// path on the board and, beside it, what it means (word_detail.js).

import { h, replaceChildren } from "./dom.js";
import { RovingList } from "./roving.js";
import { WordDetail } from "./word_detail.js";
import { WordList, labelOf } from "./word_list.js";
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

/** A word's commonness tag, after its points. */
function commonnessTag(w) {
  const label = labelOf(w);
  if (!label) return null;
  return h("span", { class: `commonness ${label}`, "data-testid": "commonness", title: `Zipf frequency ${w.zipf} (7 is “the”, 0 is never seen)` }, ` ${label}`);
}

/** Return a rank as English writes it: 1st, 2nd, 3rd, 4th, 11th, 21st, 112th. */
export const ordinal = (n) => `${n}${["th", "st", "nd", "rd"][(n % 100 >= 11 && n % 100 <= 13) || n % 10 > 3 ? 0 : n % 10]}`;

/** Return how many of the solution's words someone found (found_count: an arena's). */
export function foundCount(solution) {
  return solution.filter((w) => w.found_by.length || w.found_count).length;
}

/** Return the words struck in any player's list: found by two or more, scoring for nobody. */
/** Return who found the round's words, as the results' summary says it to player `me` (null:
 * a spectator): a room of friends found them together; one player alone, or in the arena
 * among strangers, did not. */
export function foundBy(results, me) {
  if (me === null || results.arena) return "The players found";
  return results.players.length > 1 ? "Together you found" : "You found";
}

export function struckWords(players) {
  return new Set(players.flatMap((p) => p.words.filter((w) => w.struck).map((w) => w.word)));
}

/** Return the line that gives an arena player their rank among everyone who played. */
export function arenaRankText(arena) {
  if (arena.played && arena.players === 1) return `You ranked 1st of 1 player with ${plural(arena.score, "point")}: you played this round alone.`;
  if (arena.played) {
    return `You ranked ${ordinal(arena.rank)} of ${plural(arena.players, "player")} with ${plural(arena.score, "point")}: `
      + `better than ${arena.percentile}% of them.`;
  }
  return `You did not play this round; ${plural(arena.players, "player")} did.`;
}

/**
 * Return a player's results of an arena round from the parts the socket brought them
 * (games/arena/delivery.py): `mine` (the top list with their row, their rank and percentile),
 * `shared` (the round's part for everyone) and the solution's `slices`. Their own words mark
 * the solution's `found_by`: each player's results carry their own words, never everyone's.
 */
export function joinArenaResults(mine, shared, slices) {
  const row = mine.players.find((p) => p.id === mine.id);
  const own = new Set(row ? row.words.map((w) => w.word) : []);
  const solution = slices.flat().map((w) => ({ ...w, found_by: own.has(w.word) ? [mine.id] : [] }));
  return { ...shared, players: mine.players, arena: mine.arena, solution };
}

/** An arena round's part of the results: this player's rank and percentile among everyone
 * who played it, the words only they found, and the round's top 10 (points only: each
 * player's results carry their own words, never everyone's). */
function arenaStanding(results, me) {
  const arena = results.arena;
  const standing = h("p", { class: arena.played ? "arena-rank" : "hint", "data-testid": "arena-rank" }, arenaRankText(arena));
  const only = arena.played && arena.only_me.length
    ? h("p", { "data-testid": "arena-only-me" }, `Only you found: ${arena.only_me.join(", ")}.`)
    : null;
  const top = results.players.filter((p) => p.rank <= 10);
  return h("section", { class: "arena-standing", "aria-labelledby": "arena-top-title" },
    standing, only,
    h("h3", { id: "arena-top-title" }, "Top 10"),
    h("ol", { class: "arena-top-final", "data-testid": "arena-top-final" }, top.map((p) =>
      h("li", { class: p.id === me ? "me" : "", "data-player": p.nickname },
        h("span", { class: "rank" }, `${p.rank}. `),
        h("span", { class: "name" }, p.nickname),
        h("span", { class: "score" }, ` ${plural(p.score, "point")}, ${plural(p.found, "word")}`)))));
}

export class Results {
  /** Draw into `root`; `detail` is the panel beside the board, `definitions` a Definitions. */
  /** options: detail (the word detail's element), definitions, and reports: the page's
   * reportsUrl and csrfToken (the room page's own data when not given). */
  constructor(root, board, { detail, definitions, reports }) {
    this.root = root;
    this.board = board;
    this.detail = new WordDetail(detail, definitions);
    this.definitions = definitions;
    this.pinned = null;
    this.list = null;
    this.results = null;
    root.addEventListener("mouseover", (e) => this.preview(e.target));
    root.addEventListener("focusin", (e) => this.focused(e.target));
    root.addEventListener("mouseout", (e) => this.unpreview(e.relatedTarget));
    root.addEventListener("focusout", (e) => this.unpreview(e.relatedTarget));
    root.addEventListener("click", (e) => this.pick(e));
    this.reports = new Reports(root, reports); // word reports: the player's refused words, a report form
  }

  /** Draw the results of a round for player `me`. */
  show(results, me) {
    this.pinned = null;
    this.results = results;
    this.me = me;
    this.detail.clear({ shown: true });
    this.names = new Map(results.players.map((p) => [p.id, p.nickname]));
    this.byWord = new Map(results.solution.map((w) => [w.word, w]));
    const mine = results.players.find((p) => p.id === me);
    this.mine = new Map((mine ? mine.words : []).map((w) => [w.word, w]));
    const found = foundCount(results.solution);
    const struck = struckWords(results.players);
    this.list = new WordList({ words: results.solution, mine: this.mine, names: this.names, struck, board: this.board, hasMe: !!mine });
    const wide = window.matchMedia("(min-width: 56rem)").matches;
    replaceChildren(
      this.root,
      h("h2", { class: "results-title" }, `Round ${results.round.number}: results`),
      h("p", { class: "results-summary" },
        results.standing
          ? h("span", { class: "board-standing", "data-testid": "board-standing" },
            `${results.standing.label || "The board"}: ${results.standing.text}. `)
          : `The board held ${plural(results.solution.length, "word")} worth ${plural(results.max_score, "point")}. `,
        `${foundBy(results, me)} ${found}` + (mine ? `; you scored ${plural(mine.score, "point")}.` : "."),
      ),
      h("p", { class: "hint" },
        "In a list of words, the arrow keys move from word to word.",
        struck.size ? " Struck words were found by two or more players and score for nobody." : "",
      ),
      results.computer ? this.computer(results.computer) : null,
      results.arena ? arenaStanding(results, me) : null,
      h("div", { class: "score-cards" }, (results.arena ? [mine].filter(Boolean) : results.players).map((p) => this.card(p, me, wide))),
      results.arena ? null : this.totals(results.players),
      this.list.element,
    );
    this.root.querySelectorAll(".score-card .chips").forEach((ul) => new RovingList(ul, "[data-testid=result-word]"));
    this.board.mark(-1);
    this.reports.show(results);
  }

  /** Say that round `number`'s results are on their way, or why they did not come (with a
   * button that asks for them again). */
  pending(number, { error = "", retry = null } = {}) {
    this.pinned = null;
    this.list = null;
    this.results = null;
    this.detail.clear();
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

  /** A player's score and words: the player's own open, the others' folded away on a phone
   * (every word is in the list below, with who found it). */
  card(player, me, wide) {
    const words = player.words.map((w) =>
      h("li", {}, h("button",
        {
          type: "button",
          class: `word-chip${w.struck ? " struck" : ""}`,
          "data-testid": "result-word",
          "data-word": w.word,
          "data-path": w.path.join(","),
          "data-player": player.nickname,
          "data-struck": String(w.struck),
        },
        h("span", { class: "word" }, w.word),
        w.struck ? h("span", { class: "visually-hidden" }, " (found by someone else too: no points)") : null,
        h("span", { class: "points" }, w.struck ? "0" : `+${w.points}`),
        commonnessTag(w),
      )),
    );
    const list = words.length
      ? h("ul", { class: "chips", "aria-label": `${player.nickname}'s words` }, words)
      : h("p", { class: "hint" }, "No words this round.");
    const isMe = player.id === me;
    return h("article", { class: `score-card${isMe ? " me" : ""}`, "data-player": player.nickname },
      h("h3", {}, h("span", { class: "name" }, player.nickname), h("span", { class: "score" }, plural(player.score, "point"))),
      player.hints ? h("p", { class: "hint", "data-testid": "hints-charged" }, `hints: ${player.hints.taken} × ${plural(player.hints.cost, "point")} (−${player.hints.points}, taken off the score)`) : null,
      isMe || !words.length
        ? list
        : h("details", { class: "card-words", open: wide },
          h("summary", {}, `${plural(words.length, "word")}`), list),
    );
  }

  /** A solo game's second half: the computer took every word the player missed; its most
   * common word is shown with what it means. */
  computer(turn) {
    const best = this.results.missed[0];
    const meaning = h("span", { class: "best-meaning", "data-testid": "verdict-definition" });
    if (best) {
      this.definitions.get(this.results.round.number, best).then(
        (answer) => replaceChildren(meaning, answer.summary ? ` — ${answer.summary}` : " (no definition)"),
        () => replaceChildren(meaning),
      );
    }
    return h("section", { class: "computer-turn", "aria-labelledby": "computer-title" },
      h("h3", { id: "computer-title" }, "The computer's turn"),
      h("p", { class: "verdict" }, turn.verdict),
      h("p", {}, `It took the ${plural(turn.words.length, "word")} you missed, for ${plural(turn.score, "point")}: “Missed by me” lists them.`),
      best
        ? h("p", { class: "best-missed" }, "The most common one you missed: ",
          h("button", { type: "button", class: "word-chip", "data-testid": "best-missed", "data-word": best, "data-path": this.byWord.get(best).path.join(",") },
            h("span", { class: "word" }, best)),
          meaning)
        : null,
    );
  }

  totals(players) {
    const rows = [...players].sort((a, b) => b.total - a.total);
    return h("section", { class: "totals", "aria-labelledby": "totals-title" },
      h("h3", { id: "totals-title" }, "Game totals"),
      h("ol", {}, rows.map((p) => h("li", { "data-player": p.nickname }, h("span", { class: "name" }, p.nickname), h("span", { class: "total" }, plural(p.total, "point"))))),
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

  /** A word got the focus (by Tab, the arrow keys or a tap): its path, and what it means. */
  focused(target) {
    this.preview(target);
    const chip = this.chip(target);
    if (chip && this.root.contains(chip)) this.explain(chip);
  }

  /** Show a word's details in the panel beside the board. */
  explain(chip) {
    const entry = this.results && this.byWord.get(chip.dataset.word);
    if (!entry) return;
    const mine = this.mine.get(entry.word) || null;
    const struck = this.results.players.some((p) => p.words.some((w) => w.word === entry.word && w.struck));
    this.detail.show(this.results.round.number, entry, { mine, names: this.names, struck });
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
    this.explain(chip);
  }

  /** A die was tapped on the results board: show only the words through it. */
  tapCell(cell) {
    if (this.list) this.list.through(cell);
  }
}
