// The key-press checks of static/js/dom.js: which key presses are letters typed into the
// page, and which elements take text themselves.
import { test } from "node:test";
import assert from "node:assert/strict";

import { isEditable, isLetterKey } from "../../static/js/dom.js";

const key = (k, mods = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

test("a letter key is a letter typed, in any alphabet and either case", () => {
  for (const k of ["a", "Z", "é", "ß", "ж"]) assert.equal(isLetterKey(key(k)), true, k);
});

test("digits, punctuation, space and named keys are not letters typed", () => {
  for (const k of ["1", "-", " ", "Enter", "Backspace", "ArrowUp", "Shift"]) assert.equal(isLetterKey(key(k)), false, k);
});

test("a letter with Ctrl, Cmd or Alt is a shortcut, not a letter typed", () => {
  assert.equal(isLetterKey(key("c", { ctrlKey: true })), false);
  assert.equal(isLetterKey(key("v", { metaKey: true })), false);
  assert.equal(isLetterKey(key("a", { altKey: true })), false);
});

test("inputs, text areas, selects and editable content take text themselves", () => {
  for (const tagName of ["INPUT", "TEXTAREA", "SELECT"]) assert.equal(isEditable({ tagName }), true, tagName);
  assert.equal(isEditable({ tagName: "DIV", isContentEditable: true }), true);
});

test("buttons, the body and no element at all take no text", () => {
  assert.equal(isEditable({ tagName: "BUTTON" }), false);
  assert.equal(isEditable({ tagName: "BODY", isContentEditable: false }), false);
  assert.equal(isEditable(null), false);
  assert.equal(isEditable(undefined), false);
});
