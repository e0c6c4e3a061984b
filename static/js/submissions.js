// Words sent to the server: each has a client id, is kept until the server answers, and is
// sent again with the same id after a reconnect (the server counts a retry only once).

let counter = 0;
const RESEND_SPACING_MS = 150; // between words sent again, so a long queue stays under the rate limit

/** Return a word's client id: its round, the tab's random tag, the time (ms) and a counter,
 * so that no two submissions of one browser share one. */
export function clientId(round, tab, time, n) {
  return `r${round}-${tab}-${time.toString(36)}-${n}`;
}

/** Return the submit frame for a pending item ({word} or {path}) under its client id. */
export function submitMessage(id, item) {
  const message = { type: "submit", client_id: id };
  if (item.word) message.word = item.word;
  else message.path = item.path;
  return message;
}

/** Return what a resend for `round` does with the pending items (id -> {round, ...}): the ids
 * to send again, each with its delay (ms, spaced out), and the other rounds' ids to forget. */
export function resendPlan(pending, round, spacing = RESEND_SPACING_MS) {
  const send = [];
  const forget = [];
  for (const [id, item] of pending) {
    if (item.round !== round) forget.push(id);
    else send.push([id, send.length * spacing]);
  }
  return { send, forget };
}

export class Submissions {
  /** send(message) returns whether it went out; storageKey keeps pending words over reloads. */
  constructor(send, storageKey) {
    this.send = send;
    this.key = storageKey;
    this.pending = new Map(); // client_id -> {round, word, path, shown}
    this.tab = Math.random().toString(36).slice(2, 8);
    try {
      for (const [id, item] of JSON.parse(sessionStorage.getItem(this.key) || "[]")) this.pending.set(id, item);
    } catch {
      this.pending.clear();
    }
  }

  /** Send a word or path for a round; return whether it left now (else it waits). */
  submit(round, { word, path }, shown) {
    counter += 1;
    const id = clientId(round, this.tab, Date.now(), counter);
    const item = { round, shown, ...(word ? { word } : { path }) };
    this.pending.set(id, item);
    this.save();
    return this.transmit(id, item);
  }

  transmit(id, item) {
    return this.send(submitMessage(id, item));
  }

  /** Send again every word of this round not yet answered; forget other rounds'. */
  resend(round) {
    const { send, forget } = resendPlan(this.pending, round);
    for (const id of forget) this.pending.delete(id);
    for (const [id, delay] of send) {
      const item = this.pending.get(id);
      // Spaced out, so a long queue stays under the server's rate limit.
      setTimeout(() => this.pending.has(id) && this.transmit(id, item), delay);
    }
    this.save();
  }

  /** Return the pending item a submit_result answers (and forget it), or null. */
  answered(clientId) {
    const item = this.pending.get(clientId) || null;
    this.pending.delete(clientId);
    this.save();
    return item;
  }

  get waiting() {
    return this.pending.size;
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify([...this.pending]));
    } catch {
      // Private mode or a full store: pending words still live in memory.
    }
  }
}
