/**
 * The view's pages as HTML, built server-side with the escaping
 * {@linkcode markup} tag: the sessions list, one session's timeline, one row,
 * and the trust banner every page opens with. No inline script or style (the
 * Content-Security-Policy forbids both), so a duration bar's length is one of
 * the stylesheet's 101 width classes (`w0` … `w100`, per cent of the longest).
 * The markup is kept compact on purpose: a 2,000-row session is 2,000 of
 * these rows, and the browser parses every byte.
 *
 * @module
 */

import { ROW_KINDS } from "../lib/kinds.ts";
import type { SessionSummary, ViewRow } from "./_queries.ts";
import { dateTime, humanDuration, type RowView } from "./_rows.ts";
import { type Html, markup } from "./_text.ts";

/** The banner's facts, as the page and `/api/trust` show them. */
export interface TrustView {
  /** `verifying`, `intact` or `broken`: the banner's colour. */
  status: "verifying" | "intact" | "broken";
  /** One or two sentences. */
  text: string;
}

/** A whole page around `main`, with the trust banner unless it is a refusal. */
export function page(title: string, trust: TrustView | undefined, main: Html): string {
  const banner = trust === undefined
    ? ""
    : markup`<div id="trust" class="banner banner-${trust.status}" role="status" aria-live="polite">${trust.text}</div>`;
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} · CyberOS memory</title>
<link rel="stylesheet" href="/style.css">
<script src="/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/">CyberOS memory</a><span class="muted">read-only view of the local capture store</span></header>
${banner}
<main id="main">
${main}
</main>
</body>
</html>
`.markup;
}

/** What the sessions page needs. */
export interface SessionsPageInput {
  /** The sessions to list. */
  sessions: SessionSummary[];
  /** Whether older sessions exist past these. */
  more: boolean;
  /** The filters as the form shows them (raw query values). */
  form: Record<"project" | "since" | "until" | "kind" | "q", string>;
  /** Project folders for the select. */
  projects: string[];
  /** Row kinds for the select. */
  kinds: string[];
}

/** The sessions list with its filters. */
export function sessionsMain(input: SessionsPageInput): Html {
  const { sessions, more, form, projects, kinds } = input;
  const option = (value: string, label: string, selected: string) =>
    markup`<option value="${value}"${
      value === selected ? markup` selected` : ""
    }>${label}</option>`;
  const rows = sessions.map((s) => {
    const project = s.project === null
      ? markup`<span class="muted">none</span>`
      : markup`<a href="/?project=${encodeURIComponent(s.project)}">${s.project}</a>`;
    return markup`<tr>
<td><a href="/session?id=${encodeURIComponent(s.sessionId)}"><code>${
      s.sessionId.slice(0, 8)
    }</code></a></td>
<td class="project">${project}</td>
<td>${dateTime(s.startedMs)}</td>
<td class="num">${humanDuration(s.endedMs - s.startedMs)}</td>
<td class="num">${s.prompts}</td>
<td class="num">${s.toolCalls}</td>
<td class="num${s.failures > 0 ? " bad" : ""}">${s.failures}</td>
<td class="num">${s.redactions}</td>
</tr>
`;
  });
  const older = more && sessions.length > 0
    ? markup`<nav class="pager"><a href="/?${new URLSearchParams({
      ...nonEmpty(form),
      before: String(sessions.at(-1)!.lastSeq),
    })}">Older sessions →</a></nav>`
    : "";
  const table = sessions.length === 0
    ? markup`<p class="empty">No session matches.</p>`
    : markup`<table class="sessions">
<thead><tr><th scope="col">Session</th><th scope="col">Project</th><th scope="col">Start</th><th scope="col">Duration</th><th scope="col">Prompts</th><th scope="col">Tool calls</th><th scope="col">Failures</th><th scope="col">Redactions</th></tr></thead>
<tbody id="sessions">
${rows}</tbody>
</table>`;
  const kindOptions = kinds.map((k) => option(k, k.replace(/^memory\.claude_/, ""), form.kind));
  return markup`<h1>Sessions</h1>
<form class="filters" method="get" action="/">
<label>Project <select name="project">${option("", "any", form.project)}${
    projects.map((p) => option(p, p, form.project))
  }</select></label>
<label>From <input type="datetime-local" name="since" value="${form.since}"></label>
<label>To <input type="datetime-local" name="until" value="${form.until}"></label>
<label>Kind <select name="kind">${option("", "any", form.kind)}${kindOptions}</select></label>
<label>Search <input type="search" name="q" value="${form.q}" placeholder="redacted text"></label>
<button type="submit">Filter</button>
<a href="/">Clear</a>
</form>
${table}
${older}`;
}

/** What the session page needs. */
export interface SessionPageInput {
  /** The session's counts. */
  summary: SessionSummary;
  /** Its trace ids (one, unless it was idle for an hour). */
  traceIds: string[];
  /** This page's rows. */
  rows: RowView[];
  /** Rows before this page (0 on the first page). */
  afterSeq: number;
  /** Whether the session has rows past this page. */
  more: boolean;
}

/** One session's timeline. */
export function sessionMain(input: SessionPageInput): Html {
  const { summary: s, traceIds, rows, afterSeq, more } = input;
  const id = encodeURIComponent(s.sessionId);
  const maxMs = Math.max(0, ...rows.map((row) => row.durationMs ?? 0));
  const last = rows.at(-1)?.seq ?? afterSeq;
  const first = afterSeq > 0 ? markup`<a href="/session?id=${id}">← First rows</a>` : "";
  const later = more ? markup`<a href="/session?id=${id}&amp;after=${last}">Later rows →</a>` : "";
  const pager = first || later ? markup`<nav class="pager">${first}${later}</nav>` : "";
  return markup`<p><a href="/">← Sessions</a></p>
<h1>Session <code>${s.sessionId}</code></h1>
<dl class="facts">
<dt>Project</dt><dd>${s.project ?? "none"}</dd>
<dt>Started</dt><dd>${dateTime(s.startedMs)}</dd>
<dt>Duration</dt><dd>${humanDuration(s.endedMs - s.startedMs)}</dd>
<dt>Trace id</dt><dd>${traceIds.map((t) => markup`<code>${t}</code> `)}</dd>
<dt>Counts</dt><dd>${s.prompts} prompts, ${s.toolCalls} tool calls, ${s.failures} failures, ${s.redactions} redactions, ${s.rows} rows</dd>
</dl>
${pager}
<ol id="timeline" class="timeline" data-session="${s.sessionId}" data-after="${last}" data-live="${
    String(!more)
  }" data-max-ms="${maxMs}">
${rows.map((row) => timelineRow(row, maxMs))}</ol>
${pager}`;
}

/** One timeline entry; `app.js` builds the same structure for rows that arrive later. */
export function timelineRow(row: RowView, maxMs: number): Html {
  const outcome = row.outcome === undefined
    ? ""
    : markup` <span class="outcome outcome-${
      row.outcome === "success" ? "success" : "error"
    }">${row.outcome}</span>`;
  const bar = row.durationMs === undefined
    ? ""
    : markup` <span class="dur">${row.duration}</span><span class="bar w${
      barPercent(row.durationMs, maxMs)
    }"></span>`;
  const subject = row.subject === undefined
    ? ""
    : markup`<span class="subject">${row.subject}</span>`;
  const more = row.clipped
    ? markup`<span class="more"> … (cut; the row page shows all)</span>`
    : "";
  const text = row.text === "" ? "" : markup`<p class="text">${row.text}${more}</p>`;
  const failed = row.outcome !== undefined && row.outcome !== "success";
  return markup`<li class="row kind-${kindClass(row.kind)}${
    failed ? " err" : ""
  }" data-seq="${row.seq}" data-ms="${row.durationMs ?? ""}"><span class="when">${row.time}
${row.offset}</span><span class="badge">${row.label}</span><div class="body"><span class="title">${row.title}</span>${outcome}${bar}${subject}${text}</div><a class="ids" href="/row?seq=${row.seq}">seq ${row.seq}
${row.hash.slice(0, 12)}</a></li>
`;
}

/** A duration bar's length in per cent of the longest (at least 1 so it shows), 0 when none ran. */
export function barPercent(durationMs: number, maxMs: number): number {
  if (maxMs <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((100 * durationMs) / maxMs)));
}

/** One row in full: its chain fields and the whole payload. */
export function rowMain(row: ViewRow): Html {
  const previous = row.seq > 1
    ? markup` <a href="/row?seq=${row.seq - 1}">row ${row.seq - 1}</a>`
    : "";
  return markup`<p><a href="/session?id=${encodeURIComponent(row.sessionId)}">← Session <code>${
    row.sessionId.slice(0, 8)
  }</code></a></p>
<h1>Row ${row.seq}</h1>
<dl class="facts">
<dt>seq</dt><dd>${row.seq}</dd>
<dt>kind</dt><dd><code>${row.kind}</code></dd>
<dt>captured</dt><dd>${new Date(row.capturedMs).toISOString()}</dd>
<dt>prev_hash</dt><dd><code class="full">${row.prevHash}</code>${previous}</dd>
<dt id="hash">hash</dt><dd><code class="full">${row.hash}</code> <a href="/row?seq=${
    row.seq + 1
  }">next row</a></dd>
</dl>
<h2>Payload</h2>
<pre class="payload">${JSON.stringify(row.payload, null, 2)}</pre>`;
}

/** A short page for a refusal or a missing thing. */
export function messageMain(title: string, text: string): Html {
  return markup`<h1>${title}</h1><p>${text}</p>`;
}

/** A kind as a CSS class word (`tool`, `prompt`, `turn`, `failed`, `other`). */
function kindClass(kind: string): string {
  switch (kind) {
    case ROW_KINDS.prompt:
      return "prompt";
    case ROW_KINDS.toolUse:
      return "tool";
    case ROW_KINDS.sessionCompleted:
      return "turn";
    case ROW_KINDS.redactionFailed:
      return "failed";
    default:
      return "other";
  }
}

function nonEmpty(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ""));
}
