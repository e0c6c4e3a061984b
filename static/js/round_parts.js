// The parts a page that plays rounds wires the same way (the room page and the arena's): the
// server clock, the socket, the board, the words waiting to be sent, the word entry, the
// words found, the results with their definitions, and the countdown.

import { Board } from "./board.js";
import { Countdown, ServerClock } from "./clock.js";
import { $ } from "./dom.js";
import { WordEntry } from "./entry.js";
import { Results } from "./results.js";
import { RoomSocket } from "./socket.js";
import { Submissions } from "./submissions.js";
import { FoundWords } from "./words.js";
import { Definitions } from "./word_detail.js";

/**
 * Build them for `page`. options: wsPath, closeCodes (the server's, from the page's data), pendingKey (where unsent words wait in the
 * browser), roundsPath (+ N/words/WORD/definition.json), onMessage, onStatus, submitWord,
 * askEnd(number, socket) (the clock reached zero), found (FoundWords' options), and
 * stage(): the page's Stage, made from these parts afterwards, which the countdown drives.
 */
export function roundParts(page, { wsPath, closeCodes, pendingKey, roundsPath, onMessage, onStatus, submitWord, askEnd, found = {}, stage }) {
  const clock = new ServerClock();
  const socket = new RoomSocket(wsPath, { onMessage, onStatus, closeCodes, onSample: (t) => clock.sample(t) });
  const board = new Board($(page, "[data-testid=board]"));
  const definitions = new Definitions((round, word) => `${roundsPath}${round}/words/${encodeURIComponent(word)}/definition.json`);
  return {
    clock,
    socket,
    board,
    submissions: new Submissions((m) => socket.send(m), pendingKey),
    entry: new WordEntry($(page, "[data-entry]"), board, submitWord),
    found: new FoundWords($(page, "[data-testid=found-words]"), $(page, "[data-found-summary]"), found),
    results: new Results($(page, "[data-view=results]"), board, { detail: $(page, "[data-word-detail]"), definitions }),
    countdown: new Countdown($(page, "[data-testid=timer]"), clock, {
      onPhase: (phase, seconds) => stage().phase(phase, seconds),
      onWarn: (seconds) => stage().warn(seconds),
      askEnd: (number) => askEnd(number, socket),
    }),
  };
}
