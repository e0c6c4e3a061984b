// Keep the screen on during a round, where the browser allows it (the Screen Wake Lock API).

let wanted = false;
let lock = null;

async function acquire() {
  if (!wanted || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => {
      lock = null;
    });
  } catch {
    lock = null; // refused (battery saver, no permission): the game works without it
  }
}

let listening = false;

/** Ask to keep the screen awake (true) or let it sleep again (false). */
export function keepAwake(on) {
  wanted = on;
  if (!listening) {
    // The browser releases the lock when the tab is hidden; take it again when it is shown.
    // Listened for from the first call, not on import, so the module imports without a page.
    document.addEventListener("visibilitychange", acquire);
    listening = true;
  }
  if (on) acquire();
  else if (lock) lock.release().catch(() => {});
}
