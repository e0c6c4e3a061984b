// The room page: keeps the room's state from the server's messages and draws it.

import { Chat } from "./chat.js";
import { $, readJson } from "./dom.js";
import { Hints } from "./hints.js";
import { renderPlayers } from "./players.js";
import { fetchResults } from "./results.js";
import { bindSettings, fillSettings, lockSettings } from "./settings.js";
import { roundParts } from "./round_parts.js";
import { Stage } from "./stage.js";
import { rejection, say, wordsStruck } from "./words.js";
import { copyLink, drawSettingsSummary, showConnection } from "./chrome.js";

const data = readJson("room-data");
const page = $(document, "[data-room]");
const feedback = $(page, "[data-testid=feedback]"); // the word entry's: seen while a round runs
const lobbyFeedback = $(page, "[data-lobby-feedback]"); // what the lobby and results answer
const giveBoardFeedback = $(page, "[data-give-board-feedback]"); // beside the board given
const settingsFeedback = $(page, "[data-settings-feedback]"); // under the settings editor
const announcer = $(page, "[data-announcer]");
const settingsForm = $(page, "[data-settings-form]");

const state = {
  me: data.me,
  hostId: null,
  settings: null,
  players: new Map(),
  round: null, // the latest round as the server describes it (board once it has started)
  results: null, // the latest finished round's results, once fetched over HTTP
  resultsUrl: null, // where the latest finished round's results are
  resultsError: "", // why they could not be fetched
  counts: {},
  solo: false, // one player against the computer, which takes the missed words afterwards
  boardGiven: false, // the host gave the next round's board (kept by the server, unseen)
  daily: data.daily, // a daily attempt's page: its room plays one round, then links there
  spectator: !!data.spectator, // watching through the room's watch link: no seat, no words
  spectators: 0, // how many watch through that link (the server coalesces the changes)
};

const { clock, socket, board, submissions, entry, found, results, countdown } = roundParts(page, {
  wsPath: data.wsPath,
  closeCodes: data.closeCodes,
  pendingKey: `boggle-pending-${data.code}`,
  roundsPath: data.roundsPath,
  onMessage: handle,
  onStatus: connectionChanged,
  submitWord,
  askEnd: (number, sock) => sock.send({ type: "clock_zero", round: number }),
  stage: () => stage,
});
const hints = new Hints($(page, "[data-hints]"), (m) => socket.send(m), announce);
const chat = new Chat($(page, "[data-chat]"), (m) => socket.send(m));
const stage = new Stage(page, { state, board, entry, results, countdown, announce, askSnapshot, retryResults, resultsOf });

function announce(text) {
  announcer.textContent = text;
}

function askSnapshot() {
  socket.resume({ full: true });
}

// Messages from the server -------------------------------------------------------------

function handle(message) {
  switch (message.type) {
    case "snapshot":
      return snapshot(message);
    case "snapshot_more":
      return snapshotMore(message);
    case "event":
      return event(message.event, message.data);
    case "board":
      if (state.round && state.round.number === message.round) {
        state.round = { ...state.round, board: message.board };
        stage.draw();
        drawHints();
      }
      return;
    case "word_counts":
      if (state.round && state.round.number === message.round) {
        state.counts = message.counts;
        drawPlayers();
      }
      return;
    case "spectators":
      state.spectators = message.count;
      return drawSpectators();
    case "submit_result":
      return answered(message);
    case "hint":
      return hints.answer(message);
    case "error":
      if (message.code.startsWith("chat_")) return chat.refused(message.message);
      if (message.code === "spectators_full") refusal = message.message; // shown as it closes
      hints.idle();
      if (message.code === "bad_settings" && state.settings) fillSettings(settingsForm, state.settings);
      // Where the player looks: a refused board or settings in the settings editor, anything
      // else in the word entry's line while a round runs (it is hidden otherwise) or the
      // lobby's.
      if (message.code === "bad_board") return say(giveBoardFeedback, message.message, "no");
      if (message.code === "bad_settings") return say(settingsFeedback, message.message, "no");
      return say(isRunning() ? feedback : lobbyFeedback, message.message, "no");
    default:
      return; // pong, and messages newer than this page: nothing to draw
  }
}

function snapshot(message) {
  state.me = message.me;
  state.hostId = message.room.host_id;
  state.solo = !!message.room.solo;
  state.settings = message.room.settings;
  state.boardGiven = !!message.room.board_given;
  state.players = new Map(message.players.map((p) => [p.id, p]));
  state.round = message.round;
  snapshotSeq = message.seq;
  const running = isRunning();
  if (!running && !resultsOf(state.round)) state.results = null;
  state.counts = running ? message.round.counts || {} : countsOf(resultsOf(state.round));
  found.reset(running ? message.round.my_words : []);
  hints.reset(running ? state.round.number : null, running ? message.round.hints : null);
  state.resultsUrl = null;
  if (message.results_url) loadResults(message.results_url);
  chat.reset(message.chat, state.me);
  state.spectators = message.spectators || 0;
  drawAll();
  if (running && !state.spectator) submissions.resend(state.round.number);
}

let snapshotSeq = null;

/** The rest of a snapshot too large for one frame: more players, more of my words. */
function snapshotMore(message) {
  if (message.seq !== snapshotSeq) return;
  for (const p of message.players) state.players.set(p.id, p);
  if (isRunning() && message.my_words.length) found.addAll(message.my_words);
  chat.addAll(message.chat || []);
  drawAll();
}

function event(kind, data) {
  switch (kind) {
    case "player_joined":
    case "player_updated":
      state.players.set(data.player.id, data.player);
      break;
    case "player_removed":
      state.players.delete(data.player_id);
      break;
    case "host_changed":
      state.hostId = data.host_id;
      break;
    case "settings_changed":
      if (state.boardGiven && !data.board_given && !forgetting && state.hostId === state.me) {
        say(giveBoardFeedback, "The board you gave does not fit these settings; the next board will be drawn.");
      }
      forgetting = false;
      state.settings = data.settings;
      settingsFeedback.textContent = ""; // saved: an earlier refusal no longer holds
      state.boardGiven = !!data.board_given;
      if (state.boardGiven) giveForm.reset();
      break;
    case "round_started":
      state.round = data.round;
      state.boardGiven = false; // a given board is played once
      state.counts = {};
      found.reset([]);
      hints.reset(data.round.number);
      state.resultsUrl = null; // the last round's results, if still on their way, are not shown
      for (const line of [lobbyFeedback, giveBoardFeedback, settingsFeedback]) line.textContent = "";
      say(feedback, "");
      announce(`Round ${data.round.number} is starting.`);
      break;
    case "round_ended":
      state.round = data.round;
      state.results = null;
      state.counts = {};
      say(feedback, "");
      announce(`Round ${data.round.number} is over.`);
      loadResults(data.results_url);
      break;
    case "chat_message":
      return chat.addAll([data.message]);
    case "chat_deleted":
      return chat.remove(data.ids);
    default:
      return;
  }
  drawAll();
}

/** The latest results if they are those of this round, else null. */
function resultsOf(round) {
  return round && state.results && state.results.round.number === round.number ? state.results : null;
}

let loading = null; // the results URL being fetched

/** Fetch the finished round's results (the socket only says where they are), then show them;
 * the caller draws the loading state. */
function loadResults(url) {
  state.resultsUrl = url;
  if (resultsOf(state.round) || loading === url) return;
  loading = url;
  state.resultsError = "";
  fetchResults(url).then(
    (res) => {
      if (state.resultsUrl !== url) return; // a newer round has come since
      state.results = res;
      state.counts = countsOf(res);
      for (const p of res.players) { // the game totals, with this round's points
        const known = state.players.get(p.id);
        if (known) state.players.set(p.id, { ...known, total: p.total });
      }
      announce(`Round ${res.round.number} is over. The results are shown.`);
    },
    (error) => {
      if (state.resultsUrl === url) state.resultsError = error.message;
    },
  ).finally(() => {
    if (loading === url) loading = null;
    drawAll();
  });
}

function retryResults() {
  if (state.resultsUrl) loadResults(state.resultsUrl);
  drawAll();
}

function answered(result) {
  submissions.answered(result.client_id);
  if (result.accepted) {
    if (!found.has(result.word)) hints.found(result.word);
    found.add({ word: result.word, points: result.points, path: result.path });
    state.counts = { ...state.counts, [String(state.me)]: Math.max(found.count, state.counts[String(state.me)] || 0) };
    drawPlayers();
    say(feedback, `${result.word} +${result.points}`, "ok");
  } else {
    say(feedback, rejection(result, state.round ? state.round.min_length : 3), "no");
  }
}

function countsOf(res) {
  return res ? Object.fromEntries(res.players.map((p) => [String(p.id), p.words.length])) : {};
}

function isRunning() {
  return !!state.round && state.round.status === "running";
}

// Actions of this player ---------------------------------------------------------------

function submitWord(what, shown) {
  if (!isRunning() || state.spectator) return;
  if (!submissions.submit(state.round.number, what, shown)) {
    say(feedback, `${shown || "Your word"} will be sent when the connection is back.`);
  }
}

let refusal = ""; // why the server turned this socket away (the page tries again later)

function connectionChanged(status) {
  showConnection(page, status);
  if (status === "open") refusal = "";
  if (status === "reconnecting" && refusal) $(page, "[data-connection]").textContent = `${refusal} Trying again…`;
  if (status === "open" && isRunning() && !state.spectator) submissions.resend(state.round.number);
}

$(page, "[data-start]").addEventListener("click", (e) => {
  const button = e.currentTarget;
  button.disabled = true; // until the round starts (or the server says why not)
  setTimeout(() => (button.disabled = false), 3000);
  socket.send({ type: "start_round" });
});
$(page, "[data-end]").addEventListener("click", () => socket.send({ type: "end_round" }));
const copyButton = $(document, "[data-copy-link]");
copyButton.addEventListener("click", () => copyLink(copyButton, data.link, announce));
$(page, "[data-add-bot]").addEventListener("submit", (e) => {
  e.preventDefault();
  socket.send({ type: "add_bot", level: e.currentTarget.elements.namedItem("level").value });
});
bindSettings(settingsForm, data.presets, (settings) => socket.send({ type: "update_settings", settings }));
const giveForm = $(page, "[data-give-board]");
let forgetting = false; // the host asked to forget the given board: no need to say it went
giveForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const board = giveForm.elements.namedItem("board").value.trim();
  giveBoardFeedback.textContent = "";
  if (board) socket.send({ type: "give_board", board });
});
$(page, "[data-forget-board]").addEventListener("click", () => {
  forgetting = true;
  socket.send({ type: "give_board", board: "" });
});

// Drawing ------------------------------------------------------------------------------

function drawPlayers() {
  renderPlayers($(page, "[data-players]"), { ...state, playing: isRunning() }, {
    remove: (id, name) => {
      if (window.confirm(`Remove ${name} from the room?`)) socket.send({ type: "remove_player", player_id: id });
    },
    makeHost: (id) => socket.send({ type: "transfer_host", player_id: id }),
    mute: (id, muted) => socket.send({ type: "mute_player", player_id: id, muted }),
  });
}

/** How many watch the room through its watch link, under the players (none: nothing shown). */
function drawSpectators() {
  const line = $(page, "[data-spectators]");
  const n = state.spectators;
  line.hidden = n === 0;
  line.textContent = n === 1 ? "1 spectator is watching." : `${n} spectators are watching.`;
}

/** The chat box: open between rounds, and during them if the host opened it; never to a
 * muted player; spectators read it. */
function drawChat() {
  const me = state.players.get(state.me);
  const closedNow = isRunning() && !(state.settings || {}).chat_in_rounds;
  let reason = "";
  if (state.spectator) reason = "You are watching: the players chat here, and you can read along.";
  else if (me && me.muted) reason = "The host has muted you in the chat.";
  else if (closedNow) reason = "The chat is closed during the round, so no one passes words; it opens at time-up.";
  chat.draw({ reason, watching: state.spectator });
}

/** The hints box: shown in a round when the host turned hints on, usable once the board is. */
function drawHints() {
  const settings = state.settings || {};
  const ready = isRunning() && !!state.round.board;
  hints.draw({ on: !!settings.hints && isRunning() && !state.spectator, cost: settings.hint_cost ?? 1, ready });
}

function drawAll() {
  const host = state.hostId === state.me;
  drawPlayers();
  drawSpectators();
  found.strikes(wordsStruck(state.settings, state.solo));
  if (state.settings) {
    fillSettings(settingsForm, state.settings);
    drawSettingsSummary(page, settingsForm, state.settings, data.presetNames);
  }
  lockSettings(settingsForm, !host || isRunning());
  $(page, "[data-settings-editor]").hidden = !host || isRunning();
  $(page, "[data-board-given]").hidden = !state.boardGiven;
  $(page, "[data-forget-board]").hidden = !state.boardGiven;
  $(page, "[data-add-bot]").hidden = !host || state.solo;
  $(page, "[data-settings-editor]").hidden ||= !!state.daily;
  const after = page.querySelector("[data-daily-after]");
  if (after) after.hidden = !state.round || isRunning();
  drawHints();
  drawChat();
  stage.draw();
}

socket.connect();
