// What the room shows as a round comes and goes: the lobby, the countdown, the board in
// play, and the results; and which host buttons go with each.

import { spokenRemaining } from "./clock.js";
import { $ } from "./dom.js";
import { Tracer } from "./trace.js";
import { keepAwake } from "./wakelock.js";

const BOARD_LATE_MS = 1500; // the board should have come with the start: ask for it again
const GO_LATE_MS = 2000; // a board first drawn this long after the start joins a round under way

/** Whether the keyboard focus is nowhere a player can see: on the page's body, or on an
 * element that was removed, disabled or hidden. */
function focusLost() {
  const el = document.activeElement;
  return !el || el === document.body || !el.isConnected || el.disabled || el.getClientRects().length === 0;
}

/** Return what the live region says when the board of `round` appears at server time `now`:
 * "go!" at the start, or how long is left when the page comes to a round under way (a
 * reconnect, a reload). */
export function goText(round, now) {
  if (now - round.starts_at <= GO_LATE_MS) return `Round ${round.number}: go!`;
  const left = round.ends_at === null ? "" : `: ${spokenRemaining(round.ends_at - now)} left`;
  return `Round ${round.number} is under way${left}.`;
}

/** Return the label of the button that ends a round early, for the room `state` describes.
 * A daily attempt is one ranked round: ending it ends the attempt and shows its results
 * (the computer's turn among them). A solo game goes on to the computer's turn; in a room of
 * friends the host ends the round for everyone. */
export function endLabel(state) {
  if (state.daily) return "I'm done: show the results";
  return state.solo ? "I'm done: the computer's turn" : "End the round now";
}

export class Stage {
  constructor(page, { state, board, entry, results, countdown, announce, askSnapshot, retryResults, resultsOf }) {
    Object.assign(this, { page, state, board, entry, results, countdown, announce, askSnapshot, retryResults, resultsOf });
    this.tracer = new Tracer(board, entry, { onTap: (cell) => results.tapCell(cell) });
    this.overlay = $(page, "[data-overlay]");
    this.title = $(page, "[data-round-title]");
    this.drawn = ""; // what the board shows now, so it is drawn again only when that changes
    this.timedRound = null;
    this.late = 0;
    this.last = ["", 0]; // the countdown's latest phase and seconds
    this.timeUp = null; // the round whose "time is up" was announced
    this.wide = window.matchMedia("(pointer: fine)");
  }

  /** Draw whatever the state calls for now. */
  draw() {
    const { state } = this;
    const round = state.round;
    const running = !!round && round.status === "running";
    const finished = !!round && !running;
    // Fetched over HTTP after the round ends: until they come, the results view says so.
    const results = finished ? this.resultsOf(round) : null;
    const was = this.page.dataset.phase;
    const inResults = this.results.root.contains(document.activeElement); // redrawing may drop it
    this.view(running ? "round" : finished ? "results" : "lobby");
    this.controls(running, finished);
    if (running) {
      if (this.timedRound !== round) {
        this.timedRound = round;
        this.countdown.run(round); // calls phase() as the round moves on
      } else {
        this.phase(...this.last);
      }
      return;
    }
    this.timedRound = null;
    this.countdown.stop(finished ? "0:00" : "");
    this.overlay.hidden = true;
    this.entry.enable(false);
    keepAwake(false);
    if (results) {
      this.title.textContent = `Round ${results.round.number} is over`;
      this.show(`results-${results.round.number}`, () => {
        this.board.draw(results.round.board, results.round.adjacency);
        this.results.show(results, state.me);
      });
      this.tracer.mode = "review";
    } else if (finished) {
      const error = state.resultsError;
      this.title.textContent = `Round ${round.number} is over`;
      this.show(`pending-${round.number}-${error}`, () => {
        this.board.draw(round.board, round.adjacency);
        this.results.pending(round.number, { error, retry: this.retryResults });
      });
      this.tracer.mode = "idle";
    } else {
      const { rows, cols } = state.settings || { rows: 4, cols: 4 };
      this.title.textContent = "Waiting for the first round";
      this.show(`lobby-${rows}x${cols}`, () => this.board.draw({ rows, cols, faces: null }));
      this.tracer.mode = "idle";
    }
    this.board.root.classList.toggle("reviewing", !!results);
    if (finished && (was === "round" || inResults)) this.focusResults();
  }

  /** At time-up the word box (or the die, or the End button) that had the focus goes away, and
   * so does what had it in the results when they replace their loading note: give the focus to
   * the results' heading rather than let it fall to the page's body. */
  focusResults() {
    const heading = this.results.root.querySelector("h2");
    if (!heading || !focusLost()) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: !this.wide.matches }); // a phone keeps its place on the page
  }

  /** What the live region says when the board appears: "go!" at the start, or how long is
   * left when the page comes to a round under way (a reconnect, a reload). */
  goText(round) {
    return goText(round, this.countdown.clock.now());
  }

  /** Say the time left (seconds) in the live region. */
  warn(seconds) {
    this.announce(`${spokenRemaining(seconds * 1000)} left.`);
  }

  /** The countdown moved on: "countdown" (seconds to go), "playing" or "overtime". */
  phase(phase, seconds) {
    const round = this.state.round;
    this.last = [phase, seconds];
    if (!round || round.status !== "running") return;
    this.board.root.classList.remove("reviewing");
    if (phase === "countdown") {
      this.title.textContent = `Round ${round.number}: get ready`;
      this.overlay.hidden = false;
      this.overlay.textContent = String(seconds);
      this.show(`countdown-${round.number}`, () => this.board.draw({ rows: round.rows, cols: round.cols, faces: null }));
      this.tracer.mode = "idle";
      this.entry.enable(false);
      return;
    }
    this.overlay.hidden = true;
    if (!round.board) {
      this.title.textContent = `Round ${round.number}`;
      clearTimeout(this.late);
      this.late = setTimeout(() => {
        const now = this.state.round;
        if (now && now.status === "running" && !now.board) this.askSnapshot();
      }, BOARD_LATE_MS);
      return;
    }
    const fresh = this.show(`play-${round.number}`, () => this.board.draw(round.board, round.adjacency));
    this.tracer.mode = this.state.spectator ? "idle" : "play";
    if (fresh) {
      this.entry.enable(!this.state.spectator); // a spectator watches: nothing to send
      keepAwake(true);
      this.announce(this.goText(round));
      if (this.wide.matches && !this.state.spectator) this.entry.input.focus(); // a phone keeps its keyboard closed
    }
    const over = phase === "overtime";
    this.title.textContent = over ? `Round ${round.number}: time! Counting the scores…` : `Round ${round.number}`;
    if (over && this.timeUp !== round.number) {
      this.timeUp = round.number;
      this.announce("Time is up.");
    }
  }

  /** Draw the board once for a given content key; return whether it was drawn now. */
  show(key, drawIt) {
    if (this.drawn === key) return false;
    this.drawn = key;
    drawIt();
    return true;
  }

  view(name) {
    this.page.querySelectorAll("[data-view]").forEach((el) => {
      el.hidden = el.dataset.view !== name;
    });
    this.page.dataset.phase = name;
  }

  controls(running, afterRound) {
    const { state } = this;
    const host = state.hostId === state.me;
    const start = $(this.page, "[data-start]");
    const end = $(this.page, "[data-end]");
    // Untimed rounds end when the host says so; alone, a player may also stop a timed one.
    const mayEnd = state.round?.ends_at === null || state.solo;
    $(this.page, "[data-host-controls]").hidden = !host || (running && !mayEnd);
    start.hidden = running || !!state.daily; // a daily attempt is one round
    start.textContent = afterRound ? "Start the next round" : "Start the round";
    if (!running) start.disabled = false;
    end.hidden = !running || !mayEnd;
    end.textContent = endLabel(state);
    const hostName = state.players.get(state.hostId)?.nickname || "the host";
    $(this.page, "[data-lobby-text]").textContent = state.solo
      ? "A game against the computer: find what you can, then it takes every word you missed."
      : host
        ? "You are the host: pick the settings, then start the round when everyone is here."
        : `When everyone is here, ${hostName} (the host) starts the round.`;
    $(this.page, "[data-share]").hidden = state.solo;
  }
}
