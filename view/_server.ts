/**
 * The view's HTTP handler. Every request passes three gates before any data
 * is read: the Host header must name this address (DNS rebinding), the token
 * must match (from `?token=`, which sets a cookie and redirects to the same
 * URL without it, or from that cookie), and the method must be GET or HEAD.
 * Every response carries a strict Content-Security-Policy and the headers
 * that keep other sites from framing, sniffing or embedding it.
 *
 * @module
 */

import { ROW_KINDS } from "../lib/kinds.ts";
import { APP_JS, STYLE_CSS } from "./_assets.ts";
import { allowedHosts, cookieName, readCookie, tokenCookie, tokenMatches } from "./_auth.ts";
import { messageMain, page, rowMain, sessionMain, sessionsMain, type TrustView } from "./_pages.ts";
import type { SessionFilter, ViewStore } from "./_queries.ts";
import { humanDuration, rowView } from "./_rows.ts";
import type { ChainWatch } from "./_trust.ts";

/** The headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; " +
    "img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; " +
    "form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cache-control": "no-store",
};

/** What the banner says of each checkpoint verdict. */
const CHECKPOINT_VERDICTS = {
  matches: "its signature verifies with the store's key and the rows still have its root",
  differs: "the rows NO LONGER have its root: rows were changed after it was signed",
  "bad-signature": "its signature does NOT verify with the store's key",
  pending: "the rows it covers are checked against it on the next walk",
} as const;

/** Sessions a page of the list shows. */
export const SESSIONS_PER_PAGE = 50;

/** Rows a page of a session shows (a longer session pages on). */
export const ROWS_PER_PAGE = 2000;

/** Options for {@linkcode viewHandler}. */
export interface ViewHandlerOptions {
  /** The store, opened read-only. */
  store: ViewStore;
  /** The chain's watcher, for the banner. */
  chain: ChainWatch;
  /** The token the URL carried. */
  token: string;
  /** The port this server listens on (for the Host check and the cookie's name). */
  port: number;
}

/** A request this view refuses or cannot answer, with its status. */
class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The request handler of the view. */
export function viewHandler(options: ViewHandlerOptions): (request: Request) => Response {
  const { store, chain, token, port } = options;
  const hosts = allowedHosts(port);
  const cookie = cookieName(port);
  return (request) => {
    try {
      const url = new URL(request.url);
      if (!hosts.has(request.headers.get("host") ?? "")) {
        throw new HttpError(403, "This view answers only at the address it printed");
      }
      // Another page on this machine (any port of 127.0.0.1 is the same site) must not read us.
      const site = request.headers.get("sec-fetch-site");
      if (site !== null && site !== "same-origin" && site !== "none") {
        throw new HttpError(403, "This view answers only its own pages");
      }
      const fromQuery = url.searchParams.get("token") ?? undefined;
      if (fromQuery !== undefined && tokenMatches(fromQuery, token)) {
        url.searchParams.delete("token");
        return respond(303, "", "text/plain; charset=utf-8", {
          location: `${url.pathname}${url.search}`,
          "set-cookie": tokenCookie(port, token),
        });
      }
      if (!tokenMatches(readCookie(request.headers.get("cookie"), cookie), token)) {
        throw new HttpError(403, "Open the URL with the token that `deno task view` printed");
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw new HttpError(405, "This view is read-only: only GET and HEAD");
      }
      return route(url);
    } catch (error) {
      if (error instanceof HttpError) {
        const headers: Record<string, string> = error.status === 405 ? { allow: "GET, HEAD" } : {};
        return respond(
          error.status,
          // No banner: a refused request learns nothing about the store.
          page(String(error.status), undefined, messageMain(String(error.status), error.message)),
          "text/html; charset=utf-8",
          headers,
        );
      }
      // Only after the gates: the store failed (busy, damaged). One line, with the headers.
      const detail = (error as Error)?.message?.split("\n", 1)[0] ?? String(error);
      console.error(
        `cyberos-memory view: ${request.method} ${new URL(request.url).pathname}: ${detail}`,
      );
      return respond(
        500,
        page("500", undefined, messageMain("500", `Cannot read the store: ${detail}`)),
        "text/html; charset=utf-8",
      );
    }
  };

  function route(url: URL): Response {
    const query = url.searchParams;
    switch (url.pathname) {
      case "/":
        return htmlResponse(sessionsPage(query));
      case "/session":
        return sessionPage(query);
      case "/row": {
        const seq = positiveInteger(query.get("seq"), "seq");
        const row = store.row(seq);
        if (!row) throw new HttpError(404, `No row with seq ${seq}`);
        return htmlResponse(page(`Row ${seq}`, bannerOf(), rowMain(row)));
      }
      case "/api/rows":
        return apiRows(query);
      case "/api/trust":
        return respond(200, JSON.stringify(bannerOf()), "application/json");
      case "/app.js":
        return respond(200, APP_JS, "text/javascript; charset=utf-8");
      case "/style.css":
        return respond(200, STYLE_CSS, "text/css; charset=utf-8");
      case "/favicon.ico":
        // Browsers ask for it; no icon, and no 404 in the console.
        return new Response(null, { status: 204, headers: SECURITY_HEADERS });
      default:
        throw new HttpError(404, "No such page");
    }
  }

  function sessionsPage(query: URLSearchParams): string {
    const form = {
      project: query.get("project") ?? "",
      since: query.get("since") ?? "",
      until: query.get("until") ?? "",
      kind: query.get("kind") ?? "",
      q: query.get("q") ?? "",
    };
    const filter: SessionFilter = { limit: SESSIONS_PER_PAGE + 1 };
    if (form.project) filter.project = form.project;
    if (form.since) filter.sinceMs = localTime(form.since, "since");
    if (form.until) filter.untilMs = localTime(form.until, "until");
    if (form.kind) filter.kind = form.kind;
    if (form.q) filter.search = form.q;
    const before = query.get("before");
    if (before !== null) filter.beforeSeq = positiveInteger(before, "before");
    const sessions = store.sessions(filter);
    const more = sessions.length > SESSIONS_PER_PAGE;
    const main = sessionsMain({
      sessions: sessions.slice(0, SESSIONS_PER_PAGE),
      more,
      form,
      projects: store.projects({ limit: 500 }),
      kinds: Object.values(ROW_KINDS),
    });
    return page("Sessions", bannerOf(), main);
  }

  function sessionPage(query: URLSearchParams): Response {
    const sessionId = query.get("id");
    if (!sessionId) throw new HttpError(400, "Name a session: /session?id=SESSION_ID");
    const after = query.get("after");
    const afterSeq = after === null ? 0 : positiveInteger(after, "after");
    const [summary] = store.sessions({ sessionId, limit: 1 });
    if (!summary) throw new HttpError(404, "No such session in this store");
    const rows = store.sessionRows(sessionId, { afterSeq, limit: ROWS_PER_PAGE + 1 });
    const more = rows.length > ROWS_PER_PAGE;
    const main = sessionMain({
      summary,
      traceIds: store.traceIds(sessionId),
      rows: rows.slice(0, ROWS_PER_PAGE).map((row) => rowView(row, summary.startedMs)),
      afterSeq,
      more,
    });
    return htmlResponse(page(`Session ${sessionId.slice(0, 8)}`, bannerOf(), main));
  }

  function apiRows(query: URLSearchParams): Response {
    const sessionId = query.get("session");
    if (!sessionId) throw new HttpError(400, "Name a session: /api/rows?session=ID&after=SEQ");
    const afterSeq = positiveInteger(query.get("after") ?? "0", "after", { zero: true });
    const [first] = store.sessionRows(sessionId, { afterSeq: 0, limit: 1 });
    const rows = first === undefined
      ? []
      : store.sessionRows(sessionId, { afterSeq, limit: ROWS_PER_PAGE })
        .map((row) => rowView(row, first.capturedMs));
    return respond(200, JSON.stringify({ rows }), "application/json");
  }

  function bannerOf(): TrustView {
    void chain.refresh();
    const state = chain.state;
    const rows = state.checkedRows.toLocaleString("en");
    const age = state.walkedAtMs === undefined
      ? ""
      : ` (whole chain walked ${humanDuration(Date.now() - state.walkedAtMs)} ago)`;
    const checkpoint = chain.checkpoint;
    const checkpointText = checkpoint === undefined
      ? " No signed checkpoint yet."
      : ` Latest signed checkpoint: ${checkpoint.size.toLocaleString("en")} rows, signed ${
        humanDuration(Date.now() - checkpoint.signedAtMs)
      } ago; ${CHECKPOINT_VERDICTS[checkpoint.verdict]}.`;
    const checkpointBad = checkpoint?.verdict === "differs" ||
      checkpoint?.verdict === "bad-signature";
    switch (state.status) {
      case "verifying":
        return {
          status: "verifying",
          text: `Verifying the chain: ${rows} rows so far…${checkpointText}`,
        };
      case "intact":
        return {
          status: checkpointBad ? "broken" : "intact",
          text: `Chain intact: ${rows} rows verified${age}.${checkpointText}`,
        };
      case "broken":
        return {
          status: "broken",
          text: `Chain BROKEN at seq ${state.firstBadSeq}: ${state.detail}. ` +
            `Rows from seq ${state.firstBadSeq} on cannot be trusted${age}.${checkpointText}`,
        };
    }
  }
}

function htmlResponse(body: string): Response {
  return respond(200, body, "text/html; charset=utf-8");
}

function respond(
  status: number,
  body: string,
  contentType: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(body, {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": contentType, ...extra },
  });
}

function positiveInteger(
  value: string | null,
  name: string,
  options: { zero?: boolean } = {},
): number {
  const pattern = options.zero ? /^(0|[1-9][0-9]{0,14})$/ : /^[1-9][0-9]{0,14}$/;
  if (value === null || !pattern.test(value)) {
    throw new HttpError(400, `${name} must be a positive whole number`);
  }
  return Number(value);
}

/** A `datetime-local` value (`2026-12-01T14:05`) as ms since the epoch, in this machine's zone. */
function localTime(value: string, name: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) {
    throw new HttpError(400, `${name} must be a date and time like 2026-12-01T14:05`);
  }
  const ms = new Date(value).getTime();
  if (!Number.isFinite(ms)) throw new HttpError(400, `${name} is not a real date: ${value}`);
  return ms;
}
