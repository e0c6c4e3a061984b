// The room's chat: lines shown as text (never as HTML), a box to write in when the chat is
// open to this player, and the reason when it is not.

import { h } from "./dom.js";

const MAX_CHARS = 300; // games.protocol.CHAT_MAX_CHARS
const MAX_LINES = 200; // kept on the page; the server keeps the room's whole chat
const NEAR_BOTTOM_PX = 40; // a reader this close to the end follows new lines

export class Chat {
  /** root holds the log, the status line and the form; send(message) sends a chat frame. */
  constructor(root, send) {
    this.root = root;
    this.log = root.querySelector("[data-chat-log]");
    this.status = root.querySelector("[data-chat-status]");
    this.form = root.querySelector("[data-chat-form]");
    this.input = this.form.querySelector("input");
    this.button = this.form.querySelector("button");
    this.send = send;
    this.me = null;
    this.ids = new Set();
    this.draft = ""; // the last line sent, given back if the server refuses it
    this.reason = "";
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
  }

  submit() {
    const text = this.input.value.trim();
    if (!text || this.input.disabled) return;
    if (text.length > MAX_CHARS) {
      this.say(`A chat message has at most ${MAX_CHARS} characters.`, "no");
      return;
    }
    this.draft = text;
    this.input.value = "";
    if (this.status.dataset.tone === "no") this.say(this.reason); // an earlier refusal's note goes
    this.send({ type: "chat", text });
  }

  /** Show these lines (a snapshot's), oldest first, in place of what was shown. */
  reset(messages, me) {
    this.me = me;
    this.ids.clear();
    this.log.replaceChildren();
    this.addAll(messages || []);
  }

  /** Add lines (a snapshot's continuation, or one new line), skipping any already shown. */
  addAll(messages) {
    const follow = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < NEAR_BOTTOM_PX;
    for (const m of messages) {
      if (!m || this.ids.has(m.id)) continue;
      this.ids.add(m.id);
      this.log.append(this.line(m));
    }
    while (this.log.children.length > MAX_LINES) {
      this.ids.delete(Number(this.log.firstElementChild.dataset.id));
      this.log.firstElementChild.remove();
    }
    if (follow) this.log.scrollTop = this.log.scrollHeight;
    this.root.querySelector("[data-chat-empty]").hidden = this.ids.size > 0;
  }

  line(m) {
    const mine = m.player_id !== null && m.player_id === this.me;
    const time = new Date(m.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return h("p", { class: `chat-line${mine ? " me" : ""}`, "data-testid": "chat-line", "data-id": m.id, title: time },
      h("span", { class: "chat-name" }, m.nickname),
      h("span", { class: "chat-text" }, m.text), // a text node: markup in it shows as typed
    );
  }

  /** Take lines an admin deleted off the page. */
  remove(ids) {
    for (const id of ids) {
      this.ids.delete(id);
      this.log.querySelector(`[data-id="${Number(id)}"]`)?.remove();
    }
    this.root.querySelector("[data-chat-empty]").hidden = this.ids.size > 0;
  }

  /** Open the box to write in, or close it saying why (`reason`, empty when open). */
  draw({ reason, watching }) {
    this.form.hidden = watching;
    const closed = !!reason;
    this.input.disabled = closed;
    this.button.disabled = closed;
    if (reason !== this.reason) this.say(reason);
    this.reason = reason;
  }

  /** The server refused the last line: say why, and give it back to edit unless the player
   * has started another. */
  refused(text) {
    if (!this.input.value && !this.input.disabled) this.input.value = this.draft;
    this.say(text, "no");
  }

  say(text, tone = "") {
    this.status.textContent = text;
    this.status.dataset.tone = tone;
  }
}
