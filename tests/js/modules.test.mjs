// The rule that lets this folder test the browser's logic at all: every module of static/js
// but the pages' own scripts imports without a page (no document or window when it loads),
// and none of them uses what only Node has.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const JS = join(ROOT, "static/js");
const modules = readdirSync(JS).filter((name) => name.endsWith(".js")).sort();

/** The scripts the templates load as pages: they draw their page as they load. */
function pageScripts() {
  const pages = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".html")) {
        for (const [, name] of readFileSync(path, "utf8").matchAll(/\{% module_script "js\/(\w+\.js)" %\}/g)) pages.add(name);
      }
    }
  };
  walk(join(ROOT, "templates"));
  return pages;
}

test("the pages' own scripts are the ones the templates load", () => {
  const pages = pageScripts();
  assert.ok(pages.has("room.js") && pages.has("arena.js"), [...pages].join(", "));
  for (const name of pages) assert.ok(modules.includes(name), `${name} is in static/js`);
});

test("every other module imports without a page: nothing touches document or window as it loads", async () => {
  assert.equal(typeof document, "undefined");
  assert.equal(typeof window, "undefined");
  const pages = pageScripts();
  const library = modules.filter((name) => !pages.has(name));
  assert.ok(library.length >= 15);
  for (const name of library) {
    await assert.doesNotReject(import(join(JS, name)), `${name} imports in Node`);
  }
});

test("no module of static/js uses what only Node has", () => {
  for (const name of modules) {
    const source = readFileSync(join(JS, name), "utf8");
    assert.doesNotMatch(source, /from\s+["']node:|\brequire\(|\bprocess\.|\bBuffer\b|__dirname|import\.meta\.(?:dirname|filename)/, name);
    for (const [, target] of source.matchAll(/from\s+"([^"]+)"/g)) {
      assert.match(target, /^\.\/\w+\.js$/, `${name} imports its neighbours by relative path (${target})`);
    }
  }
});
