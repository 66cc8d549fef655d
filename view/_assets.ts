/**
 * The view's stylesheet and script, served from memory so the server needs no
 * read grant beyond the store. The script only refreshes the trust banner and
 * appends a running session's new rows; it builds every node with
 * `createElement` and `textContent`, never from markup.
 *
 * @module
 */

/** `/style.css`: system fonts only, light and dark, visible focus. */
export const STYLE_CSS = `:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #5b6470; --line: #d8dde3; --panel: #f4f6f8;
  --link: #0550ae; --ok: #1a7f37; --bad: #c0262d; --warn: #9a6700; --focus: #0969da;
  --prompt: #0b6e8a; --tool: #3b4fc4; --turn: #8250df; --other: #6e7781;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9aa5b1; --line: #30363d; --panel: #161b22;
    --link: #6cb6ff; --ok: #3fb950; --bad: #ff7b72; --warn: #d29922; --focus: #58a6ff;
    --prompt: #39c5cf; --tool: #8a9cff; --turn: #c297ff; --other: #8b949e;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
code, .payload { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; }
.top { display: flex; gap: 12px; align-items: baseline; padding: 10px 20px; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
.muted { color: var(--muted); }
.banner { padding: 8px 20px; border-bottom: 1px solid var(--line); font-weight: 600; }
.banner-intact { background: color-mix(in srgb, var(--ok) 14%, var(--bg)); }
.banner-broken { background: color-mix(in srgb, var(--bad) 22%, var(--bg)); }
.banner-verifying { background: color-mix(in srgb, var(--warn) 14%, var(--bg)); }
main { padding: 12px 20px 40px; max-width: 1400px; }
h1 { font-size: 20px; margin: 8px 0 12px; overflow-wrap: anywhere; }
h2 { font-size: 16px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; padding: 10px;
  background: var(--panel); border: 1px solid var(--line); border-radius: 6px; margin-bottom: 12px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.filters select, .filters input { font: inherit; color: var(--fg); background: var(--bg);
  border: 1px solid var(--line); border-radius: 4px; padding: 3px 6px; max-width: 260px; }
.filters button { font: inherit; padding: 4px 14px; }
table.sessions { border-collapse: collapse; width: 100%; }
.sessions th, .sessions td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); }
.sessions th { font-size: 12px; color: var(--muted); font-weight: 600; }
.sessions tbody tr:hover { background: var(--panel); }
.sessions .project { max-width: 420px; overflow-wrap: anywhere; unicode-bidi: isolate; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.bad { color: var(--bad); font-weight: 700; }
.pager { display: flex; gap: 16px; margin: 10px 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0 0 12px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; unicode-bidi: isolate; }
.timeline { list-style: none; margin: 0; padding: 0; border-top: 1px solid var(--line); }
.row { display: grid; grid-template-columns: 150px 110px minmax(0, 1fr) 190px; column-gap: 10px;
  padding: 6px 4px; border-bottom: 1px solid var(--line); border-left: 4px solid var(--other);
  content-visibility: auto; contain-intrinsic-size: auto 34px; }
.row .when { color: var(--muted); font-size: 12px; white-space: pre-line; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.row .badge { font-size: 12px; font-weight: 700; text-transform: uppercase; }
.row .body { min-width: 0; }
.row .ids { text-align: right; font-size: 12px; white-space: pre-line; align-self: start; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.row .title { font-weight: 600; unicode-bidi: isolate; overflow-wrap: anywhere; }
.kind-prompt { border-left-color: var(--prompt); } .kind-prompt .badge { color: var(--prompt); }
.kind-tool { border-left-color: var(--tool); } .kind-tool .badge { color: var(--tool); }
.kind-turn { border-left-color: var(--turn); } .kind-turn .badge { color: var(--turn); }
.kind-failed { border-left-color: var(--bad); } .kind-failed .badge { color: var(--bad); }
.outcome { margin-left: 6px; font-size: 12px; font-weight: 700; }
.outcome-success { color: var(--ok); }
.outcome-error { color: var(--bad); }
.dur { margin-left: 6px; font-size: 12px; color: var(--muted); }
.bar { display: block; height: 8px; margin-top: 3px; background: var(--tool); }
.row.err .bar { background: var(--bad); }
${Array.from({ length: 101 }, (_, i) => `.w${i} { width: ${i}%; }`).join("\n")}
.subject { display: block; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; unicode-bidi: isolate; }
.text { margin: 3px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: isolate;
  max-height: 12em; overflow: auto; }
.more { color: var(--muted); font-style: italic; }
.payload { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel);
  border: 1px solid var(--line); padding: 10px; border-radius: 6px; unicode-bidi: isolate; }
code.full { overflow-wrap: anywhere; }
.empty { color: var(--muted); }
`;

/** `/app.js`: the banner refresh and a running session's new rows. */
export const APP_JS = `"use strict";
(() => {
  const STATUSES = new Set(["verifying", "intact", "broken"]);
  const banner = document.getElementById("trust");

  async function getJson(path) {
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(path + ": " + response.status);
    return await response.json();
  }

  async function refreshTrust() {
    try {
      const trust = await getJson("/api/trust");
      banner.textContent = String(trust.text);
      banner.className = "banner banner-" + (STATUSES.has(trust.status) ? trust.status : "verifying");
    } catch {
      // The server stopped: keep the last verdict on screen.
    }
    setTimeout(refreshTrust, banner.classList.contains("banner-verifying") ? 500 : 5000);
  }
  if (banner) setTimeout(refreshTrust, banner.classList.contains("banner-verifying") ? 300 : 5000);

  const timeline = document.getElementById("timeline");
  if (!timeline || timeline.dataset.live !== "true") return;

  function node(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = String(text);
    return element;
  }

  const KIND_CLASSES = {
    "memory.claude_prompt": "prompt",
    "memory.claude_tool_use": "tool",
    "memory.claude_session_completed": "turn",
    "memory.claude_capture_redaction_failed": "failed",
  };
  function barClass(ms, max) {
    return "bar w" + (max <= 0 ? 0 : Math.min(100, Math.max(1, Math.round((100 * ms) / max))));
  }

  function rowNode(row, maxMs) {
    const seq = Number(row.seq);
    const failed = row.outcome !== undefined && row.outcome !== "success";
    const li = node("li", "row kind-" + (KIND_CLASSES[row.kind] || "other") + (failed ? " err" : ""));
    li.dataset.seq = String(seq);
    li.dataset.ms = row.durationMs === undefined ? "" : String(Number(row.durationMs));
    const when = node("span", "when", row.time + "\\n" + row.offset);
    const body = node("div", "body");
    body.append(node("span", "title", row.title));
    li.append(when, node("span", "badge", row.label), body);
    if (row.outcome !== undefined) {
      body.append(" ", node("span", "outcome outcome-" + (row.outcome === "success" ? "success" : "error"), row.outcome));
    }
    if (row.durationMs !== undefined) {
      body.append(" ", node("span", "dur", row.duration), node("span", barClass(Number(row.durationMs), maxMs)));
    }
    if (row.subject !== undefined) body.append(node("span", "subject", row.subject));
    if (row.text !== "") {
      const text = node("p", "text", row.text);
      if (row.clipped) text.append(node("span", "more", " … (cut; the row page shows all)"));
      body.append(text);
    }
    const ids = node("a", "ids", "seq " + seq + "\\n" + String(row.hash).slice(0, 12));
    ids.href = "/row?seq=" + seq;
    li.append(ids);
    return li;
  }

  function rescale(maxMs) {
    timeline.dataset.maxMs = String(maxMs);
    for (const li of timeline.querySelectorAll("li[data-ms]")) {
      const bar = li.querySelector(".bar");
      if (bar && li.dataset.ms !== "") bar.className = barClass(Number(li.dataset.ms), maxMs);
    }
  }

  async function poll() {
    try {
      const query = new URLSearchParams({ session: timeline.dataset.session, after: timeline.dataset.after });
      const page = await getJson("/api/rows?" + query);
      if (page.rows.length > 0) {
        let maxMs = Number(timeline.dataset.maxMs) || 0;
        const longest = Math.max(0, ...page.rows.map((row) => Number(row.durationMs) || 0));
        if (longest > maxMs) {
          maxMs = longest;
          rescale(maxMs);
        }
        for (const row of page.rows) timeline.append(rowNode(row, maxMs));
        timeline.dataset.after = String(page.rows[page.rows.length - 1].seq);
      }
    } catch {
      // Try again on the next tick.
    }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
})();
`;
