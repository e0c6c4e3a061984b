// The room's websocket: reconnects with backoff and jitter, resumes from the last event seen,
// notices gaps in the event numbers, and keeps the connection alive with pings.

const PING_MS = 20_000;
const SILENCE_MS = 45_000; // nothing heard for this long: the socket is dead, open another
const MAX_DELAY_MS = 15_000;
const RESUME_WAIT_MS = 3000;

/**
 * Return how long to wait (ms) before the `attempt`th try to reconnect (1: the first after a
 * drop): exponential backoff with jitter, so a restarted server is not hit by everyone at
 * once. The ceiling doubles from 500 ms up to MAX_DELAY_MS; the wait is drawn between half of
 * it and all of it by `random` (Math.random's [0, 1)).
 */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, 500 * 2 ** Math.min(attempt - 1, 5));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Return what a numbered event `seq` is after the last one seen (`lastSeq`, null before
 * any snapshot): "seen" already, the "next" one to draw, or past a "gap" of missed ones. */
export function eventOrder(lastSeq, seq) {
  if (lastSeq !== null && seq <= lastSeq) return "seen";
  if (lastSeq !== null && seq > lastSeq + 1) return "gap";
  return "next";
}

export class RoomSocket {
  /**
   * path: "/ws/rooms/CODE/". onMessage(message) gets every frame in order (numbered events
   * exactly once); onStatus("connecting" | "open" | "reconnecting" | "gone") reports the link.
   * closeCodes: the server's close codes, as the page's data gives them (games/protocol.py).
   */
  constructor(path, { onMessage, onStatus, onSample, closeCodes }) {
    this.path = path;
    this.closeCodes = closeCodes;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onSample = onSample;
    this.ws = null;
    this.lastSeq = null;
    this.attempt = 0;
    this.retry = 0;
    this.heard = 0;
    this.resumedAt = 0;
    this.ahead = 0; // the highest event number seen but not yet drawn
    this.recheck = 0;
    this.stopped = false;
    setInterval(() => this.heartbeat(), PING_MS / 2);
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.lastSeq === null ? "" : `?last_seq=${this.lastSeq}`;
    const ws = new WebSocket(`${scheme}//${location.host}${this.path}${query}`);
    this.ws = ws;
    this.resumedAt = 0;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      this.heard = Date.now();
      this.onStatus("open");
    });
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => this.closed(ws, e.code));
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    if (code === this.closeCodes.notInRoom) {
      this.stopped = true;
      this.onStatus("gone");
      return;
    }
    this.attempt += 1;
    const delay = backoffDelay(this.attempt);
    this.onStatus("reconnecting");
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Try at once (the network came back, or the tab was shown again). */
  reconnectNow() {
    if (!this.ws && !this.stopped) this.connect();
  }

  /** Send a message now; return false if the socket is not open. */
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Drop the socket as if the network had (used when it has gone silent). */
  drop() {
    if (this.ws) this.ws.close();
    this.closed(this.ws, 1006);
  }

  receive(data) {
    this.heard = Date.now();
    this.attempt = 0; // the server answers: the next drop starts the backoff afresh
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    this.onSample(message.server_time);
    if (message.type === "snapshot") {
      this.lastSeq = message.seq;
      this.resumedAt = 0;
    } else if (message.type === "event") {
      const order = eventOrder(this.lastSeq, message.seq);
      if (order === "seen") return;
      if (order === "gap") {
        // Missed one: ask for everything after the last seen, in order (and again later if
        // that answer has not closed the gap).
        this.ahead = Math.max(this.ahead, message.seq);
        this.resume();
        clearTimeout(this.recheck);
        this.recheck = setTimeout(() => this.lastSeq < this.ahead && this.resume(), RESUME_WAIT_MS + 100);
        return;
      }
      this.lastSeq = message.seq;
      this.resumedAt = 0;
    }
    this.onMessage(message);
  }

  /** Ask for the events after the last one seen (the server may send a snapshot instead). */
  resume({ full = false } = {}) {
    if (!full && Date.now() - this.resumedAt < RESUME_WAIT_MS) return; // already asked
    this.resumedAt = Date.now();
    this.send({ type: "resume", last_seq: full ? null : this.lastSeq });
  }

  heartbeat() {
    if (!this.open) return;
    if (Date.now() - this.heard > SILENCE_MS) this.drop();
    else this.send({ type: "ping" });
  }
}
