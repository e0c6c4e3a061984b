// The board search run page and the board proof page: ask the server for the run's progress
// once a second and show it (status, progress bar, best board so far, boards per second or
// classes done). When the run finishes, the page reloads once to show the boards it stored.
// Text is inserted as text only.
"use strict";

(function () {
  const POLL_EVERY_MS = 1000;
  const panel = document.getElementById("run");
  if (!panel || panel.dataset.finished === "true") {
    return;
  }
  const url = panel.dataset.progressUrl;

  // Counts that grow large are shown rounded, with thousands separators.
  const GROUPED = new Set(["boards", "boards_per_s", "done", "total", "open", "rate"]);

  function shown(name, value) {
    if (value === null || value === undefined || value === "") {
      return "–";
    }
    if (GROUPED.has(name) && typeof value === "number") {
      return Math.round(value).toLocaleString("en-US");
    }
    if (name === "elapsed" && typeof value === "number") {
      return value.toFixed(1);
    }
    return String(value);
  }

  function drawBoard(grid) {
    const table = panel.querySelector(".board-run-best table");
    if (!table) {
      return;
    }
    const rows = grid.map(function (faces) {
      const tr = document.createElement("tr");
      faces.forEach(function (face) {
        const td = document.createElement("td");
        td.textContent = face;
        tr.appendChild(td);
      });
      return tr;
    });
    table.replaceChildren.apply(table, rows);
  }

  function show(report) {
    panel.querySelectorAll("[data-field]").forEach(function (element) {
      element.textContent = shown(element.dataset.field, report[element.dataset.field]);
    });
    const status = panel.querySelector(".board-status");
    status.className = "board-status board-status-" + (report.silent ? "silent" : report.status);
    panel.querySelector(".board-progress").value = report.fraction;
    panel.querySelector(".board-run-silent").hidden = !report.silent;
    const stop = panel.querySelector(".board-run-stop button");
    if (stop) {
      stop.textContent = report.silent
        ? "Mark as failed"
        : panel.dataset.stopLabel || "Stop the search";
    }
    drawBoard(report.grid);
  }

  async function poll() {
    let report = null;
    try {
      const response = await fetch(url, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
        cache: "no-store",
      });
      if (response.ok) {
        report = await response.json();
      }
    } catch (error) {
      report = null; // the server is unreachable for a moment: try again next second
    }
    if (report) {
      show(report);
      if (report.finished) {
        window.location.reload();
        return;
      }
    }
    window.setTimeout(poll, POLL_EVERY_MS);
  }

  window.setTimeout(poll, POLL_EVERY_MS);
})();
