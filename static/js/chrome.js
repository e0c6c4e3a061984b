// The parts around the game: the connection notice, the copy-link button, the settings list.

import { h, replaceChildren } from "./dom.js";
import { describeSettings } from "./settings.js";

const NOTICES = {
  connecting: "",
  open: "",
  reconnecting: "Connection lost. Reconnecting…",
  gone: "You are no longer in this room.",
};

/** Show how the link to the server is doing. */
export function showConnection(page, status) {
  const notice = page.querySelector("[data-connection]");
  notice.textContent = NOTICES[status] ?? "";
  notice.hidden = !notice.textContent;
  notice.dataset.status = status;
  document.documentElement.dataset.socket = status;
  if (status === "gone") {
    notice.append(" ", h("a", { href: location.pathname }, "Join again"));
  }
}

/** Copy the room's link, saying so on the button for a moment. */
export async function copyLink(button, link, announce) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    // No clipboard access (an insecure page, or refused): select the link to copy by hand.
    const anchor = document.querySelector("[data-room-link]");
    if (anchor) {
      const range = document.createRange();
      range.selectNodeContents(anchor);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      copied = document.execCommand && document.execCommand("copy");
    }
  }
  const text = copied ? "Link copied" : "Copy the selected link";
  button.textContent = text;
  announce(text);
  setTimeout(() => (button.textContent = "Copy link"), 2500);
}

/** List the settings for everyone to read. */
export function drawSettingsSummary(page, form, settings, presetNames) {
  const list = page.querySelector("[data-settings-summary]");
  replaceChildren(list, describeSettings(form, settings, presetNames).flatMap(([term, text]) => [h("dt", {}, term), h("dd", {}, text)]));
}
