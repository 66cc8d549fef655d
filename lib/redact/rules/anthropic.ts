/**
 * Anthropic keys: API (`sk-ant-api03-`), admin (`sk-ant-admin01-`), and the
 * OAuth access and refresh tokens Claude Code uses (`sk-ant-oat01-`,
 * `sk-ant-ort01-`), and a Claude Code session's URL.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { notPlaceholder } from "../_validators.ts";

/** API and admin keys. */
export const anthropicKey: Rule = {
  id: "anthropic_key",
  description: "Anthropic API key (api03) and admin key (admin01)",
  placeholder: "<ANTHROPIC_KEY>",
  keywords: ["sk-ant-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sk-ant-(?:api|admin|sid)\d{2}-[\w-]{20,8192}(?![\w-])/dg,
  priority: 810,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "ANTHROPIC_API_KEY=sk-ant-api03-Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op-AbCdEfAA",
    "x-api-key: sk-ant-admin01-Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie8Ur3Yt-QwErAA",
  ],
  falsePositives: [
    // A template.
    "ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  ],
};

/** Claude Code OAuth access and refresh tokens. */
export const anthropicOauthToken: Rule = {
  id: "anthropic_oauth_token",
  description: "Claude Code OAuth access (oat01) and refresh (ort01) tokens",
  placeholder: "<ANTHROPIC_OAUTH_TOKEN>",
  keywords: ["sk-ant-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sk-ant-o(?:at|rt)\d{2}-[\w-]{20,8192}(?![\w-])/dg,
  priority: 810,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-Pq0Wo4Ie8Ur3Yt7Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io-Zz9AA",
    '"refreshToken":"sk-ant-ort01-Mn5Op7Qr9St1Uv3Wx5Yz7Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St-Uv3WAA"',
  ],
  falsePositives: [
    // Prose naming the prefix only.
    "OAuth tokens begin with sk-ant-oat01- and expire",
  ],
};

/** A Claude Code session's URL: whoever holds it may drive the session. */
export const claudeSessionUrl: Rule = {
  id: "claude_session_url",
  description: "Claude Code session URL (claude.ai/code/session_…): its session id",
  placeholder: "<CLAUDE_SESSION>",
  keywords: ["claude.ai/code/session_"],
  startsAtKeyword: true,
  pattern: () => /claude\.ai\/code\/(?<secret>session_[A-Za-z0-9]{16,64})(?![A-Za-z0-9])/dgi,
  secretGroup: "secret",
  priority: 810,
  validators: [notPlaceholder],
  allowlist: [],
  truePositives: [
    "Remote control is on: https://claude.ai/code/session_01Kq8Lm3Vx7Rt2Kw9Pn4Yb6H?ref=cli",
    "open HTTPS://CLAUDE.AI/code/session_01Tz4Vb6Nc1Kd5Fs0Ga2Ue4I to follow along",
  ],
  falsePositives: [
    "https://claude.ai/code/session_short",
    "https://claude.ai/chat/session_01Kq8Lm3Vx7Rt2Kw9Pn4Yb6H",
  ],
};

/** The Anthropic family. */
export const anthropic: Rule[] = [anthropicKey, anthropicOauthToken, claudeSessionUrl];
