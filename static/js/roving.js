// One Tab stop per list of words: the arrow keys move between its words (a roving tabindex,
// as the board does with its dice), Home and End go to the first and the last.

/** Return whether an item is shown (its list item is not hidden by a filter). */
function shown(item) {
  return !item.closest("[hidden]");
}

function centreX(rect) {
  return rect.left + rect.width / 2;
}

/** Return the index of the item in the next (direction 1) or previous (-1) visual row of a
 * wrapped list nearest item `at`'s centre, from the items' rects ({left, width, top,
 * bottom}, in order); -1 from the last (first) row. */
export function nearestInNextRow(rects, at, direction) {
  const here = rects[at];
  let best = -1;
  let bestRow = null;
  let bestDistance = Infinity;
  for (let i = at + direction; i >= 0 && i < rects.length; i += direction) {
    const rect = rects[i];
    const beyond = direction > 0 ? rect.top >= here.bottom - 1 : rect.bottom <= here.top + 1;
    if (!beyond) continue;
    if (bestRow !== null && Math.abs(rect.top - bestRow) > 1) break; // past the nearest row
    bestRow = rect.top;
    const distance = Math.abs(centreX(rect) - centreX(here));
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

export class RovingList {
  /** Make the buttons matching `selector` inside `list` one Tab stop. */
  constructor(list, selector = "button") {
    this.list = list;
    this.selector = selector;
    this.current = null;
    list.addEventListener("keydown", (e) => this.key(e));
    list.addEventListener("focusin", (e) => {
      const item = e.target.closest(this.selector);
      if (item && list.contains(item)) this.take(item);
    });
    this.refresh();
  }

  /** The items a key may move to, in document order. */
  items() {
    return [...this.list.querySelectorAll(this.selector)].filter(shown);
  }

  /** Keep exactly one shown item in the tab order: the current one, else the first. Call it
   * after a filter hid or showed items, or after they were reordered. */
  refresh() {
    const items = this.items();
    const keep = items.includes(this.current) ? this.current : items[0] || null;
    this.take(keep);
  }

  take(item) {
    for (const el of this.list.querySelectorAll(this.selector)) el.tabIndex = el === item ? 0 : -1;
    this.current = item;
  }

  move(item) {
    if (!item) return;
    this.take(item);
    item.focus();
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const items = this.items();
    const at = items.indexOf(event.target.closest(this.selector));
    if (at < 0) return;
    const moves = {
      ArrowRight: () => items[at + 1],
      ArrowLeft: () => items[at - 1],
      ArrowDown: () => this.row(items, at, 1),
      ArrowUp: () => this.row(items, at, -1),
      Home: () => items[0],
      End: () => items[items.length - 1],
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.move(moves[event.key]());
  }

  /** The word in the next (or previous) visual row of the wrapped list nearest the current
   * one's centre; none (the focus stays) from the last (first) row. */
  row(items, at, direction) {
    const best = nearestInNextRow(items.map((item) => item.getBoundingClientRect()), at, direction);
    return best < 0 ? null : items[best];
  }
}
