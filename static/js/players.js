// The players in the room: who hosts, who is connected, how many words each has found.

import { h, replaceChildren } from "./dom.js";

/**
 * Draw the player list. state: {players: Map(id -> player), me, hostId, counts, playing}.
 * actions: {remove(id), makeHost(id), mute(id, muted)}, offered to the host for the other players.
 */
export function renderPlayers(list, state, actions) {
  const iAmHost = state.hostId === state.me;
  const items = [...state.players.values()].map((p) => {
    const count = state.counts[String(p.id)] || 0;
    const isHost = p.id === state.hostId;
    const isMe = p.id === state.me;
    const status = p.bot ? "computer" : p.connected ? "online" : "away";
    const item = h(
      "li",
      {
        class: `player ${status}${isMe ? " me" : ""}`,
        "data-testid": "player",
        "data-name": p.nickname,
        "data-count": count,
        "data-player-id": p.id,
      },
      h("span", { class: "presence", title: { online: "Connected", away: "Away", computer: "Computer player" }[status] }, h("span", { class: "visually-hidden" }, `${status}: `)),
      h("span", { class: "name" }, p.nickname),
      isMe ? h("span", { class: "tag you" }, "you") : null,
      p.bot ? h("span", { class: "tag bot", title: `Computer player, level ${p.bot}` }, `computer · ${p.bot}`) : null,
      isHost ? h("span", { class: "tag host", title: "Host: picks the settings and starts rounds" }, "host") : null,
      p.muted ? h("span", { class: "tag muted", title: "The host muted them in the chat" }, "muted") : null,
      h("span", { class: "stats" },
        state.playing ? h("span", { class: "count" }, `${count} word${count === 1 ? "" : "s"}`) : null,
        h("span", { class: "total", title: "Game total" }, `${p.total} pt${p.total === 1 ? "" : "s"}`),
      ),
    );
    if (iAmHost && !isMe) {
      item.append(
        h("span", { class: "host-actions" },
          p.bot ? null : button("Make host", `Make host: ${p.nickname}`, () => actions.makeHost(p.id)),
          p.bot ? null : button(p.muted ? "Unmute" : "Mute", `${p.muted ? "Unmute" : "Mute"} in the chat: ${p.nickname}`, () => actions.mute(p.id, !p.muted)),
          button("Remove", `Remove: ${p.nickname}`, () => actions.remove(p.id, p.nickname)),
        ),
      );
    }
    return item;
  });
  replaceChildren(list, items);
}

function button(text, label, onClick) {
  const el = h("button", { type: "button", class: "small quiet", "aria-label": label }, text);
  el.addEventListener("click", onClick);
  return el;
}
