/**
 * Platform and identity tokens that carry their own prefix or shape:
 * 1Password account secret keys, Okta-free identity services (Authress,
 * Harness), code and data platforms (Sourcegraph, ClickHouse Cloud,
 * OpenShift, SettleMint), MaxMind licence keys, HubSpot private-app tokens,
 * Adobe client secrets, 42 (Intra) client secrets, Defined Networking keys,
 * Mailgun webhook signing keys, Sidekiq Enterprise credentials, crates.io
 * and StackHawk tokens, Amazon MWS auth tokens, Salesforce access tokens,
 * ClickUp, PostHog and Honeycomb keys, SAP BTP XSUAA client secrets, Tuya local keys.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { charClasses, hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { perText } from "../_memo.ts";
import { token } from "./_token.ts";

/** 1Password account secret keys (the second factor of an account). */
export const onePasswordSecretKey: Rule = token({
  id: "onepassword_secret_key",
  description: "1Password account secret key (A3-XXXXXX-…)",
  placeholder: "<ONEPASSWORD_KEY>",
  keywords: ["a3-"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "Secret Key: A3-3F7U2D-73ZX4K03W3V-SXVFA-PTJNS-NYF0W",
    "op account add --secret-key A3-LR2HWH-ITQVGV-DTKQT-N6CLZ-DFEFP-RFFH5",
  ],
  falsePositives: ["A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX", "paper size A3-landscape"],
});

/** Authress service client access keys. */
export const authress: Rule = token({
  id: "authress_key",
  description: "Authress service client access key (sc_….….acc_….…)",
  placeholder: "<AUTHRESS_KEY>",
  keywords: [".acc_", ".acc-"],
  pattern: () =>
    /\b(?<![\w-])(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}(?![\w+/=-])/dg,
  truePositives: [
    "AUTHRESS_KEY=sc_b2fp3u52ws8nho.vpu65.acc_9uvq5hdt6edo9ya1u8wz.7VW9BQm3OduLqDrXDzzYBfFjn0S1KrY0qgRzbUstyL0a8THIU0zKVhBQWyMx5wLS",
  ],
  falsePositives: ["sc_main.a1b2.acc_prod is a path, not a key"],
});

/** Harness personal and service account tokens. */
export const harness: Rule = token({
  id: "harness_token",
  description: "Harness personal (pat.) and service account (sat.) token",
  placeholder: "<HARNESS_TOKEN>",
  keywords: ["pat.", "sat."],
  startsAtKeyword: true,
  pattern: () =>
    /(?<![\w.-])[ps]at\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}(?![\w.-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    'curl -H "x-api-key: pat.u6-qP8FFAU0ptqrBM9-cJJ.8VGo9DZjgSvOt7iLuwvbyUac.eQxC6w9KyFkjkTsf9f4f" https://app.harness.io/gateway/ng/api/user/currentUser',
  ],
  falsePositives: ["pat.account.settings.notifications"],
});

/** Sourcegraph access tokens. */
export const sourcegraph: Rule = token({
  id: "sourcegraph_token",
  description:
    "Sourcegraph access token (sgp_, sgp_local_, sgp_<instance>_) and Segment public API token (sgp_ + 64)",
  placeholder: "<SOURCEGRAPH_TOKEN>",
  keywords: ["sgp_"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])sgp_(?:(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}|[A-Za-z0-9]{64})(?![\w-])/dg,
  truePositives: [
    "SRC_ACCESS_TOKEN=sgp_38a6bb9c98ee36fd_44623d2b711e9f837f53e2dc8e0f583deecdb42d",
    '{"segment_token": "sgp_vRzqUjIn5TzqdYkV71KBSO88FfkrQ6N5urngX3RfGGo11EuM7lmPYcinBReusNvT"}',
    "src login --token sgp_local_dbb921fd279f642da7dd834fade19ed102b85dbb",
  ],
  falsePositives: ["sgp_local_ is the prefix of local instance tokens"],
});

/** ClickHouse Cloud API secret keys. */
export const clickhouse: Rule = token({
  id: "clickhouse_key",
  description: "ClickHouse Cloud API secret key (4b1d…)",
  placeholder: "<CLICKHOUSE_KEY>",
  keywords: ["4b1d"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])4b1d[A-Za-z0-9]{38}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: ["CLICKHOUSE_KEY_SECRET=4b1duUBBpuwgi4IYZpRbGxneL9ZKCdplzzgXOvr7uw"],
  falsePositives: ["commit 4b1d3f9a2c7e1b5d4a8f9c0e2b4d6f8a1c3e5b7d"],
});

/** OpenShift OAuth access tokens. */
export const openshift: Rule = token({
  id: "openshift_token",
  description: "OpenShift OAuth access token (sha256~…)",
  placeholder: "<OPENSHIFT_TOKEN>",
  keywords: ["sha256~"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sha256~[\w-]{43}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "oc login --token=sha256~cQ1PHcZNpzPtdLngLnUMPKFlWneZyVHpFKpz-gvF1zj --server=https://api.ocp.acme.io:6443",
  ],
  falsePositives: ["tokens start with sha256~ and are 50 characters long"],
});

/** SettleMint application, personal and service access tokens. */
export const settlemint: Rule = token({
  id: "settlemint_token",
  description: "SettleMint application (sm_aat_), personal (sm_pat_) and service (sm_sat_) token",
  placeholder: "<SETTLEMINT_TOKEN>",
  keywords: ["sm_aat_", "sm_pat_", "sm_sat_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sm_[aps]at_[A-Za-z0-9]{16}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: ["SETTLEMINT_ACCESS_TOKEN=sm_pat_euOp0FtXnTnlrGW1"],
  falsePositives: ["sm_pat_settings_page"],
});

/** MaxMind licence keys. */
export const maxmind: Rule = token({
  id: "maxmind_license_key",
  description: "MaxMind GeoIP licence key (…_mmk)",
  placeholder: "<MAXMIND_KEY>",
  keywords: ["_mmk"],
  startsAtKeyword: true,
  // Starts at the literal `_mmk` and looks back for the rest: a leading class made V8 try every offset.
  pattern: () => /(?<=(?<![\w-])(?<head>[A-Za-z0-9]{6}_[A-Za-z0-9]{29}))_mmk(?![\w-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: ["MAXMIND_LICENSE_KEY=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"],
  falsePositives: ["geoip_update_license_key_mmk"],
});

/** HubSpot private app access tokens. */
export const hubspot: Rule = token({
  id: "hubspot_token",
  description: "HubSpot private app access token (pat-na1-uuid, pat-eu1-uuid)",
  placeholder: "<HUBSPOT_TOKEN>",
  keywords: ["pat-na", "pat-eu", "pat-ap"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])pat-(?:na|eu|ap)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?![\w-])/dg,
  truePositives: [
    'hubspot.Client(access_token="pat-na1-3b27b78c-25ee-4cce-a7e3-3b667bacadba")',
  ],
  falsePositives: ["pat-na1 is the North America region"],
});

/** Adobe and 42 (Intra) OAuth client secrets. */
export const oauthClientSecrets: Rule = token({
  id: "oauth_client_secret",
  description: "Adobe (p8e-) and 42 Intra (s-s4t2ud-, s-s4t2af-) OAuth client secret",
  placeholder: "<CLIENT_SECRET>",
  keywords: ["p8e-", "s-s4t2"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:p8e-[A-Za-z0-9]{32}|s-s4t2(?:ud|af)-[a-f0-9]{64})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "ADOBE_CLIENT_SECRET=p8e-ycacgscKQ61lTNOkxT72PdynN7VktlXD",
    "FT_SECRET=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",
  ],
  falsePositives: ["p8e-setup-guide"],
});

/** Defined Networking (Managed Nebula) API keys. */
export const definedNetworking: Rule = token({
  id: "defined_networking_key",
  description: "Defined Networking (Managed Nebula) API key (dnkey-…-…)",
  placeholder: "<DNKEY>",
  keywords: ["dnkey-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])dnkey-[\w=-]{26}-[\w=-]{52}(?![\w=-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "DN_API_KEY=dnkey-I-LOEujyLHCA1jVgxxuo-o6Bzh-qOXkx9c1FPLk27JtcwdJDUTF-c63ocTu6chmTL7uLI-NqNWoUtba",
  ],
  falsePositives: ["dnkey-rotation-runbook"],
});

/** Mailgun webhook signing keys. */
export const mailgunSigning: Rule = token({
  id: "mailgun_signing_key",
  description: "Mailgun webhook signing key (32 hex-8 hex-8 hex) where Mailgun is named",
  placeholder: "<MAILGUN_KEY>",
  keywords: ["mailgun"],
  // Starts at the first `-` and looks back for the 32 hex digits before it (a leading class: every offset).
  pattern: () => /(?<=(?<![\w-])(?<head>[a-f0-9]{32}))-[a-f0-9]{8}-[a-f0-9]{8}(?![\w-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: ["MAILGUN_WEBHOOK_SIGNING_KEY=126a14e7f8fa49ffd78c55a04b431dba-cf32a93e-5c04dc25"],
  falsePositives: ["00000000000000000000000000000000-00000000-00000000"],
});

/** Sidekiq Enterprise / Pro gem credentials. */
export const sidekiq: Rule = {
  id: "sidekiq_credentials",
  description:
    "Sidekiq Pro / Enterprise gem credentials (8 hex:8 hex), as a Bundler setting or in the gem URL",
  placeholder: "<SIDEKIQ_SECRET>",
  keywords: ["contribsys"],
  // Starts at the literal `contribsys` or at the URL's scheme, never at a lookbehind (every offset).
  pattern: () =>
    new RegExp(
      "contribsys(?:__com[\"']?[ \\t]{0,3}[=:][ \\t]{0,3}[\"']?|\\.com[ \\t]{1,4})(?<secret>[a-f0-9]{8}:[a-f0-9]{8})(?![\\w:-])" +
        "|https?://(?<secret>[a-f0-9]{8}:[a-f0-9]{8})(?=@(?:gems|enterprise)\\.contribsys\\.com)",
      "dgi",
    ),
  secretGroup: "secret",
  priority: 800,
  validators: [notPlaceholder, minEntropy(2.5)],
  allowlist: [],
  truePositives: [
    "BUNDLE_ENTERPRISE__CONTRIBSYS__COM=00b50545:548ca639",
    "bundle config --local gems.contribsys.com c82300b8:cca6758c",
    'source "https://2b7204b6:fa3c024e@enterprise.contribsys.com/"',
  ],
  falsePositives: ["BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ_CREDS}"],
};

/** crates.io API tokens. */
export const cratesIo: Rule = token({
  id: "crates_io_token",
  description: "crates.io API token (cio + 32)",
  placeholder: "<CRATES_IO_TOKEN>",
  keywords: ["cio"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])cio[A-Za-z0-9]{32}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: ["CARGO_REGISTRY_TOKEN=cioz0KgtkPpj6jwORyaoV6fXfJ44t1yOdjZ cargo publish"],
  falsePositives: ["cioConfigurationLoaderForTheWebApp"],
});

/** Dagster+ (Dagster Cloud) agent tokens: `agent:`, the organization, 32 hex digits. */
export const dagsterAgentToken: Rule = token({
  id: "dagster_agent_token",
  description: "Dagster+ agent token (agent:<organization>:<32 hex>)",
  placeholder: "<DAGSTER_TOKEN>",
  keywords: ["agent:"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w:-])agent:[a-z0-9][a-z0-9-]{0,62}:[a-f0-9]{32}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "dagster_cloud_api:\n  agent_token: agent:north-wind:3f9a0c27d4e18b6f5a2c9e0d7b4f1a86",
  ],
  falsePositives: ["user_agent: agent:smith:00000000000000000000000000000000"],
});

/** StackHawk API keys. */
export const stackhawk: Rule = token({
  id: "stackhawk_key",
  description: "StackHawk API key (hawk.….…)",
  placeholder: "<STACKHAWK_KEY>",
  keywords: ["hawk."],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w.-])hawk\.[\w-]{20}\.[\w-]{20}(?![\w.-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: ['HAWK_API_KEY="hawk.59FrBqslkNbRYytu3qgx.wWiHaTRMEr7dMZwo2aas"'],
  falsePositives: ["hawk.config.scanner_settings_file"],
});

/** Amazon Marketplace Web Service auth tokens. */
export const amazonMws: Rule = token({
  id: "amazon_mws_token",
  description: "Amazon MWS auth token (amzn.mws.uuid)",
  placeholder: "<MWS_TOKEN>",
  keywords: ["amzn.mws."],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w.-])amzn\.mws\.[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?![\w-])/dg,
  truePositives: ["MWS_AUTH_TOKEN=amzn.mws.a8f0ef03-9d91-8fd2-7fb4-f072104d4430"],
  falsePositives: ["amzn.mws.00000000-0000-0000-0000-000000000000"],
});

/** Salesforce session / OAuth access tokens (org id, `!`, token). */
export const salesforce: Rule = token({
  id: "salesforce_token",
  description: "Salesforce access token (00D org id ! token)",
  placeholder: "<SALESFORCE_TOKEN>",
  keywords: ["00d"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,120}(?![\w.-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    'sf org display --json | jq .result.accessToken\n"00DPsEPha4MFZnerH6!II.7lZjPLKwVJveQI6RWMS3vvMI7dY0K30rYf6xhmzIB1JjGxpeYeD024mwKR.VtvrGrCyf19dg7ZwChrf9Gmm9vW6rdB3oC"',
  ],
  falsePositives: ["order 00D5e000000ABCD!pending"],
});

/** ClickUp personal API tokens, PostHog personal API keys and Honeycomb API keys. */
export const workTools: Rule = token({
  id: "work_tool_token",
  description:
    "ClickUp personal token (pk_<user id>_…), PostHog personal API key (phx_) and Honeycomb key (hcaik_, hcxik_, hcamk_, hcxmk_)",
  placeholder: "<API_TOKEN>",
  keywords: ["pk_", "phx_", "hcaik_", "hcxik_", "hcamk_", "hcxmk_"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:pk_\d{5,12}_[A-Z0-9]{32}|phx_[A-Za-z0-9]{40,50}|hc[ax][im]k_[A-Za-z0-9]{20,80})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "CLICKUP_TOKEN=pk_26007769_8T0CDTMEFZSXO5O3FQW1SNSMU54J6VGB",
    'posthog = Posthog(personal_api_key="phx_8xVC1icivezRRk1Jii1T3TVzI0hZsEfwWxwj7FmKWdvmgNM", host="https://eu.posthog.com")',
    "HONEYCOMB_API_KEY=hcaik_bc9cj140qpo3scy0xztwr56g6lk0jtwygfv4r9tdmhpdj90b3zo4zmn81z",
  ],
  falsePositives: ["the project key phc_ is public; pk_test_ keys are publishable"],
});

/** Adafruit IO keys. */
export const adafruit: Rule = token({
  id: "adafruit_io_key",
  description: "Adafruit IO key (aio_ + 28 characters)",
  placeholder: "<API_TOKEN>",
  keywords: ["aio_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])aio_[A-Za-z0-9]{28}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: ["io = Client('maker', 'aio_Xk8Lq2Wm7Rz4Tn9Vb3Pc6Hd1Jf5G')"],
  falsePositives: ["the aio_config_loader_module_settings_v2 module"],
});

/**
 * Kafka clients' credentials for Confluent's Schema Registry:
 * `basic.auth.user.info=KEY:SECRET`, the secret after the colon.
 */
export const schemaRegistryUserInfo: Rule = {
  id: "schema_registry_user_info",
  description:
    "Schema Registry credentials in a Kafka client's config (basic.auth.user.info=KEY:SECRET)",
  placeholder: "<SECRET>",
  keywords: ["basic.auth.user.info"],
  startsAtKeyword: true,
  pattern: () =>
    /basic\.auth\.user\.info\\{0,3}["']?[ \t]{0,4}[=:][ \t]{0,4}\\{0,3}["']?[^\s:"'\\]{1,100}:(?<secret>[^\s"'\\]{8,512})/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    "basic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=Q2VY8U8T1RN68EWZ:9DZRK1fAL/COMs+le05laE/X7Qp4gox9UbbBpYtXpE30Sq+79CV2UCsmJ",
  ],
  falsePositives: ["basic.auth.user.info=${SR_KEY}:${SR_SECRET}"],
};

/** The platform family. */
/** Whether a `$` in `text` follows twelve lowercase hex digits (a UUID's last part). */
function hexBeforeDollar(text: string): boolean {
  for (let at = text.indexOf("$"); at !== -1; at = text.indexOf("$", at + 1)) {
    if (at < 12) continue;
    let hex = 0;
    while (hex < 12) {
      const code = text.charCodeAt(at - 1 - hex);
      if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) break;
      hex++;
    }
    if (hex === 12) return true;
  }
  return false;
}

/**
 * SAP BTP's XSUAA client secrets, `<binding uuid>$<base64>`: the part after
 * the dollar is the secret (the uuid names the binding).
 */
export const sapXsuaaSecret: Rule = token({
  id: "sap_xsuaa_secret",
  description: "SAP BTP XSUAA client secret (the base64 after <uuid>$)",
  placeholder: "<SAP_SECRET>",
  keywords: ["$"],
  startsAtKeyword: true,
  // Code is full of `$`: the pattern is made only for a text with a hex digit's run before one.
  precheck: (facts) => hexBeforeDollar(facts.text),
  pattern: () =>
    /\$(?<=\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\$)(?<secret>[A-Za-z0-9_+/-]{24,200}={0,2})(?![\w+/=-])/dg,
  secretGroup: "secret",
  validators: [notPlaceholder, minEntropy(3.5)],
  truePositives: [
    "CLIENT_SECRET=9d2e4c1a-7b3f-4e8d-a6c5-2f1b0e9d8c7a$Vq8mZ2xLp5Rt7Kw9Pn4Yb6Hc1Jd3Fs0GaUe4Io7Qw3=",
  ],
  falsePositives: [
    "session 9d2e4c1a-7b3f-4e8d-a6c5-2f1b0e9d8c7a$ cost 4 and $HOME stays",
  ],
});

/**
 * Tableau's personal access token secret: `<22 base64>==:<32 characters>`.
 * Starts at `==:` and looks back for the rest, which `secretFrom` then takes.
 */
export const tableauPat: Rule = token({
  id: "tableau_pat_secret",
  description: "Tableau personal access token secret (base64==:32 characters)",
  placeholder: "<API_TOKEN>",
  keywords: ["==:"],
  startsAtKeyword: true,
  pattern: () => /==:(?<=(?<![\w+/])(?<head>[A-Za-z0-9+/]{22})==:)[A-Za-z0-9]{32}(?![\w+/])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, minEntropy(3)],
  truePositives: [
    'TSC.PersonalAccessTokenAuth("refresh-bot", "d54Was6zmQfzQ7Cxx/NEAA==:b7VGYGCBdMoBoC9pvDPdUPIM2HIdq7fh")',
  ],
  falsePositives: ['TSC.PersonalAccessTokenAuth("bot", os.environ["TABLEAU_PAT"])'],
});

/** FiveM's server licence key (`cfxk_…`) and a Steam game server login token after `+sv_setsteamaccount`. */
export const gameServerToken: Rule = token({
  id: "game_server_token",
  description: "FiveM licence key (cfxk_), Steam game server login token (+sv_setsteamaccount)",
  placeholder: "<API_TOKEN>",
  keywords: ["cfxk_", "sv_setsteamaccount"],
  startsAtKeyword: true,
  pattern: () =>
    new RegExp(
      "\\b(?<secret>cfxk_[A-Za-z0-9_]{20,60})(?![\\w-])" +
        "|\\bsv_setsteamaccount[ \\t]{1,4}(?<secret>[0-9A-F]{32})(?![\\w-])",
      "dg",
    ),
  secretGroup: "secret",
  validators: [notPlaceholder, minEntropy(3)],
  truePositives: [
    'sv_licenseKey "cfxk_n60hFnsLZmzAmbhMNwHm_ciDwet"',
    "./cs2 -dedicated +map de_ancient +sv_setsteamaccount 237FA602A0B883F99FD5BD29810040D8 -port 27015",
  ],
  falsePositives: ['sv_licenseKey "changeme"', "+sv_setsteamaccount $GSLT_TOKEN"],
});

/**
 * A Tuya device's local key: 16 printable characters that encrypt the
 * device's LAN protocol, as tinytuya's wizard and Home Assistant's local
 * integrations print them (`"key": "TTb~Gpv.YmfkQRjO"`, `local_key: …`),
 * in a text that names Tuya.
 */
export const tuyaLocalKey: Rule = token({
  id: "tuya_local_key",
  description:
    "Tuya device local key (16 printable characters) under `key` or `local_key`, in a text naming Tuya",
  placeholder: "<TUYA_KEY>",
  keywords: ["tuya"],
  pattern: () =>
    /(?:"(?:local_?key|key)"|(?<![\w-])local_?key)[ \t]*[:=][ \t]*(?<quote>["']?)(?<secret>[!-~]{16})\k<quote>(?=[\s,;}\]]|$)/dgi,
  secretGroup: "secret",
  validators: [
    notPlaceholder,
    minEntropy(3),
    function threeKinds(c) {
      return charClasses(c.secret) >= 3 ? undefined : "fewer than three kinds of character";
    },
  ],
  truePositives: [
    'tinytuya wizard:\n  {\n    "name": "Dehumidifier",\n    "id": "bf9vygab8kje7gqxwkygdw",\n    "key": "Wq~Hxm.RbtkPZnYe",\n    "mac": "11:40:3e:f6:34:e2"\n  }',
    "# tuya local\nlocal_key: 4f&Kq9!zR2mXw8Lp",
  ],
  falsePositives: [
    'tuya devices.json: "key": "YOUR_LOCAL_KEY_HERE"',
    'tuya: "key": "abcdefghijklmnop"',
  ],
});

/**
 * A Proxmox VE API token's secret, a UUID, in its header
 * (`Authorization: PVEAPIToken=USER@REALM!TOKENID=SECRET`): the user, realm
 * and token id name it, the UUID opens it.
 */
export const proxmoxApiToken: Rule = token({
  id: "proxmox_api_token",
  description: "Proxmox VE API token secret (the UUID after PVEAPIToken=USER@REALM!ID=)",
  placeholder: "<PROXMOX_TOKEN>",
  keywords: ["pveapitoken"],
  pattern: () =>
    /\bPVEAPIToken[ \t]*[=:][ \t]*[\w.-]{1,64}@[\w.-]{1,64}![\w.-]{1,64}[=:](?<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])/dg,
  secretGroup: "secret",
  validators: [notPlaceholder],
  truePositives: [
    "curl -H 'Authorization: PVEAPIToken=backup@pve!restic=4c1e8a2b-7d3f-4b6a-9e05-2f8c1d7a6b39' https://pve.lan:8006/api2/json/nodes",
    'proxmox_api_token: "PVEAPIToken=terraform@pam!tf=9a7b3c1d-2e4f-4a6b-8c0d-1e3f5a7b9c2d"',
  ],
  falsePositives: [
    "Authorization: PVEAPIToken=USER@REALM!TOKENID=UUID",
    "PVEAPIToken=backup@pve!restic=00000000-0000-0000-0000-000000000000",
  ],
});

/**
 * Duo's secret key (`skey`, 40 letters and digits) in an Authentication
 * Proxy or Duo Unix config, beside its integration key (`ikey`, public).
 */
export const duoSecretKey: Rule = token({
  id: "duo_secret_key",
  description: "Duo integration secret key (skey=, 40 characters) in a Duo config",
  placeholder: "<DUO_SKEY>",
  keywords: ["skey"],
  pattern: () =>
    // After a line break written out too (`\\nskey=…`, the file inside a JSON string).
    /(?:\bskey|(?<=\\[nrt])skey)[ \t]*[=:][ \t]*["']?(?<secret>[A-Za-z0-9]{40})(?![A-Za-z0-9])/dg,
  secretGroup: "secret",
  validators: [notPlaceholder, minEntropy(3.5), hasDigitAndLetter],
  truePositives: [
    "[radius_server_auto]\nikey=DIWJ8X6AEYOR5OMC6TQ1\nskey=Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Js5Gf0Aa8Ee3Uu2I\napi_host=api-xxxxxxxx.duosecurity.com",
    "; /etc/duo/login_duo.conf\n[duo]\nikey = DIXXXXXXXXXXXXXXXXXX\nskey = 7kW2pQ9xL4mN8vR3tY6zB1cF5hJ0gD2sA9eU4iO7",
    '{"file_path": "C:\\\\duo\\\\authproxy.cfg", "content": "[radius_server_auto]\\nikey=DIWJ8X6AEYOR5OMC6TQ1\\nskey=Rz5Tq8Vx2Lk7Wz3Pn9Yb4Hc6Jd1Mf0Gs3Aa8Ee2U"}',
  ],
  falsePositives: [
    "skey=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "skey = YOUR_SECRET_KEY_FROM_THE_DUO_ADMIN_PANEL",
  ],
});

/** Whether a text names OpenWeather; asked once per text. */
const namesOpenWeatherIn = perText((text) => /openweather/i.test(text));

/** OpenWeather API keys, which travel as a request's `appid`. */
export const openWeatherKey: Rule = token({
  id: "openweather_api_key",
  description: "OpenWeather API key (32 hex) as the appid of a request, with OpenWeather named",
  placeholder: "<OPENWEATHER_KEY>",
  keywords: ["appid"],
  pattern: () => /\b(?:appid|APPID)=(?<secret>[0-9a-f]{32})(?![0-9A-Za-z])/dg,
  secretGroup: "secret",
  validators: [
    notPlaceholder,
    function namesOpenWeather(c) {
      // Another service's `appid` is an id (Agora's 32 hex ones too): OpenWeather's is its key.
      return namesOpenWeatherIn(c.text) ? undefined : "no OpenWeather named";
    },
  ],
  truePositives: [
    "const url = `https://api.openweathermap.org/data/2.5/weather?q=${city}&appid=5c0e91a7d3b84f26e1a9c7d0b3f5e8a2`;",
  ],
  falsePositives: [
    "https://api.openweathermap.org/data/2.5/weather?q=Hanoi&appid=${OPENWEATHER_KEY}",
    "agora: appid=9d3f0c2b7a6e41d58c1b0e7f3a2d9c64",
  ],
});

export const platforms: Rule[] = [
  tuyaLocalKey,
  proxmoxApiToken,
  duoSecretKey,
  tableauPat,
  gameServerToken,
  sapXsuaaSecret,
  schemaRegistryUserInfo,
  onePasswordSecretKey,
  authress,
  harness,
  sourcegraph,
  clickhouse,
  openshift,
  settlemint,
  maxmind,
  hubspot,
  oauthClientSecrets,
  definedNetworking,
  mailgunSigning,
  sidekiq,
  cratesIo,
  dagsterAgentToken,
  stackhawk,
  amazonMws,
  salesforce,
  workTools,
  adafruit,
  openWeatherKey,
];

/**
 * NATS NKEY seeds (`SU…` a user's, `SA…` an account's, `SO…` an operator's),
 * what a `.creds` file holds under `BEGIN USER NKEY SEED`: the private half.
 */
export const natsNkeySeed: Rule = token({
  id: "nats_nkey_seed",
  description:
    "NATS NKEY seed (S + U, A, O, N, C or X + 56 base32), the private key of a NATS identity",
  placeholder: "<NATS_SEED>",
  // Seeds stand beside the word NKEY or seed, in a .creds file or a NATS config.
  keywords: ["nkey", "seed", "nats"],
  pattern: () => /\b(?<![\w-])S[UAONCX][A-Z2-7]{56}(?![\w-])/dg,
  truePositives: [
    "-----BEGIN USER NKEY SEED-----\nSUAM2RJ3KQ7XWZ4LB5N6P7YDHCVE3F2GT4JQK5RM6WN7XP2ZB3YC4DV5EQ\n------END USER NKEY SEED------",
  ],
  falsePositives: [
    "nats: seed SUAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  ],
});

/** HashiCorp Vault tokens of the format before 1.10 (s., b. or r. + 24 or more). */
export const vaultLegacy: Rule = token({
  id: "vault_legacy_token",
  description:
    "HashiCorp Vault service, batch or recovery token of the format before 1.10 (s., b. or r. + 24 to 32, mixed case)",
  placeholder: "<VAULT_TOKEN>",
  keywords: ["s.", "b.", "r."],
  // Starts at the literal, so V8 skips ahead to each "s." instead of trying every offset.
  pattern: () => /[sbr]\.(?<=(?<![\w.$/-])[sbr]\.)[A-Za-z0-9]{24,32}(?![\w.-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, mixedCase, minEntropy(3.8)],
  truePositives: [
    "export VAULT_TOKEN=s.Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1",
    "vault token lookup b.Rk3vQ9mW2xLp7Tz4Hn8Bc5Yd1Jf",
    'recovery_token = "r.Zx7Kq2Wv9Lp4Rt8Mn3Bc6Hd1Jf"',
  ],
  falsePositives: [
    "s.toStringRepresentation",
    "this.s.Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1",
    "(r.responseBodyAsString, b.contentLengthLong)",
  ],
});

function mixedCase(c: { secret: string }): string | undefined {
  return /[a-z]/.test(c.secret) && /[A-Z]/.test(c.secret) ? undefined : "one letter case";
}
