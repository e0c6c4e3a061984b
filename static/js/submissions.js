// Words sent to the server: each has a client id, is kept until the server answers, and is
// sent again with the same id after a reconnect (the server counts a retry only once).

let counter = 0;

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
    const id = `r${round}-${this.tab}-${Date.now().toString(36)}-${counter}`;
    const item = { round, shown, ...(word ? { word } : { path }) };
    this.pending.set(id, item);
    this.save();
    return this.transmit(id, item);
  }

  transmit(id, item) {
    const message = { type: "submit", client_id: id };
    if (item.word) message.word = item.word;
    else message.path = item.path;
    return this.send(message);
  }

  /** Send again every word of this round not yet answered; forget other rounds'. */
  resend(round) {
    let delay = 0;
    for (const [id, item] of this.pending) {
      if (item.round !== round) {
        this.pending.delete(id);
        continue;
      }
      // Spaced out, so a long queue stays under the server's rate limit.
      setTimeout(() => this.pending.has(id) && this.transmit(id, item), delay);
      delay += 150;
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
