// The round's clock (static/js/clock.js): the server's time from the frames' server_time, the
// countdown's text and phases, the warnings said out loud, and when the page asks to end.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";

import {
  Countdown,
  ServerClock,
  WARNINGS_S,
  countdownFrame,
  formatRemaining,
  mayAskEnd,
  spokenRemaining,
  warningPassed,
} from "../../static/js/clock.js";

// The countdown asks for the next animation frame; here a test draws each frame itself.
before(() => {
  globalThis.requestAnimationFrame = () => 0;
  globalThis.cancelAnimationFrame = () => {};
});
after(() => {
  delete globalThis.requestAnimationFrame;
  delete globalThis.cancelAnimationFrame;
});

/** A timer element as the countdown uses it: a text part, a bar, classes and a state. */
function fakeTimer() {
  const classes = new Set();
  const text = { textContent: "" };
  const bar = { style: { transform: "" } };
  const el = {
    dataset: {},
    classList: {
      remove: (...names) => names.forEach((n) => classes.delete(n)),
      toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)),
      contains: (name) => classes.has(name),
    },
    querySelector: (selector) => ({ "[data-timer-text]": text, "[data-timer-bar]": bar })[selector] ?? null,
  };
  return { el, text, bar, classes };
}

/** A countdown on a fake timer with a server clock the test sets (`clock.at`), recording what
 * it reports; `at(ms)` sets the time and draws two frames, as a browser would. */
function countdownAt() {
  const timer = fakeTimer();
  const clock = { at: 0, now: () => clock.at };
  const phases = [];
  const asked = [];
  const warned = [];
  const countdown = new Countdown(timer.el, clock, {
    onPhase: (phase, seconds) => phases.push(seconds ? `${phase} ${seconds}` : phase),
    onWarn: (seconds) => warned.push([seconds, clock.at]),
    askEnd: (round) => asked.push([round, clock.at]),
  });
  const at = (ms) => {
    clock.at = ms;
    countdown.tick();
    countdown.tick();
    return `${timer.text.textContent}${timer.classes.has("urgent") ? " urgent" : ""}`;
  };
  return { countdown, timer, clock, phases, asked, warned, at };
}

// The server's clock -------------------------------------------------------------------

test("the server clock is this computer's clock until a frame tells the server's time", () => {
  const clock = new ServerClock(() => 5000);
  assert.equal(clock.offset, 0);
  assert.equal(clock.now(), 5000);
});

test("the server clock trusts the least delayed frame: the largest offset", () => {
  let local = 1_000_000;
  const clock = new ServerClock(() => local);
  clock.sample(local + 5000 - 300); // a frame that took 300 ms on the way
  local += 1000;
  clock.sample(local + 5000 - 20); // one that took 20 ms
  local += 1000;
  clock.sample(local + 5000 - 900);
  assert.equal(clock.offset, 4980);
  assert.equal(clock.now(), local + 4980);
});

test("frames without a server time change nothing", () => {
  const clock = new ServerClock(() => 1000);
  clock.sample(undefined);
  clock.sample(null);
  clock.sample("2000");
  assert.equal(clock.offset, 0);
  assert.deepEqual(clock.samples, []);
});

test("the server clock forgets all but the last twelve frames", () => {
  const clock = new ServerClock(() => 0);
  clock.sample(9000); // one early frame with a large offset...
  for (let i = 0; i < 11; i += 1) clock.sample(100);
  assert.equal(clock.offset, 9000);
  clock.sample(100); // ...is the 13th from the end now: forgotten
  assert.equal(clock.offset, 100);
  assert.equal(clock.samples.length, 12);
});

test("a computer clock five minutes behind or ahead still reads the server's time", () => {
  for (const skew of [-300_000, 300_000]) {
    const server = 1_700_000_000_000;
    const clock = new ServerClock(() => server + skew);
    clock.sample(server - 40); // the frame left the server 40 ms ago
    assert.equal(clock.now(), server - 40);
  }
});

test("a computer clock five minutes off counts down the server's 30 seconds, not 5:30 or 0:00", () => {
  const server = 1_700_000_000_000;
  const round = { number: 1, starts_at: server, ends_at: server + 30_000, grace_ms: 0 };
  for (const skew of [-300_000, 300_000]) {
    const clock = new ServerClock(() => server + skew);
    clock.sample(server);
    assert.equal(countdownFrame(round, clock.now()).text, "0:30");
  }
});

test("the server clock reads this computer's clock afresh on every call", () => {
  let local = 0;
  const clock = new ServerClock(() => local);
  clock.sample(250);
  local = 10_000;
  assert.equal(clock.now(), 10_250);
});

// Time as the countdown reads and says it -------------------------------------------

test("the countdown reads minutes and seconds, rounded up to the next second", () => {
  const shown = [180000, 179001, 61000, 60000, 10000, 9999, 1001, 1, 0].map(formatRemaining);
  assert.deepEqual(shown, ["3:00", "3:00", "1:01", "1:00", "0:10", "0:10", "0:02", "0:01", "0:00"]);
});

test("the countdown never reads below zero", () => {
  assert.equal(formatRemaining(-500), "0:00");
  assert.equal(formatRemaining(-60_000), "0:00");
});

test("an hour or more reads in minutes", () => {
  assert.equal(formatRemaining(3_600_000), "60:00");
  assert.equal(formatRemaining(3_661_000), "61:01");
});

test("the time left is spoken in words, singular and plural", () => {
  const spoken = [60000, 30000, 10000, 1000, 65000, 61000, 120000, 125000, 59001, 0, -5000].map(spokenRemaining);
  assert.deepEqual(spoken, [
    "1 minute", "30 seconds", "10 seconds", "1 second", "1 minute 5 seconds", "1 minute 1 second",
    "2 minutes", "2 minutes 5 seconds", "1 minute", "0 seconds", "0 seconds",
  ]);
});

test("the warnings are said at a minute, thirty seconds and ten seconds left", () => {
  assert.deepEqual(WARNINGS_S, [60, 30, 10]);
});

test("a warning is passed when the time left goes from above it to at or below it", () => {
  assert.equal(warningPassed(31000, 30000), 30);
  assert.equal(warningPassed(30001, 29999), 30);
  assert.equal(warningPassed(60500, 59500), 60);
  assert.equal(warningPassed(10001, 10000), 10);
});

test("no warning is passed by a time left that starts at it, stays above it, or goes back up", () => {
  assert.equal(warningPassed(60000, 50000), 0); // a 60-second round starts at a minute left
  assert.equal(warningPassed(45000, 31000), 0);
  assert.equal(warningPassed(20000, 35000), 0); // the clock was corrected backwards
  assert.equal(warningPassed(5000, 4000), 0);
});

test("a page that slept past several warnings gives only the last one passed", () => {
  assert.equal(warningPassed(90000, 25000), 30);
  assert.equal(warningPassed(90000, 5000), 10);
  assert.equal(warningPassed(90000, -1000), 10);
});

// What the countdown shows ----------------------------------------------------------------

const ROUND = { number: 7, starts_at: 3000, ends_at: 33000, grace_ms: 400 };

test("before the start the countdown counts the seconds to go and shows the round's length", () => {
  assert.deepEqual(countdownFrame(ROUND, 0), { phase: "countdown", seconds: 3, text: "0:30", fraction: 1, mood: "" });
  assert.equal(countdownFrame(ROUND, 1500).seconds, 2);
  assert.equal(countdownFrame(ROUND, 2999).seconds, 1);
});

test("during play the countdown shows the time left and the bar's share of the round", () => {
  assert.deepEqual(countdownFrame(ROUND, 3000), { phase: "playing", text: "0:30", fraction: 1, mood: "", left: 30000 });
  const half = countdownFrame(ROUND, 18000);
  assert.equal(half.text, "0:15");
  assert.equal(half.fraction, 0.5);
});

test("the last ten seconds are urgent", () => {
  assert.equal(countdownFrame(ROUND, 22999).mood, "");
  assert.equal(countdownFrame(ROUND, 23000).mood, "urgent");
  assert.equal(countdownFrame(ROUND, 32999).mood, "urgent");
  assert.equal(countdownFrame(ROUND, 32999).text, "0:01");
});

test("the countdown at zero is over time: 0:00 and an empty bar", () => {
  assert.deepEqual(countdownFrame(ROUND, 33000), { phase: "overtime", text: "0:00", fraction: 0, mood: "over" });
  assert.equal(countdownFrame(ROUND, 99000).phase, "overtime");
});

test("an untimed round counts up the time played and is never over by the clock", () => {
  const untimed = { number: 1, starts_at: 1000, ends_at: null, grace_ms: 0 };
  assert.deepEqual(countdownFrame(untimed, 0), { phase: "countdown", seconds: 1, text: "0:00", fraction: 1, mood: "" });
  assert.deepEqual(countdownFrame(untimed, 66000), { phase: "playing", text: "1:05", fraction: 0, mood: "untimed" });
  assert.equal(countdownFrame(untimed, 10_000_000).phase, "playing");
});

test("the page asks to end the round only once the server's grace is surely over", () => {
  // ends at 33,000 with 400 ms of grace: asked from 33,500 on (100 ms of margin).
  assert.equal(mayAskEnd(ROUND, 33000, 0), false);
  assert.equal(mayAskEnd(ROUND, 33499, 0), false);
  assert.equal(mayAskEnd(ROUND, 33500, 0), true);
});

test("having asked, the page asks again only every two seconds", () => {
  assert.equal(mayAskEnd(ROUND, 35499, 33500), false);
  assert.equal(mayAskEnd(ROUND, 35500, 33500), true);
});

// The countdown on a timer element --------------------------------------------------------

test("the countdown reports its phases once each and only asks the server to end", () => {
  const { countdown, phases, asked, at } = countdownAt();
  countdown.run(ROUND);
  const shown = [0, 1500, 3000, 20000, 23500, 33000, 33600, 34000, 35700].map(at);
  countdown.stop();
  assert.deepEqual(phases, ["countdown 3", "countdown 2", "playing", "overtime"]);
  assert.deepEqual(shown, ["0:30", "0:30", "0:30", "0:13", "0:10 urgent", "0:00", "0:00", "0:00", "0:00"]);
  // Half a second after zero it asks the server, then every two seconds: it never decides.
  assert.deepEqual(asked, [[7, 33600], [7, 35700]]);
});

test("the countdown asks only after the grace the server sends", () => {
  const { countdown, asked, at } = countdownAt();
  countdown.run({ number: 2, starts_at: 0, ends_at: 10000, grace_ms: 3000 });
  [10600, 12000, 13000, 13200].forEach(at);
  countdown.stop();
  assert.deepEqual(asked, [[2, 13200]]); // not at 10,600 ms: the round is not due before 13,000
});

test("each warning is given once when the time left passes it, even over a reconnect", () => {
  const { countdown, warned, at } = countdownAt();
  // A 60-second round: no warning at its start, though a minute is left then.
  const round = { number: 4, starts_at: 0, ends_at: 60000, grace_ms: 0 };
  countdown.run(round);
  [0, 10000, 29000, 31000, 40000].forEach(at);
  // A snapshot after a reconnect runs the same round again: nothing is said twice, not even
  // when the page's clock is corrected backwards and passes it again.
  countdown.run({ ...round });
  [25000, 32000, 52000, 55000].forEach(at);
  // The next round watches afresh; a page that slept past two warnings gives the last.
  countdown.run({ number: 5, starts_at: 100000, ends_at: 190000, grace_ms: 0 });
  [100000, 165000, 185000].forEach(at);
  countdown.stop();
  assert.deepEqual(warned, [[30, 31000], [10, 52000], [30, 165000], [10, 185000]]);
});

test("the timer element carries the phase, the mood and the bar's width", () => {
  const { countdown, timer, at } = countdownAt();
  countdown.run(ROUND);
  at(0);
  assert.equal(timer.el.dataset.state, "countdown");
  assert.equal(timer.bar.style.transform, "scaleX(1)");
  at(18000);
  assert.equal(timer.el.dataset.state, "playing");
  assert.equal(timer.bar.style.transform, "scaleX(0.5)");
  at(30000);
  assert.ok(timer.classes.has("urgent"));
  at(40000);
  assert.equal(timer.el.dataset.state, "overtime");
  assert.ok(timer.classes.has("over") && !timer.classes.has("urgent"));
  assert.equal(timer.bar.style.transform, "scaleX(0)");
});

test("a stopped countdown shows its label, an empty bar, and draws no more", () => {
  const { countdown, timer, phases, asked, at } = countdownAt();
  countdown.run(ROUND);
  at(40000);
  countdown.stop("0:00");
  assert.equal(timer.text.textContent, "0:00");
  assert.equal(timer.el.dataset.state, "idle");
  assert.equal(timer.bar.style.transform, "scaleX(0)");
  assert.ok(!timer.classes.has("over"));
  const before = [phases.length, asked.length];
  at(90000);
  assert.deepEqual([phases.length, asked.length], before);
});

test("an untimed round's countdown never asks the server to end it", () => {
  const { countdown, asked, timer, at } = countdownAt();
  countdown.run({ number: 3, starts_at: 0, ends_at: null, grace_ms: 0 });
  assert.equal(at(125000), "2:05");
  assert.ok(timer.classes.has("untimed"));
  assert.deepEqual(asked, []);
});
