// A past round's page, opened from the player's record: the board and the round's results,
// drawn by the room page's own Board and Results (the same results, fetched the same way).

import { Board } from "./board.js";
import { $, h, readJson, replaceChildren } from "./dom.js";
import { Results, fetchResults } from "./results.js";
import { Definitions } from "./word_detail.js";

const data = readJson("past-round-data");
const board = new Board($(document, "[data-testid=board]"));
const root = $(document, "[data-testid=results]");
const definitions = new Definitions((round, word) => `${data.roundsPath}${round}/words/${encodeURIComponent(word)}/definition.json`);
// The round's refused words and reports, with the admin's outcomes, as its results showed them.
const reports = { reportsUrl: data.reportsUrl, csrfToken: data.csrfToken };
const results = new Results(root, board, { detail: $(document, "[data-word-detail]"), definitions, reports });

// Tapping a die shows only the missed words through it, as on the room's results.
board.root.addEventListener("click", (event) => {
  const cell = board.cellOf(event.target);
  if (cell >= 0) results.tapCell(cell);
});

try {
  const found = await fetchResults(data.resultsUrl);
  board.draw(found.round.board, found.round.adjacency);
  board.root.classList.add("reviewing");
  results.show(found, data.me);
} catch (error) {
  replaceChildren(root, h("p", { class: "results-error", role: "alert", "data-testid": "results-error" }, error.message));
}
