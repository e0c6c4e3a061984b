// Word reports in the results: the words the server refused you, and a report on any word of
// the round ("this should not count" for a word the round accepted, "this is a word" for one
// refused as not in the dictionary), with what the admin decided. Over HTTP beside the
// results (GET and POST data.reportsUrl, docs/protocol.md); the admin's queue is in /admin/.
// Results (results.js) calls show() after drawing and clear() before other results; this finds
// the words it drew by `.word-chip[data-word]`, those of the round's solution by `data-path`.

import { h, replaceChildren } from "./dom.js";

const SHOULD_NOT_COUNT = "should_not_count";
const IS_A_WORD = "is_a_word";
const KIND_TEXT = {
  [SHOULD_NOT_COUNT]: "This should not count: it is not a word, or not one for this game.",
  [IS_A_WORD]: "This is a word: the dictionary should have it.",
};
const KIND_SHORT = { [SHOULD_NOT_COUNT]: "should not count", [IS_A_WORD]: "is a word" };
// The few words a chip can hold; the list under "Your reports" says it in full.
const OUTCOME_SHORT = { pending: "reported", removed: "removed", added: "added", dismissed: "dismissed" };

function pageData() {
  const el = document.getElementById("room-data");
  return el ? JSON.parse(el.textContent) : {};
}

async function answerOf(response) {
  const body = await response.json().catch(() => ({}));
  if (response.ok) return body;
  throw new Error(body.message || `The server answered ${response.status}.`);
}

export class Reports {
  /** Reports for the results drawn in `root` (Results calls show and clear). */
  constructor(root, data = pageData()) {
    Object.assign(this, { root, url: data.reportsUrl || null, csrfToken: data.csrfToken || "" });
    this.number = null; // the round whose results are shown
    this.mine = null; // what the server said: { refused, reports, reason_max }
    this.chip = null; // the word chip the report button and form are for
    this.opener = h("button", { type: "button", class: "small report-open", "data-testid": "report-open" }, "Report");
    this.opener.addEventListener("click", () => this.openForm());
    this.dialog = this.buildDialog();
    root.addEventListener("click", (e) => this.picked(e.target));
  }

  /** The results of `results.round.number` were drawn: fetch and draw the player's reports. */
  show(results) {
    this.number = results.round.number;
    this.mine = null;
    this.section = h("section", { class: "reports", "aria-labelledby": "reports-title", "data-testid": "reports" },
      h("h3", { id: "reports-title" }, "Refused words and reports"),
      h("p", { class: "hint", role: "status" }, "Loading…"),
    );
    // Last, after every word: it arrives in its own request, and drawn above the word list
    // it would move the filters and words under a player's finger as it came.
    this.root.append(this.section);
    if (!this.url) return this.section.remove();
    this.load(this.number);
  }

  /** Other results (or none) are coming: forget these. */
  clear() {
    this.number = null;
    this.mine = null;
    this.chip = null;
    if (this.dialog.open) this.dialog.close();
  }

  async load(number) {
    try {
      const response = await fetch(`${this.url}?round=${number}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const mine = await answerOf(response);
      if (this.number === number) this.draw(mine);
    } catch (error) {
      if (this.number !== number) return;
      replaceChildren(this.section, this.section.firstChild,
        h("p", { class: "results-error", "data-testid": "reports-error" }, `Your reports could not be loaded. ${error.message}`));
    }
  }

  /** Draw the player's refused words and reports, and mark every reported word's chips. */
  draw(mine) {
    this.mine = mine;
    const reported = new Map(mine.reports.map((r) => [r.word, r]));
    const refused = mine.refused.map((r) => h("li", {},
      h("button", { type: "button", class: "word-chip refused", "data-testid": "refused-word", "data-word": r.word, "data-reportable": String(r.reportable) },
        h("span", { class: "word" }, r.word), h("span", { class: "refusal" }, r.reason_text)),
    ));
    const reports = mine.reports.map((r) => h("li", { "data-testid": "my-report", "data-word": r.word, "data-outcome": r.outcome },
      h("strong", {}, r.word), ` (${KIND_SHORT[r.kind] || r.kind}${r.reason ? `: “${r.reason}”` : ""}): `,
      h("span", { class: `report-outcome outcome-${r.outcome}` }, r.outcome_text),
    ));
    replaceChildren(this.section, this.section.firstChild,
      h("p", { class: "hint" }, "Tap a word, then Report, to say it should not count, or that a word refused to you as not in the dictionary is one. Reports change later rounds, never this one."),
      h("h4", {}, "Words refused to you"),
      refused.length ? h("ul", { class: "chips" }, refused) : h("p", { class: "hint" }, "None this round."),
      reports.length ? h("h4", {}, "Your reports") : null,
      reports.length ? h("ul", { class: "my-reports" }, reports) : null,
    );
    this.root.querySelectorAll("[data-testid=report-state]").forEach((el) => el.remove());
    for (const chip of this.root.querySelectorAll(".word-chip[data-word]")) {
      const r = reported.get(chip.dataset.word);
      if (r) chip.after(h("span", { class: `report-state outcome-${r.outcome}`, "data-testid": "report-state", title: r.outcome_text },
        `⚑ ${OUTCOME_SHORT[r.outcome] || r.outcome}`, h("span", { class: "visually-hidden" }, `: ${r.outcome_text}`)));
    }
    if (this.chip && reported.has(this.chip.dataset.word)) this.opener.remove();
  }

  /** A word was tapped: offer to report it (unless it is reported or cannot be). */
  picked(target) {
    const chip = target && target.closest ? target.closest(".word-chip[data-word]") : null;
    if (!chip || !this.mine || !this.root.contains(chip)) return;
    const kind = this.kindOf(chip);
    if (!kind || this.mine.reports.some((r) => r.word === chip.dataset.word)) {
      this.opener.remove();
      return;
    }
    this.chip = chip;
    this.opener.setAttribute("aria-label", `Report ${chip.dataset.word}`);
    chip.after(this.opener);
  }

  /** What a report on this chip's word says, or null when it cannot be reported. */
  kindOf(chip) {
    if (chip.classList.contains("refused")) return chip.dataset.reportable === "true" ? IS_A_WORD : null;
    return chip.dataset.path ? SHOULD_NOT_COUNT : null;
  }

  buildDialog() {
    this.reason = h("input", { id: "report-reason", name: "reason", type: "text", maxlength: "200", autocomplete: "off", "data-testid": "report-reason" });
    this.kindNote = h("p", { "data-testid": "report-kind" });
    this.heading = h("h3", { id: "report-title" });
    this.error = h("p", { class: "results-error", role: "alert", "data-testid": "report-error" });
    this.send = h("button", { type: "submit", class: "primary", "data-testid": "report-send" }, "Send the report");
    const cancel = h("button", { type: "button", class: "quiet" }, "Cancel");
    cancel.addEventListener("click", () => this.dialog.close());
    const form = h("form", { method: "dialog" },
      this.heading, this.kindNote,
      h("label", { for: "report-reason" }, "Why? ", h("span", { class: "hint" }, "(optional)")),
      this.reason, this.error,
      h("p", { class: "report-buttons" }, this.send, cancel),
    );
    form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    const dialog = h("dialog", { class: "report-dialog", "aria-labelledby": "report-title", "data-testid": "report-dialog" }, form);
    dialog.addEventListener("close", () => { if (this.chip && this.root.contains(this.chip)) this.chip.focus(); });
    document.body.append(dialog);
    return dialog;
  }

  openForm() {
    if (!this.chip) return;
    const kind = this.kindOf(this.chip);
    this.heading.textContent = `Report ${this.chip.dataset.word}`;
    this.kindNote.textContent = KIND_TEXT[kind];
    this.reason.value = "";
    this.reason.maxLength = this.mine.reason_max;
    this.error.textContent = "";
    this.send.disabled = false;
    this.dialog.showModal();
    this.reason.focus();
  }

  async submit() {
    const chip = this.chip;
    const number = this.number;
    this.send.disabled = true;
    this.error.textContent = "";
    try {
      const response = await fetch(this.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": this.csrfToken },
        body: JSON.stringify({ round: number, word: chip.dataset.word, kind: this.kindOf(chip), reason: this.reason.value }),
      });
      const mine = await answerOf(response);
      if (this.number !== number) return;
      this.dialog.close();
      this.draw(mine);
    } catch (error) {
      this.error.textContent = error.message;
      this.send.disabled = false;
    }
  }
}
