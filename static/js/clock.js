// The round's clock as the server keeps it: the server's time estimated from the frames'
// server_time, and a countdown redrawn every frame that only ever asks the server to end.

const SAMPLES = 12;
const URGENT_MS = 10_000;
const ASK_AGAIN_MS = 2000;
const ASK_MARGIN_MS = 100; // asked this long after the server's grace, the round is surely due
// Time left (seconds) that the room says out loud, each at most once per round.
export const WARNINGS_S = [60, 30, 10];

/** The server's clock: offset = server_time - Date.now(), from the least delayed frame. */
export class ServerClock {
  /** `localNow`: this computer's clock in ms (Date.now, read at each call; tests pass their own). */
  constructor(localNow = () => Date.now()) {
    this.localNow = localNow;
    this.samples = [];
  }

  sample(serverTime) {
    if (typeof serverTime !== "number") return;
    this.samples.push(serverTime - this.localNow());
    if (this.samples.length > SAMPLES) this.samples.shift();
  }

  get offset() {
    // A frame is late by its travel time, never early: the largest offset is the truest.
    return this.samples.length ? Math.max(...this.samples) : 0;
  }

  now() {
    return this.localNow() + this.offset;
  }
}

/** Return milliseconds as a countdown reads them: "2:59", "0:07". */
export function formatRemaining(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Return milliseconds as words a screen reader says well: "1 minute 5 seconds". */
export function spokenRemaining(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const [m, s] = [Math.floor(seconds / 60), seconds % 60];
  const minutes = m ? `${m} minute${m === 1 ? "" : "s"}` : "";
  const rest = s || !m ? `${s} second${s === 1 ? "" : "s"}` : "";
  return [minutes, rest].filter(Boolean).join(" ");
}

/** Return the warning (seconds) that the time left passed on its way from `before` to `after`
 * milliseconds, the last one if it passed several at once (a page that slept), else 0. */
export function warningPassed(before, after) {
  let passed = 0;
  for (const seconds of WARNINGS_S) {
    if (before > seconds * 1000 && after <= seconds * 1000) passed = seconds;
  }
  return passed;
}

/**
 * Return what the countdown shows of `round` ({starts_at, ends_at: null when untimed}) at
 * server time `now`: {phase: "countdown" | "playing" | "overtime", seconds (to the start, in
 * the countdown), text, fraction (of the bar), mood: "" | "urgent" | "over" | "untimed", left
 * (ms, in a timed round's play)}.
 */
export function countdownFrame(round, now) {
  if (now < round.starts_at) {
    const text = round.ends_at ? formatRemaining(round.ends_at - round.starts_at) : "0:00";
    return { phase: "countdown", seconds: Math.ceil((round.starts_at - now) / 1000), text, fraction: 1, mood: "" };
  }
  if (round.ends_at === null) {
    return { phase: "playing", text: formatRemaining(now - round.starts_at), fraction: 0, mood: "untimed" };
  }
  if (now < round.ends_at) {
    const left = round.ends_at - now;
    const fraction = left / (round.ends_at - round.starts_at);
    return { phase: "playing", text: formatRemaining(left), fraction, mood: left <= URGENT_MS ? "urgent" : "", left };
  }
  return { phase: "overtime", text: "0:00", fraction: 0, mood: "over" };
}

/** Return whether a countdown past zero asks the server to end `round` at `now`, having last
 * asked at `asked` (0: never): only once the server's grace (round.grace_ms) is surely over,
 * and then every ASK_AGAIN_MS. The server alone decides that the round is over. */
export function mayAskEnd(round, now, asked) {
  return now - asked >= ASK_AGAIN_MS && now >= round.ends_at + round.grace_ms + ASK_MARGIN_MS;
}

/**
 * Draws a round's countdown into the timer element. Calls onPhase("countdown" | "playing"
 * | "overtime", secondsToStart) as the round moves on, onWarn(seconds) when the time left
 * passes one of WARNINGS_S while the page watches, and askEnd(roundNumber) at zero and
 * every few seconds after, until stopped: the server decides when the round is over.
 */
export class Countdown {
  constructor(el, clock, { onPhase, onWarn = () => {}, askEnd }) {
    this.el = el;
    this.text = el.querySelector("[data-timer-text]");
    this.bar = el.querySelector("[data-timer-bar]");
    this.clock = clock;
    this.onPhase = onPhase;
    this.onWarn = onWarn;
    this.askEnd = askEnd;
    this.round = null;
    this.frame = 0;
    this.phase = "";
    this.asked = 0;
    // The round whose warnings are watched: the time left at its last frame in play, and the
    // warnings said. Kept when the same round runs again (a snapshot after a reconnect), so
    // none is said twice; the page kept drawing frames while the socket was away.
    this.watch = { round: 0, left: null, said: new Set() };
  }

  run(round) {
    this.round = round;
    this.asked = 0;
    this.phase = "";
    if (this.watch.round !== round.number) this.watch = { round: round.number, left: null, said: new Set() };
    cancelAnimationFrame(this.frame);
    this.tick();
  }

  stop(label = "") {
    this.round = null;
    cancelAnimationFrame(this.frame);
    this.el.classList.remove("urgent", "over");
    this.text.textContent = label;
    this.bar.style.transform = "scaleX(0)";
    this.el.dataset.state = "idle";
  }

  tick() {
    const round = this.round;
    if (!round) return;
    const now = this.clock.now();
    const shown = countdownFrame(round, now);
    this.enter(shown.phase, shown.seconds);
    if (shown.left !== undefined) this.warn(shown.left);
    this.show(shown.text, shown.fraction, shown.mood);
    if (shown.phase === "overtime" && mayAskEnd(round, now, this.asked)) {
      this.asked = now;
      this.askEnd(round.number);
    }
    this.frame = requestAnimationFrame(() => this.tick());
  }

  warn(left) {
    const { watch } = this;
    const seconds = watch.left === null ? 0 : warningPassed(watch.left, left);
    watch.left = left;
    if (!seconds || watch.said.has(seconds)) return;
    watch.said.add(seconds);
    this.onWarn(seconds);
  }

  enter(phase, seconds) {
    const key = `${phase}${seconds ?? ""}`;
    if (key === this.phase) return;
    this.phase = key;
    this.el.dataset.state = phase;
    this.onPhase(phase, seconds);
  }

  show(text, fraction, mood = "") {
    if (this.text.textContent !== text) this.text.textContent = text;
    this.bar.style.transform = `scaleX(${Math.max(0, Math.min(1, fraction))})`;
    this.el.classList.toggle("urgent", mood === "urgent");
    this.el.classList.toggle("over", mood === "over");
    this.el.classList.toggle("untimed", mood === "untimed");
  }
}
