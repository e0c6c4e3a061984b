// The arena page: the room page's board, word entry, clock, stage and results, driven by the
// arena's schedule instead of a host. The next round is announced during the last one's
// results; it takes the stage when its board appears. Beside the board: the live top 10, and
// the chat, open from a round's end until the next board appears.

import { Chat } from "./chat.js";
import { formatRemaining } from "./clock.js";
import { $, h, readJson, replaceChildren } from "./dom.js";
import { fetchResults, joinArenaResults } from "./results.js";
import { roundParts } from "./round_parts.js";
import { Stage } from "./stage.js";
import { rejection, say } from "./words.js";
import { showConnection } from "./chrome.js";

const ASK_END_SPREAD_MS = 2000; // clients ask for the end at random within this, not all at once

const data = readJson("arena-data");
const page = $(document, "[data-arena]");
const feedback = $(page, "[data-testid=feedback]");
const announcer = $(page, "[data-announcer]");
const nextLine = $(page, "[data-next]");

const state = {
  me: data.me,
  hostId: null, // nobody hosts the arena
  solo: false,
  daily: null,
  players: new Map(), // the arena lists no players: the top 10 stands in for them
  settings: { rows: data.rows, cols: data.cols },
  arena: null,
  round: null, // the round on the stage: the one being played, or the last one finished
  next: null, // a round announced whose board has not appeared yet
  results: null,
  resultsUrl: null,
  resultsError: "",
  top: null,
};

const { clock, socket, board, submissions, entry, found, results, countdown } = roundParts(page, {
  wsPath: data.wsPath,
  closeCodes: data.closeCodes,
  pendingKey: `boggle-pending-arena-${data.slug}`,
  roundsPath: data.roundsPath,
  onMessage: handle,
  onStatus: connectionChanged,
  submitWord,
  found: { struck: false },
  // Clients ask for the end at random within ASK_END_SPREAD_MS, not all at once.
  askEnd: (number, sock) => setTimeout(() => {
    if (state.round && state.round.number === number && isRunning()) sock.send({ type: "clock_zero", round: number });
  }, Math.random() * ASK_END_SPREAD_MS),
  stage: () => stage,
});
const chat = new Chat($(page, "[data-chat]"), (m) => socket.send(m));
const stage = new Stage(page, {
  state, board, entry, results, countdown, announce,
  askSnapshot: () => socket.resume({ full: true }),
  retryResults: () => state.resultsUrl && loadResults(state.resultsUrl, true),
  resultsOf,
});

function announce(text) {
  announcer.textContent = text;
}

// Messages from the server -------------------------------------------------------------

function handle(message) {
  switch (message.type) {
    case "arena_snapshot":
      return snapshot(message);
    case "snapshot_more":
      return snapshotMore(message);
    case "event":
      return event(message.event, message.data);
    case "board":
      if (state.next && state.next.number === message.round) {
        state.next = { ...state.next, board: message.board };
        return promote();
      }
      if (state.round && state.round.number === message.round) {
        state.round = { ...state.round, board: message.board };
        stage.draw();
      }
      return;
    case "arena_results":
      return arenaResults(message);
    case "arena_top":
      if (state.round && state.round.number === message.round) {
        state.top = message;
        drawTop();
      }
      return;
    case "submit_result":
      return answered(message);
    case "error":
      if (message.code.startsWith("chat_")) return chat.refused(message.message);
      return say(feedback, message.message, "no");
    default:
      return; // pong, and messages newer than this page
  }
}

let snapshotSeq = null;

function snapshot(message) {
  state.me = message.me;
  state.arena = message.arena;
  snapshotSeq = message.seq;
  const current = message.round;
  state.next = null;
  if (current && current.status === "running" && current.starts_at > clock.now()) {
    state.next = current;
    state.round = message.last_round;
  } else {
    state.round = current;
  }
  const running = isRunning();
  found.reset(running ? current.my_words : []);
  if (!running) state.top = null;
  if (message.results_url && state.round && state.round.status === "finished") loadResults(message.results_url);
  if (state.next) promoteLater();
  chat.reset(message.chat, state.me);
  drawAll();
  if (running) submissions.resend(state.round.number);
}

/** The rest of a snapshot too large for one frame: more of my words, more chat. */
function snapshotMore(message) {
  if (message.seq !== snapshotSeq) return;
  if (isRunning() && message.my_words.length) found.addAll(message.my_words);
  chat.addAll(message.chat || []);
  drawAll();
}

function event(kind, data) {
  if (kind === "chat_message") return chat.addAll([data.message]);
  if (kind === "chat_deleted") return chat.remove(data.ids);
  if (kind === "round_started") {
    if (data.round.starts_at > clock.now()) {
      state.next = data.round;
      promoteLater();
    } else {
      state.next = data.round;
      return promote();
    }
  } else if (kind === "round_ended") {
    state.round = data.round;
    state.results = null;
    state.top = state.top && state.top.round === data.round.number ? state.top : null;
    say(feedback, "");
    announce(`Round ${data.round.number} is over.`);
    // The results follow on the socket (arena_results); resultsUrl serves a retry.
    state.resultsUrl = data.results_url;
    state.resultsError = "";
  }
  drawAll();
}

let promoteTimer = 0;

/** Put the announced round on the stage when its board is due (the server sends the board then too). */
function promoteLater() {
  clearTimeout(promoteTimer);
  promoteTimer = setTimeout(promote, Math.max(0, state.next.starts_at - clock.now()));
}

function promote() {
  clearTimeout(promoteTimer);
  if (!state.next) return;
  if (state.next.starts_at > clock.now() && !state.next.board) return promoteLater();
  state.round = state.next;
  state.next = null;
  state.top = null;
  state.resultsUrl = null;
  found.reset([]);
  say(feedback, "");
  drawAll();
}

function resultsOf(round) {
  return round && state.results && state.results.round.number === round.number ? state.results : null;
}

let pending = null; // the arena_results frames of a round received so far

/**
 * A player's results of an arena round, sent in parts at time-up (games/arena/delivery.py):
 * the first carries their own part (`mine`: the top list with their row, their rank and
 * percentile) and the round's shared part; the others the solution in slices. Their own words
 * mark the solution's `found_by`. `parts` 0: the socket could not carry them, fetch them.
 */
function arenaResults(message) {
  if (!state.round || state.round.number !== message.round) return;
  if (message.parts === 0) return loadResults(message.results_url, true);
  if (message.part === 0) {
    pending = { round: message.round, parts: message.parts, mine: message.mine, shared: message.shared, slices: [] };
  } else if (pending && pending.round === message.round) {
    pending.slices[message.part - 1] = message.solution;
  }
  if (!pending || pending.slices.filter(Boolean).length < pending.parts - 1) return;
  const { mine, shared, slices } = pending;
  pending = null;
  showResults(joinArenaResults(mine, shared, slices));
  drawAll();
}

function showResults(res) {
  state.results = res;
  state.resultsError = "";
  const me = res.arena || {};
  announce(me.played ? `Round ${res.round.number} is over: you ranked ${me.rank} of ${me.players}.` : `Round ${res.round.number} is over.`);
}

let loading = null;

function loadResults(url, again = false) {
  state.resultsUrl = url;
  if ((!again && resultsOf(state.round)) || loading === url) return;
  loading = url;
  state.resultsError = "";
  fetchResults(url).then(
    (res) => {
      if (state.resultsUrl !== url) return;
      showResults(res);
    },
    (error) => {
      if (state.resultsUrl === url) state.resultsError = error.message;
    },
  ).finally(() => {
    if (loading === url) loading = null;
    drawAll();
  });
}

function answered(result) {
  submissions.answered(result.client_id);
  if (result.accepted) {
    found.add({ word: result.word, points: result.points, path: result.path });
    say(feedback, `${result.word} +${result.points}`, "ok");
  } else {
    say(feedback, rejection(result, state.round ? state.round.min_length : 3), "no");
  }
}

function isRunning() {
  return !!state.round && state.round.status === "running";
}

function submitWord(what, shown) {
  if (!isRunning()) return;
  if (!submissions.submit(state.round.number, what, shown)) {
    say(feedback, `${shown || "Your word"} will be sent when the connection is back.`);
  }
}

function connectionChanged(status) {
  showConnection(page, status);
  if (status === "open" && isRunning()) submissions.resend(state.round.number);
}

// Drawing ------------------------------------------------------------------------------

function drawTop() {
  const top = state.top;
  const list = $(page, "[data-top]");
  const summary = $(page, "[data-top-summary]");
  if (!top || !isRunning()) {
    replaceChildren(list);
    summary.textContent = isRunning() ? "Nobody has scored yet." : "While a round is played: the best scores so far, points only.";
    return;
  }
  summary.textContent = `${top.players} ${top.players === 1 ? "player has" : "players have"} found words.`;
  replaceChildren(list, top.top.map((row) =>
    h("li", { class: `player${row.id === state.me ? " me" : ""}`, "data-testid": "top-row", "data-name": row.nickname },
      h("span", { class: "name" }, row.nickname),
      row.id === state.me ? h("span", { class: "tag you" }, "you") : null,
      h("span", { class: "stats" }, `${row.points} pt${row.points === 1 ? "" : "s"}`))));
}

/** When the next board comes, or when the one in play ends. */
function drawNext() {
  const now = clock.now();
  const arena = state.arena;
  let at = state.next ? state.next.starts_at : null;
  if (at === null && state.round && !isRunning() && arena) at = state.round.ends_at + arena.results_ms;
  if (at === null && !state.round && arena) at = arena.next_starts_at;
  nextLine.hidden = isRunning() || at === null;
  if (!nextLine.hidden) nextLine.textContent = at > now ? `Next board in ${formatRemaining(at - now)}` : "Next board any moment now…";
}

/** The chat box: closed while a board is in play, so strangers cannot pass words. */
function drawChat() {
  const reason = isRunning() ? "Chat opens when the round ends, so no one passes words during it." : "";
  chat.draw({ reason, watching: false });
}

function drawAll() {
  drawTop();
  drawNext();
  drawChat();
  stage.draw();
}

setInterval(drawNext, 1000);
socket.connect();
