// Building DOM nodes from data. Text always goes in as text nodes, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Return a new HTML element: h("li", {class: "x", dataset: {word: "TEA"}}, "TEA"). */
export function h(tag, props, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** Return a new SVG element with the given attributes. */
export function svg(tag, props, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

/** Replace an element's children with the given nodes. */
export function replaceChildren(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** Return the element matching a selector inside root, or throw: a missing hook is a bug. */
export function $(root, selector) {
  const found = root.querySelector(selector);
  if (!found) throw new Error(`missing element ${selector}`);
  return found;
}

/** Return the data parsed from a json_script element. */
export function readJson(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

/** Return whether a key press is a plain letter typed into nothing in particular. */
export function isLetterKey(event) {
  return event.key.length === 1 && /\p{L}/u.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/** Return whether an element takes text input itself. */
export function isEditable(el) {
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}
