// A daily board's result page: copy the share text with one tap.

import { $ } from "./dom.js";

const button = $(document, "[data-copy-share]");
const shown = $(document, "[data-copied]");
const text = $(document, "[data-share-text]");

button.addEventListener("click", async () => {
  let copied = false;
  try {
    await navigator.clipboard.writeText(text.textContent);
    copied = true;
  } catch {
    // No clipboard access (an insecure page, or refused): select the text to copy by hand.
    const range = document.createRange();
    range.selectNodeContents(text);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
  shown.textContent = copied ? "Copied: paste it anywhere." : "Selected: copy it by hand.";
});
