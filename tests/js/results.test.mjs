// A round's results (static/js/results.js): fetching them with retries, what the summary
// counts, an arena player's rank, and an arena's results put together from the socket's parts.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";

import { arenaRankText, fetchResults, foundBy, foundCount, joinArenaResults, ordinal, struckWords } from "../../static/js/results.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answer fetch with these, in turn: a status with a JSON body, {status, text} for a body
 * that is not JSON, or an Error to throw (the network failed). Returns the URLs asked. */
function answers(...replies) {
  const asked = [];
  globalThis.fetch = async (url, options) => {
    asked.push([url, options]);
    const reply = replies.shift();
    if (reply instanceof Error) throw reply;
    return {
      ok: reply.status >= 200 && reply.status < 300,
      status: reply.status,
      json: async () => {
        if ("text" in reply) throw new SyntaxError("not JSON");
        return reply.body;
      },
    };
  };
  return asked;
}

const NO_WAIT = [0, 0, 0];

test("ordinals read as English writes them, the teens included", () => {
  const read = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 24, 101, 102, 111, 112, 113, 121].map(ordinal);
  assert.deepEqual(read, [
    "0th", "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "14th",
    "21st", "22nd", "23rd", "24th", "101st", "102nd", "111th", "112th", "113th", "121st",
  ]);
});

test("the summary counts the words someone found, an arena's by their found count", () => {
  const solution = [
    { word: "TEA", found_by: [1] },
    { word: "EAT", found_by: [] },
    { word: "ATE", found_by: [], found_count: 4 },
    { word: "ETA", found_by: [], found_count: 0 },
  ];
  assert.equal(foundCount(solution), 2);
  assert.equal(foundCount([]), 0);
});

test("a word is struck when any player's list strikes it", () => {
  const players = [
    { words: [{ word: "TEA", struck: true }, { word: "EAT", struck: false }] },
    { words: [{ word: "TEA", struck: true }, { word: "ATE", struck: false }] },
    { words: [] },
  ];
  assert.deepEqual([...struckWords(players)], ["TEA"]);
  assert.equal(struckWords([]).size, 0);
});

test("an arena player is told their rank, their points and whom they beat", () => {
  const arena = { played: true, players: 12, rank: 3, score: 14, percentile: 83 };
  assert.equal(arenaRankText(arena), "You ranked 3rd of 12 players with 14 points: better than 83% of them.");
  assert.equal(arenaRankText({ ...arena, rank: 1, score: 1 }), "You ranked 1st of 12 players with 1 point: better than 83% of them.");
});

test("an arena player alone in a round is told so, not that they beat nobody", () => {
  assert.equal(
    arenaRankText({ played: true, players: 1, rank: 1, score: 5, percentile: 0 }),
    "You ranked 1st of 1 player with 5 points: you played this round alone.",
  );
});

test("an arena watcher who did not play is told how many did", () => {
  assert.equal(arenaRankText({ played: false, players: 1 }), "You did not play this round; 1 player did.");
  assert.equal(arenaRankText({ played: false, players: 0 }), "You did not play this round; 0 players did.");
});

test("an arena's results join the player's part, the round's part and the solution's slices", () => {
  const mine = {
    id: 7,
    players: [
      { id: 3, rank: 1, words: [] },
      { id: 7, rank: 2, words: [{ word: "TEA" }, { word: "ATE" }] },
    ],
    arena: { played: true, rank: 2 },
  };
  const shared = { round: { number: 9 }, max_score: 12, players: "replaced" };
  const slices = [
    [{ word: "TEA", found_count: 5 }, { word: "EAT", found_count: 1 }],
    [{ word: "ATE", found_count: 2 }],
  ];
  const results = joinArenaResults(mine, shared, slices);
  assert.deepEqual(results.round, { number: 9 });
  assert.equal(results.max_score, 12);
  assert.equal(results.players, mine.players);
  assert.equal(results.arena, mine.arena);
  // Only the player's own words are marked found by them: the others' words are not theirs.
  assert.deepEqual(results.solution, [
    { word: "TEA", found_count: 5, found_by: [7] },
    { word: "EAT", found_count: 1, found_by: [] },
    { word: "ATE", found_count: 2, found_by: [7] },
  ]);
});

test("an arena watcher's results mark no word as theirs", () => {
  const mine = { id: 7, players: [{ id: 3, words: [{ word: "TEA" }] }], arena: { played: false } };
  const results = joinArenaResults(mine, {}, [[{ word: "TEA" }]]);
  assert.deepEqual(results.solution, [{ word: "TEA", found_by: [] }]);
});

test("results are fetched as JSON, with the player's cookies", async () => {
  const asked = answers({ status: 200, body: { round: { number: 1 } } });
  assert.deepEqual(await fetchResults("/r/ABC/rounds/1/results.json", NO_WAIT), { round: { number: 1 } });
  assert.equal(asked.length, 1);
  const [url, options] = asked[0];
  assert.equal(url, "/r/ABC/rounds/1/results.json");
  assert.equal(options.headers.Accept, "application/json");
  assert.equal(options.credentials, "same-origin");
});

test("a server error or a busy server is tried again, and the results come", async () => {
  const asked = answers({ status: 503, body: {} }, { status: 429, body: {} }, { status: 200, body: { ok: 1 } });
  assert.deepEqual(await fetchResults("/x", NO_WAIT), { ok: 1 });
  assert.equal(asked.length, 3);
});

test("a network failure is tried again, and the results come", async () => {
  const asked = answers(new TypeError("Failed to fetch"), { status: 200, body: { ok: 1 } });
  assert.deepEqual(await fetchResults("/x", NO_WAIT), { ok: 1 });
  assert.equal(asked.length, 2);
});

test("a refusal is not tried again: the player reads the server's reason", async () => {
  const asked = answers({ status: 404, body: { message: "No such round." } });
  await assert.rejects(fetchResults("/x", NO_WAIT), { message: "The results could not be loaded. No such round." });
  assert.equal(asked.length, 1);
});

test("a refusal without a reason says what the server answered", async () => {
  answers({ status: 403, text: "<html>Forbidden</html>" });
  await assert.rejects(fetchResults("/x", NO_WAIT), { message: "The results could not be loaded. The server answered 403." });
});

test("a server still failing after every wait gives up with its reason", async () => {
  const asked = answers({ status: 500, body: {} }, { status: 500, body: {} }, { status: 502, body: {} }, { status: 500, body: { message: "Down for a moment." } });
  await assert.rejects(fetchResults("/x", NO_WAIT), { message: "The results could not be loaded. Down for a moment." });
  assert.equal(asked.length, NO_WAIT.length + 1); // one try, then one after each wait
});

test("a network still down after every wait gives up saying the connection failed", async () => {
  const asked = answers(...Array(4).fill(new TypeError("Failed to fetch")));
  await assert.rejects(fetchResults("/x", NO_WAIT), { message: "The results could not be loaded: the connection failed." });
  assert.equal(asked.length, 4);
});

test("with no waits given, a failure is not tried again", async () => {
  const asked = answers({ status: 503, body: {} });
  await assert.rejects(fetchResults("/x", []), /The server answered 503/);
  assert.equal(asked.length, 1);
});

test("the summary says who found the words: together only in a room of friends", () => {
  const two = { players: [{ id: 1 }, { id: 2 }] };
  assert.equal(foundBy(two, 1), "Together you found");
  assert.equal(foundBy({ players: [{ id: 1 }] }, 1), "You found"); // solo, a daily attempt
  assert.equal(foundBy({ players: [{ id: 1 }, { id: 2 }], arena: {} }, 1), "The players found");
  assert.equal(foundBy(two, null), "The players found"); // a spectator
});
