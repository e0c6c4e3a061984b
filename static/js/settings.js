// The settings fields (templates/games/_settings_fields.html) on the home page and in the room.

const CUSTOM_ONLY = ["dice", "rows", "cols", "min_length", "scoring", "adjacency"];
const NUMBERS = ["rows", "cols", "min_length", "duration"];
const MIN_WORDS = "words"; // the richness choice that asks for a number of words

function field(form, name) {
  return form.elements.namedItem(name);
}

/** Return the settings the fields show, as update_settings takes them. */
export function readSettings(form) {
  const settings = {};
  for (const name of ["preset", "dictionary", "duration", "duplicates", ...CUSTOM_ONLY]) {
    const el = field(form, name);
    if (!el) continue;
    settings[name] = NUMBERS.includes(name) ? Number(el.value) : el.value;
  }
  const hints = field(form, "hints");
  if (hints) {
    settings.hints = hints.checked;
    settings.hint_cost = Math.max(0, Math.round(Number(field(form, "hint_cost").value) || 0));
  }
  const chat = field(form, "chat_in_rounds");
  if (chat) settings.chat_in_rounds = chat.checked;
  const richness = field(form, "richness");
  if (richness) {
    const words = richness.value === MIN_WORDS;
    settings.band = words ? "" : richness.value;
    settings.min_words = words ? Math.max(1, Number(field(form, "min_words").value) || 1) : 0;
  }
  return settings;
}

/** Show the words field only for "at least some words", and the chosen richness explained. */
function richnessFields(form) {
  const richness = field(form, "richness");
  if (!richness) return;
  const option = richness.selectedOptions[0];
  field(form, "min_words").hidden = richness.value !== MIN_WORDS;
  const explain = form.querySelector("[data-richness-explain]");
  if (explain && option) explain.textContent = option.dataset.explain || "";
}

/** Show settings in the fields (adding a round length the list lacks). */
export function fillSettings(form, settings) {
  const duration = field(form, "duration");
  if (duration && ![...duration.options].some((o) => Number(o.value) === settings.duration)) {
    duration.add(new Option(`${settings.duration} s`, String(settings.duration)));
  }
  for (const [name, value] of Object.entries(settings)) {
    const el = field(form, name);
    if (!el || name === "min_words") continue;
    if (el.type === "checkbox") el.checked = !!value;
    else el.value = String(value);
  }
  const richness = field(form, "richness");
  if (richness) {
    richness.value = settings.band || (settings.min_words ? MIN_WORDS : "");
    if (settings.min_words) field(form, "min_words").value = String(settings.min_words);
  }
  sizeFields(form);
  richnessFields(form);
  hintFields(form);
}

/** Let the host set a hint's cost only while hints are on. */
function hintFields(form) {
  const hints = field(form, "hints");
  if (hints) field(form, "hint_cost").disabled = !hints.checked || form.dataset.locked === "true";
}

/** Enable the board size only for letter-frequency sets (dice sets bring their own size). */
function sizeFields(form) {
  const dice = field(form, "dice");
  if (!dice) return;
  const option = dice.selectedOptions[0];
  const letters = !!option && option.hasAttribute("data-letters");
  for (const name of ["rows", "cols"]) {
    const el = field(form, name);
    el.disabled = !letters || form.dataset.locked === "true";
    if (!letters && option) el.value = option.dataset[name];
  }
}

/**
 * Keep the fields consistent as they are edited: a preset fills in its board and rules;
 * changing a board or rule field makes the game Custom. onChange(settings) after each edit.
 */
export function bindSettings(form, presets, onChange = () => {}) {
  const preset = field(form, "preset");
  form.addEventListener("change", (event) => {
    const name = event.target.name;
    if (name === "preset" && presets[preset.value]) {
      const chosen = presets[preset.value];
      for (const key of CUSTOM_ONLY) if (field(form, key)) field(form, key).value = String(chosen[key]);
    } else if (CUSTOM_ONLY.includes(name)) {
      preset.value = "custom";
    }
    sizeFields(form);
    richnessFields(form);
    hintFields(form);
    if (name === "richness" && event.target.value === MIN_WORDS) {
      field(form, "min_words").focus(); // sent once the host says how many
      return;
    }
    onChange(readSettings(form));
  });
  sizeFields(form);
  richnessFields(form);
  hintFields(form);
}

/** Return option text for a value of a select in the form (for the summary). */
function label(form, name, value) {
  const el = field(form, name);
  const option = el && [...el.options].find((o) => o.value === String(value));
  return option ? option.textContent.trim() : String(value);
}

/** Return the settings as short lines for everyone to read: [term, description]; the chat's
 * only where the form offers it (a solo room has no chat). */
export function describeSettings(form, settings, presetNames) {
  const size = `${settings.rows}×${settings.cols}`;
  const lines = [
    ["Game", presetNames[settings.preset] || "Custom"],
    ["Board", `${size}, ${label(form, "dice", settings.dice).replace(/ \(\d+×\d+\)$/, "")}`],
    ["Words", `${settings.min_length}+ letters, ${settings.adjacency === "rook" ? "4" : "8"} neighbours`],
    ["Round", label(form, "duration", settings.duration)],
    ["Scoring", `${settings.scoring === "linear" ? "Linear" : "Classic"}; ${settings.duplicates === "cancel" ? "shared words cancel" : "every word counts"}`],
    ["Dictionary", label(form, "dictionary", settings.dictionary)],
    ["Richness", describeRichness(form, settings)],
    ["Hints", describeHints(settings)],
  ];
  if (field(form, "chat_in_rounds")) lines.push(["Chat", settings.chat_in_rounds ? "Open during rounds too" : "Between rounds only"]);
  return lines;
}

/** Return what hints cost, or that there are none ("Off" for settings saved before hints). */
export function describeHints(settings) {
  if (!settings.hints) return "Off";
  const cost = settings.hint_cost ?? 1;
  return cost ? `On: ${cost} point${cost === 1 ? "" : "s"} per hint` : "On: free";
}

function describeRichness(form, settings) {
  if (settings.band) return label(form, "richness", settings.band);
  if (settings.min_words) return `At least ${settings.min_words} words`;
  return "Any board";
}

/** Lock or unlock every field (between rounds the host may edit; never during one). */
export function lockSettings(form, locked) {
  form.dataset.locked = String(locked);
  for (const el of form.elements) el.disabled = locked;
  if (!locked) {
    sizeFields(form);
    hintFields(form);
  }
}
