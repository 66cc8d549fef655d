/**
 * E-mail addresses under a public TLD (see `_public_tlds.ts`), written with
 * `@` or URL-encoded (`name%40host.vn` in a query string), bare, after
 * `mailto:` or right after a JSON escape (`\nname@host.vn`: the escape's
 * letter is not part of the address). Kept: domains the operator
 * allows (and their subdomains; `cyberskill.world` unless told otherwise),
 * bot and no-reply addresses (not `postmaster@`, which people read), hosts
 * without a public TLD (`.test`, `.local`, decorators such as
 * `@pytest.fixture` in escaped code), file names (`logo@2x.png`),
 * git SSH remotes (`git@github.com:org/repo`), `user@host` targets of
 * ssh/scp, and URL userinfo (`https://key@o1.ingest.sentry.io`).
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { inWordList, isAsciiAlnum, isWordOrHyphen, lineBefore } from "../_validators.ts";
import { PUBLIC_TLDS } from "./_public_tlds.ts";

/** Country codes that end file names far more often than mail domains. */
const FILE_EXTENSION_TLDS = "py rs sh md";
/** Literals that the bot-address pattern in `kept` needs before it runs. */
const MACHINE_LOCAL_HINTS = ["reply", "daemon", "bounce"];
/** A `-u`/`--user` flag right before an address: `user:password` follows, not an scp path. */
const USER_FLAG = /(?:^|\s)(?:-u|--user)(?:[ \t]+|=)["']?$/;
/** What stands before the address in a Postfix `sasl_passwd` line: `[relay]:587 user:password`. */
const SASL_RELAY = /\[[\w.-]{1,253}\](?::\d{1,5})?[ \t]+$/;
/** What the ssh-target check needs in the 120 characters before an address. */
const SSH_HINT = /s(?:sh|cp|ftp)|rsync|mosh/;

/**
 * Whether some `@` (or `%40`) has what an address needs around it: a
 * local-part character just before, a domain label and a dot just after.
 * Decorators, JSDoc tags and npm scopes (`@module`, `@noble/hashes`) have
 * not, and then the pattern is never compiled.
 */
function mayHoldAddress(text: string): boolean {
  return separatorMayJoin(text, "@") || (text.includes("%40") && separatorMayJoin(text, "%40"));
}

function separatorMayJoin(text: string, separator: string): boolean {
  for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) {
    if (at === 0 || !isWordOrHyphen(text.charCodeAt(at - 1))) continue;
    // A label starts with a letter or digit and goes on with `-` and `_` too.
    const label = at + separator.length;
    if (!isAsciiAlnum(text.charCodeAt(label))) continue;
    let end = label + 1;
    while (isWordOrHyphen(text.charCodeAt(end))) end++;
    if (text.charCodeAt(end) === 46) return true;
  }
  return false;
}

function isMachineLocal(local: string): boolean {
  // A sender's name may come first: `alertmanager-noreply@…`; Apple writes `no_reply@…`.
  return /^(?:[\w+-]{1,40}[-_.])?(?:no[-_]?reply|do[-_]?not[-_]?reply|mailer-daemon|bounces?)(?:[-+._][\w.+-]*)?$/i
    .test(
      local,
    );
}

/**
 * Whether `scheme://` opens the run of non-blank characters that ends at
 * `start`: the local part is then a URL's password (`…://admin:YOUR_PASSWORD@host`),
 * which the URL rule judged, not an address.
 */
function afterUrlScheme(text: string, start: number): boolean {
  const before = lineBefore(text, start, 300);
  let from = before.length;
  while (from > 0 && !/\s/.test(before[from - 1]!)) from--;
  return before.includes("://", from);
}

function isAfterMailto(text: string, start: number): boolean {
  return start >= 7 && text.slice(start - 7, start).toLowerCase() === "mailto:";
}

function kept(c: Candidate): string | undefined {
  const local = c.groups["local"] ?? "";
  const domain = (c.groups["domain"] ?? "").toLowerCase();
  for (const allowed of c.options.allowEmailDomains ?? []) {
    const wanted = allowed.toLowerCase();
    if (domain === wanted || domain.endsWith(`.${wanted}`)) return `domain ${domain} is allowed`;
  }
  const tld = domain.slice(domain.lastIndexOf(".") + 1);
  if (!inWordList(PUBLIC_TLDS, tld)) return `.${tld} is not a public TLD`;
  if (inWordList(FILE_EXTENSION_TLDS, tld)) return `.${tld} names a file type here`;
  // Each pattern below is created and run only when the literal it needs is
  // there: in a short-lived process compiling a pattern costs more than the lookups.
  const lowerLocal = local.toLowerCase();
  if (
    (MACHINE_LOCAL_HINTS.some((h) => lowerLocal.includes(h)) && isMachineLocal(local)) ||
    (domain.includes("noreply.") &&
      /(?:^|\.)(?:users\.noreply\.github\.com|noreply\.[a-z.]+)$/.test(domain))
  ) {
    return "bot or no-reply address";
  }
  // Git's author line of a bot account: `dependabot[bot] <support@github.com>`.
  if (/\[bot\] ?<$/.test(c.text.slice(Math.max(0, c.start - 7), c.start))) {
    return "bot or no-reply address";
  }
  // A Google Cloud service account (`deployer@acme-prod.iam.gserviceaccount.com`): a bot's.
  if (domain === "gserviceaccount.com" || domain.endsWith(".gserviceaccount.com")) {
    return "a service account (a bot's address)";
  }
  // SSH's algorithm names: `ssh-ed25519-cert-v01@openssh.com`, `chacha20-poly1305@openssh.com`.
  if (domain === "openssh.com") return "an SSH algorithm's name";
  // GitHub's notification sender, in every mail header of a repository's activity.
  if (lowerLocal === "notifications" && domain === "github.com") return "bot or no-reply address";
  // What stands before a `mailto:` address, or around an encoded `%40`, is
  // never a remote, a URL's userinfo or an ssh target.
  if (c.match.startsWith("%") || isAfterMailto(c.text, c.start)) return undefined;
  if (local === "git") return "git SSH remote";
  // `th***@gmail.com`, `le*****89@…`: already masked.
  if (c.text[c.start - 1] === "*") return "masked address";
  // `<sip:2004@pbx.clinic.com>`: a phone extension at a PBX, no person's mailbox.
  if (/^\d{2,6}$/.test(local) && /sips?:$/i.test(c.text.slice(Math.max(0, c.start - 5), c.start))) {
    return "a SIP extension";
  }
  if (c.text[c.start - 1] === "/") return "URL userinfo";
  if (c.text[c.start - 1] === ":" && afterUrlScheme(c.text, c.start)) return "URL userinfo";
  if (
    c.text[c.end] === ":" && /[\w~/.]/.test(c.text[c.end + 1] ?? "") &&
    !USER_FLAG.test(lineBefore(c.text, c.start, 40)) &&
    !SASL_RELAY.test(lineBefore(c.text, c.start, 300))
  ) return "scp-style remote";
  // A plain slice first: the line's start is looked for only near an ssh-like word.
  const near = c.text.slice(Math.max(0, c.start - 120), c.start);
  if (!SSH_HINT.test(near)) return undefined;
  const before = lineBefore(c.text, c.start, 120);
  // Not `ssh-keygen -C "…"` or `ssh-add`: their address is a key's comment.
  if (/\b(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id)\b(?!-)/.test(before)) return "ssh target";
  return undefined;
}

/** `local@domain.tld`. */
export const email: Rule = {
  id: "email",
  description: "E-mail address",
  placeholder: "<EMAIL>",
  keywords: ["@", "%40"],
  precheck: (facts) => mayHoldAddress(facts.text),
  pattern: () =>
    /(?<=(?:(?<![\w.%+\\-])|(?<=\\[nrtbf]|\\u[0-9A-Fa-f]{4})|(?<=\\)(?![nrtbf]|u[0-9A-Fa-f]{4}))(?<local>[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_-])?))(?:@|%40)(?<domain>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-]|\.[A-Za-z0-9])/dg,
  secretFrom: "local",
  priority: 200,
  validators: [kept],
  allowlist: [],
  truePositives: [
    "contact: lan.pham92@mailbox.vn",
    "mailto:tuan.le@hanoi-trade.com.vn",
    "From: R. Quinn <r.quinn+ops@harborline.co.uk>",
    // Documentation domains are redacted like any other (the spec's AC 11).
    "write to user@example.com",
    // The user of curl's `-u user:password`.
    "curl -u ana.silva@firma-xyz.com.br:Pampa7Trigo https://api.firma-xyz.com.br/v1/me",
    // A key's comment.
    'ssh-keygen -t ed25519 -C "thanh.nguyen@mekongpay.vn" -f ~/.ssh/id_ed25519',
    // Right after a JSON escape: the address starts after the escape's letter.
    '"assignees": "\\nthanh.vo@saigon-logistics.vn\\tmai.ho@saigon-logistics.vn"',
    // URL-encoded in a query string.
    "GET /export?email=hoa.pham%40delta-logistics.vn&fmt=csv HTTP/1.1",
    // After `mailto:`, even where a URL opens the same run of characters.
    '{"web":"https://acme.vn","contact":"mailto:lien.ha@acme.vn"}',
    // A postmaster mailbox is read by a person.
    "MAIL_USERNAME=postmaster@mg.saigon-shop.vn",
    // New generic TLDs.
    "owners: kiet@nimbus.dev, trang@nimbus.cloud, son@nimbus.tech",
  ],
  falsePositives: [
    "Email từ notifications@github.com bị rơi vào spam",
    "gcloud run deploy api --service-account=deployer@acme-prod.iam.gserviceaccount.com",
    'From: "2004" <sip:2004@pbx.lakeshore-dental.com>;tag=5450697539',
    // Masked already.
    "| le*********89@yahoo.com.vn | th***@gmail.com |",
    // A git SSH remote.
    "git clone git@gitlab.com:team/app.git",
    // A retina asset.
    "icon@2x.png",
    // A bot address.
    "Co-Authored-By: bot <noreply@vendor.io>",
    "smtp_from: alertmanager-noreply@alerts.acme-analytics.io; Apple writes from no_reply@email.apple.com",
    "    Signed-off-by: dependabot[bot] <support@github.com>",
    // An ssh target.
    "ssh deploy@bastion.prod.acme-corp.com uptime",
    // A DSN's public key in URL userinfo.
    "dsn https://9c0e2b4d6f8a1c3e@o12345.ingest.sentry.io/678",
    // The default allowed domain, the spec's organisation.
    "anh@cyberskill.world",
    // A host without a public TLD.
    "connect as postgres@db-primary.internal",
    // A URL's placeholder password the URL rule kept.
    "MONGO_URI=mongodb+srv://admin:YOUR_PASSWORD@cluster0.mongodb.net/test",
    // An scp-style remote.
    "rsync -a dist/ deploy@web01.example.com:/srv/www/",
    // Decorators after JSON escapes: no public TLD, and an escape's letter is no local part.
    '{"content": "import pytest\\n\\n@pytest.fixture\\ndef client():\\n    return app.test_client()"}',
    '"source": "\\n@app.route(\\"/health\\")\\n@Component.input\\n"',
    // Role mailboxes of bots.
    "Return-Path: <mailer-daemon@mx.acme-shop.vn>, bounces@acme-shop.vn, do-not-reply@acme-shop.vn",
  ],
};
