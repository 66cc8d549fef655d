/**
 * Vendor secrets with no prefix of their own (a Cloudflare API token, a
 * Datadog key, a Discord client secret, a Heroku API key): found by a key
 * name that names the vendor and says secret (`cloudflare_api_token`,
 * `discordToken`, `HEROKU_API_KEY`), in every syntax such a value is
 * written in: assignments and `:=`, `::=`, `?=`, `+=`, `.=` (shell, Go,
 * Makefiles, PHP), typed declarations (`var herokuToken string = …`,
 * `val t: String = …`), JSON, YAML (also block scalars), XML elements, CSV
 * cells and Logstash `=>`. The vendor word gates the rule, so it accepts
 * values the generic rule must refuse: short ones, UUIDs, 15 to 20 digits.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { textPasswordNameProblem, textSecretNameProblem } from "../secret_keys.ts";
import {
  isAsciiLetter,
  isWordOrHyphen,
  notPlaceholder,
  PUBLISHABLE_KEYS,
  remembered,
  shannonEntropy,
} from "../_validators.ts";

/**
 * Vendor words, lowercase, as they appear in key names (the scanners'
 * vendor lists, and the vendors developers name most), in order.
 */
const VENDORS = [
  "abuseipdb",
  "adafruit",
  "adobe",
  "airbrake",
  "airtable",
  "aiven",
  "alchemy",
  "algolia",
  "alibaba",
  "amplitude",
  "apify",
  "appveyor",
  "artifactory",
  "asana",
  "assemblyai",
  "atlassian",
  "auth0",
  "autodesk",
  "azure",
  "azure_devops",
  "beamer",
  "binance",
  "bintray",
  "bitbucket",
  "bitfinex",
  "bitly",
  "bittrex",
  "braintree",
  "brandfetch",
  "browserstack",
  "bugsnag",
  "buildkite",
  "calendly",
  "censys",
  "circleci",
  "clarifai",
  "clearbit",
  "clickup",
  "cloudant",
  "cloudflare",
  "cloudinary",
  "co_api_key",
  "codacy",
  "codeclimate",
  "codecov",
  "cohere",
  "coinbase",
  "coinmarketcap",
  "confluence",
  "confluent",
  "contentful",
  "contentstack",
  "convertkit",
  "coveralls",
  "currencyapi",
  "datadog",
  "deepgram",
  "deepl",
  "deepseek",
  "devops",
  "discord",
  "dnsimple",
  "dockerhub",
  "docusign",
  "drone",
  "droneci",
  "dropbox",
  "dwolla",
  "ebay",
  "elevenlabs",
  "etherscan",
  "etsy",
  "exchangerate",
  "facebook",
  "fastly",
  "figma",
  "finicity",
  "finnhub",
  "firebase",
  "flickr",
  "freshbooks",
  "freshdesk",
  "fullcontact",
  "getresponse",
  "gitguardian",
  "github",
  "gitlab",
  "gitter",
  "gocardless",
  "gorgias",
  "helpscout",
  "heroku",
  "honeycomb",
  "hubspot",
  "hunter",
  "ibm",
  "imgur",
  "infura",
  "instagram",
  "intercom",
  "ipinfo",
  "ipstack",
  "iterable",
  "jenkins",
  "jfrog",
  "jira",
  "jotform",
  "kickbox",
  "klaviyo",
  "kraken",
  "kucoin",
  "launchdarkly",
  "linear",
  "linked-in",
  "linked_in",
  "linkedin",
  "lob",
  "logdna",
  "loggly",
  "lokalise",
  "mailchimp",
  "mailerlite",
  "mailgun",
  "mailjet",
  "mandrill",
  "mapbox",
  "marketo",
  "mattermost",
  "mediastack",
  "meraki",
  "message-bird",
  "message_bird",
  "messagebird",
  "mistral",
  "mixpanel",
  "moralis",
  "mux",
  "nasdaq",
  "netlify",
  "new-relic",
  "new_relic",
  "newrelic",
  "nexmo",
  "ngrok",
  "nylas",
  "nytimes",
  "okta",
  "onesignal",
  "openweather",
  "opsgenie",
  "optimizely",
  "paddle",
  "pagerduty",
  "pandadoc",
  "paypal",
  "paystack",
  "pinecone",
  "pipedream",
  "pipedrive",
  "plaid",
  "plivo",
  "posthog",
  "postmark",
  "prismic",
  "private-ai",
  "private_ai",
  "privateai",
  "pushbullet",
  "pusher",
  "pushover",
  "qase",
  "quickbooks",
  "rapidapi",
  "razorpay",
  "rebrandly",
  "recurly",
  "rockset",
  "rollbar",
  "salesforce",
  "salesloft",
  "sauce",
  "saucelabs",
  "scrapingbee",
  "segment",
  "sendbird",
  "sendgrid",
  "sentry",
  "serpapi",
  "shipengine",
  "shodan",
  "shortcut",
  "signalwire",
  "slack",
  "smartsheet",
  "snowflake",
  "snyk",
  "softlayer",
  "sonar",
  "sourcegraph",
  "sparkpost",
  "splunk",
  "spotify",
  "squarespace",
  "statuscake",
  "statuspage",
  "storyblok",
  "strava",
  "stytch",
  "sumo",
  "supabase",
  "surveymonkey",
  "tatum",
  "telegram",
  "telnyx",
  "todoist",
  "tomtom",
  "travis",
  "trello",
  "twelvedata",
  "twilio",
  "twitch",
  "twitter",
  "typeform",
  "unsplash",
  "uploadcare",
  "vercel",
  "vimeo",
  "virustotal",
  "vonage",
  "wandb",
  "weatherapi",
  "weatherstack",
  "webflow",
  "woocommerce",
  "workable",
  "wrike",
  "yandex",
  "yelp",
  "youtube",
  "zapier",
  "zendesk",
  "zenserp",
  "zerobounce",
  "zoho",
  "zoom",
];

let byLength: readonly string[] | undefined;

/**
 * The vendor words longest first, so `droneci` is tried before `drone`;
 * sorted when first needed, since sorting 245 words cost each hook run
 * 0.3 ms of its start.
 */
function vendorsByLength(): readonly string[] {
  return byLength ??= [...VENDORS].sort((a, b) => b.length - a.length);
}

/** Words one of which every key name this rule accepts holds. */
const NAME_WORDS = [
  "key",
  "secret",
  "token",
  "cred",
  "auth",
  "cookie",
  "session",
  "secure",
  "pass",
  "pwd",
  "pat",
  "crumb",
];

let vendorWords: RegExp | undefined;

/**
 * Texts shorter than this are searched for each vendor word in turn:
 * compiling one pattern for all 245 cost a hook run 0.3 ms, more than that
 * many searches of a short text (an object's keys, a path).
 */
const SEARCHED_WORD_BY_WORD_UNDER = 1024;

/** Whether the text (lowercase) holds any vendor word. */
function holdsVendor(lower: string): boolean {
  if (lower.length < SEARCHED_WORD_BY_WORD_UNDER) {
    return VENDORS.some((vendor) => lower.includes(vendor));
  }
  vendorWords ??= new RegExp(VENDORS.join("|"));
  return vendorWords.test(lower);
}

/**
 * What stands between the name and the value: an optional closing quote,
 * then an operator (typed declarations first), then an optional YAML block
 * indicator, line break and indent, and an optional opening quote. Bounded.
 */
const ASSIGN = "(?:\\\\?[\"'`])?[ \\t]{0,40}" +
  "(?:[ \\t]string[ \\t]{1,4}=|:[ \\t]{0,4}(?:[sS]tr(?:ing)?)[ \\t]{0,4}=|:{1,3}=|[?+.]?=|=>|:|(?<comma>,)|>)" +
  "[ \\t]{0,4}(?:[|>][-+]?[ \\t]{0,4})?(?:\\r?\\n[ \\t]{0,16})?(?:\\\\?[\"'`])?";

/**
 * Or the key said in words after the vendor (`twilio auth token: …`,
 * `mailgun key 'key-…'`), as scanners' examples and people write it.
 */
const SAID = "(?<rest>[\\w.-]{0,20})[ \\t]{1,4}" +
  "(?<word>(?:api[ _-]?|auth[ _-]?|access[ _-]?|secret[ _-]?)?(?:token|key|secret|password|passwd|credential)s?)" +
  "[ \\t]{0,4}(?:[:=-]|=>|is|was)?[ \\t]{0,4}(?:\\\\?[\"'`])?";

/**
 * The value, 8 to 202 characters, ended by a quote, a blank, `;`, `,`, `<`, a bracket or an
 * escaped line break. No `=` (but base64 padding) or `:` inside it: a value
 * run then never holds another key's operator, so the runs of repeated
 * `name=` text are read about once (see `_engine.ts` on linear patterns).
 */
const VALUE = "(?<secret>[A-Za-z0-9_][\\w.+/~%-]{7,199}={0,2})(?=\\\\[nr\"']|[\"'`\\s;,<)\\]}]|$)";

/**
 * The vendor word must be a part of the name, not inside another word
 * (`lob` in `global`, `sumo` in `consumo`): no letter before it unless a
 * camelCase boundary, no lowercase letter after it.
 */
function vendorIsWordPart(c: Candidate): string | undefined {
  const vendor = c.groups["vendor"] ?? "";
  const before = c.text.charCodeAt(c.matchStart - 1);
  const first = c.text.charCodeAt(c.matchStart);
  const after = c.text.charCodeAt(c.matchStart + vendor.length);
  const camel = first >= 65 && first <= 90 && before >= 97 && before <= 122;
  if (isAsciiLetter(before) && !camel) return `${vendor} inside a word`;
  // `CO_API_KEY` and `new_relic` end a name part themselves.
  if (/[_-]/.test(vendor)) return undefined;
  if (after >= 97 && after <= 122) return `${vendor} inside a word`;
  if (/[A-Z]$/.test(vendor) && after >= 65 && after <= 90) return `${vendor} inside a word`;
  return undefined;
}

/** The whole key name: what precedes the vendor word in the same name, the vendor, the rest. */
function keyName(c: Candidate): string {
  let start = c.matchStart;
  const limit = Math.max(0, start - 40);
  while (start > limit) {
    const ch = c.text.charCodeAt(start - 1);
    if (!isWordOrHyphen(ch) && ch !== 46) break;
    start--;
  }
  const word = c.groups["word"];
  const said = word === undefined ? "" : `_${word.replace(/[ -]/g, "_")}`;
  return c.text.slice(start, c.matchStart) + (c.groups["vendor"] ?? "") + (c.groups["rest"] ?? "") +
    said;
}

const nameProblem = remembered((name: string) => {
  const secret = textSecretNameProblem(name);
  if (secret === undefined) return undefined;
  // A vendor's personal access token (`AZURE_DEVOPS_PAT`, `gitlabPat`), a Jenkins crumb.
  if (/crumb/i.test(name)) return undefined;
  if (/(?:^|[^A-Za-z])(?:pat|PAT|Pat)$|[a-z]Pat$/.test(name)) return undefined;
  return textPasswordNameProblem(name) === undefined ? undefined : secret;
});

function nameSaysSecret(c: Candidate): string | undefined {
  return nameProblem(keyName(c));
}

/**
 * A comma separates a name from its value only in a CSV row, where the
 * name opens the line: in code, `[GITHUB_TOKEN, "…"]` lists two things.
 */
function commaOpensRow(c: Candidate): string | undefined {
  if (c.groups["comma"] === undefined) return undefined;
  const name = keyName(c);
  let at = c.matchStart -
    (name.length - (c.groups["vendor"] ?? "").length - (c.groups["rest"] ?? "").length);
  while (at > 0 && (c.text[at - 1] === " " || c.text[at - 1] === "\t")) at--;
  return at === 0 || c.text[at - 1] === "\n" ? undefined : "a comma inside a line, not a CSV cell";
}

/**
 * A value that reads as a secret: random-looking, not code, a URL, a path,
 * a date or a version. Digits alone count from 15 (Discord and Asana ids
 * under a token name); letters alone only when long and mixed in case. From
 * 8 characters: a short value (Vonage's API key is 8 hex digits) must hold
 * nearly no repeated character.
 */
function valueLooksRandom(c: Candidate): string | undefined {
  const v = c.secret;
  if (v.includes("://")) return "URL";
  if (/^\d{4}-\d\d-\d\d/.test(v)) return "date";
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return "dotted identifier";
  const hasDigit = /\d/.test(v);
  const hasLetter = /[A-Za-z]/.test(v);
  if (!hasLetter) {
    return /^\d{15,20}$/.test(v) ? undefined : "number, version or address";
  }
  const h = shannonEntropy(v);
  if (!hasDigit) {
    return v.length >= 20 && /[a-z]/.test(v) && /[A-Z]/.test(v) && h > 3.8 && !/[._-]/.test(v)
      ? undefined
      : "letters only";
  }
  // Vonage's API keys are 8 hex digits: a short value needs letters, digits and no repeats.
  const floor = v.length < 10 ? 2.7 : 3;
  return h <= floor ? `entropy ${h.toFixed(2)} ≤ ${floor}` : undefined;
}

/** A key said in words holds a value that is plainly a token: 16+ characters, letters and digits. */
function saidLooksRandom(c: Candidate): string | undefined {
  if (c.groups["word"] === undefined) return undefined;
  if (c.secret.length < 16) return `said in words, ${c.secret.length} < 16 characters`;
  if (!/\d/.test(c.secret) || !/[A-Za-z]/.test(c.secret)) {
    return "said in words, needs letters and digits";
  }
  const h = shannonEntropy(c.secret);
  return h <= 3.5 ? `said in words, entropy ${h.toFixed(2)} ≤ 3.5` : undefined;
}

/** A value assigned to a key that names a vendor and says secret. */
export const vendorNamed: Rule = {
  id: "vendor_named_secret",
  description:
    "A vendor's secret with no prefix of its own, named by a key that names the vendor and says secret, in any assignment syntax (code, config, JSON, YAML blocks, XML, CSV)",
  placeholder: "<SECRET>",
  // Checking 170 vendor words one by one cost 0.4 ms on every 4 KB prompt:
  // the rule waits for a word its key names need, then asks for any vendor
  // word at all.
  keywords: NAME_WORDS,
  precheck: (facts) => holdsVendor(facts.lower),
  pattern: () =>
    new RegExp(
      // A vendor word starts a word or a camelCase hump (what `vendorIsWordPart` asks too): the
      // other offsets never try the 245 words.
      `(?-i:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))(?<vendor>${
        vendorsByLength().join("|")
      })(?:(?<rest>[\\w.-]{0,40})${ASSIGN}|${SAID})${VALUE}`,
      "dgi",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    vendorIsWordPart,
    nameSaysSecret,
    commaOpensRow,
    notPlaceholder,
    valueLooksRandom,
    saidLooksRandom,
  ],
  allowlist: PUBLISHABLE_KEYS,
  truePositives: [
    "<cloudflareApiToken>WuyV7aX3p0oHjy7I0Y9BxN_9GhkX0NsCxL0l7zF3</cloudflareApiToken>",
    "DATADOG_API_KEY ?= 0b2c076fa82bc26d3be6bd12dad89cd9",
    'var herokuToken string = "ad1b1a5a-92ba-4b1f-b3be-8a4e310f517b"',
    "discord_bot_token: |\n  mbk7szqocwef3h2jwljevqhumrfkaik1",
    "discordClientSecret := `A82_gLKHimDel1bh3Yo1aoUYqpyMR9co`",
    "twitch_client_secret,ywogj3a6sdp4h5i3849nz1zpwhn9kk,prod",
    '  "linkedinToken" => "7vjwhaniqrf8jrti"',
    "$mailjetKey .= 'b9294d351174fd0e09c584301ffd9516'",
    "curl -X POST https://ci.acme.io/job/deploy/build -H 'Jenkins-Crumb:6b07adcf48b38f08b15222a74a7bd1a6'",
    "AZURE_DEVOPS_PAT=pvmswsga7mirjqrpmyf42mlsm4paeqwyj4og67fvn2gyzpeztqni",
    "twilio auth token: f6934a33aa8cabfdf0d6eead7841d642",
    "asana_access_token = 6813991583380144",
    "NEXMO_API_KEY=9c1e4b7a",
    'vonage_api_key: "e83b5f26"',
  ],
  falsePositives: [
    "SENTRY_AUTH_TOKEN=${SENTRY_AUTH_TOKEN}",
    "<globalToken>abc123def456ghi789</globalToken>",
    'const names = [AWS_KEY, GITHUB_PAT, "Zq8mN3xV7bL2kR9tW4"];',
    "twitter_client_id = 1234567890123456789",
    "slack_token_url: https://slack.com/api/oauth.v2.access",
    "datadog_api_key: os.environ.DATADOG_KEY",
    "cloudflare_token_expiry: 2025-11-30T10:42:17Z",
    "sentry_token_version = 2.14.0",
    "the github token expires 2026-03-01; the slack secret rotation runbook",
    "<herokuToken>{{ .Values.heroku.token }}</herokuToken>",
    // Short values with repeats: a setting, not a key.
    "VONAGE_API_KEY_TTL=3600s",
    "slack_token_mode = token12",
    "GITHUB_TOKEN_SCOPE=repo1234",
  ],
};
