/**
 * Social and content platform tokens that carry their own shape: Meta
 * (Facebook / Instagram) access tokens, Twitter / X app bearer tokens,
 * Dropbox short- and long-lived tokens, Mapbox secret tokens and Twitch
 * stream keys. Mapbox
 * public tokens (`pk.`) are meant for browsers and stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import {
  hasDigitAndLetter,
  minEntropy,
  notPlaceholder,
  placeholderProblem,
  shannonEntropy,
} from "../_validators.ts";
import { token } from "./_token.ts";

/**
 * The part of a token after a fixed run of `A`s (Twitter and Dropbox put one
 * in every token) must be random: the run itself is no placeholder.
 */
function randomAfterRun(c: Candidate): string | undefined {
  const tail = c.secret.replace(/^[a-z0-9]{0,11}A{10,22}/, "");
  const placeholder = placeholderProblem(tail);
  if (placeholder !== undefined) return placeholder;
  const h = shannonEntropy(tail);
  return h <= 4 ? `tail entropy ${h.toFixed(2)} ≤ 4` : undefined;
}

/** Meta (Facebook, Instagram, WhatsApp) user, page and app access tokens. */
export const meta: Rule = token({
  id: "meta_access_token",
  description:
    "Meta (Facebook / Instagram / WhatsApp) access token (EAA…, 100+ characters) and app token (app id|secret)",
  placeholder: "<META_TOKEN>",
  keywords: ["eaa", "|"],
  precheck: (facts) => facts.digitCluster() >= 13 || facts.startsWord("EAA"),
  pattern: () =>
    // The app form starts at its `|` and looks back for the id (a leading class: every offset).
    /(?<![\w-])EAA[B-Z][A-Za-z0-9]{90,400}(?![\w-])|(?<=(?<![\w-])(?<head>\d{15,16}))\|[A-Za-z0-9_-]{27,40}(?![\w-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "curl -G https://graph.facebook.com/v19.0/me -d access_token=EAAG9Z6vEpM7vsGrKXcb3ZFeR344mEsQnkJFgsROoHWL6khXIC6RVFwzT2geA2wSqgY9RPERw0cKayTmoGBEf3fQ7Xz3n5vFPDli8ofAkZGi1nzvDqUN8FoipbhDFWJm9uVzRY73Rcq4RIh637Hn3MJ2D83g1LiCaFR6kX5VqqC3nUJ5yGzFjOdW",
    'WHATSAPP_TOKEN="EAAM2V26yqpq4LI4ONh7whGr0uYydVfG0bsDQdB6US7bCLy5R2IgSR40QYAeilxKEpsN7NLK2Ki4To0asjw8PxvHqrnj0vb4abHhiKwyMy5VCoX1jG76jGyxcPXh"',
    "app_token = 0451066638632067|aAZBObVeTtc75bMliA44_Jd4eBwrwr0u",
  ],
  falsePositives: [
    "EAAGxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "order 1234567890123456|shipped-to-warehouse-north",
  ],
});

/** Twitter / X app-only bearer tokens. */
export const twitterBearer: Rule = token({
  id: "twitter_bearer_token",
  description: "Twitter / X app bearer token (21 A's, then 60–120 characters)",
  placeholder: "<TWITTER_TOKEN>",
  keywords: ["aaaaaaaaaaaaaaaaaaaaa"],
  startsAtKeyword: true,
  // The 21 A's written out: V8 skips ahead to a literal, not to a quantified character (8.7 → 0.2 ms/MiB).
  pattern: () => /\b(?<![\w-])AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{60,120}(?![\w%-])/dg,
  validators: [randomAfterRun],
  truePositives: [
    "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAA4B3IWvg3hbEghzFrLTzngu8IO9i7GVQcj6jec0czHmhhpLvCR4OzQTjHF14cstZ5xFNZgNj1bavGsg4He2a8Mx7LMOwA",
    // 21 A's, then the rest: URL-encoded `=` inside.
    "curl -H 'Authorization: Bearer AAAAAAAAAAAAAAAAAAAAAKq7Wm2Lx9Rt4Vn8Pz3Hb6Jc1Fd5Gs0Ue%3DTy8Ui2Op5As9Df3Gh7Jk1Lz4Xc8Vb2Nm6Qw0Er5Ty9Ui3Op7As1Df5Gh9Jk'",
  ],
  falsePositives: [
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  ],
});

/** Dropbox tokens. */
export const dropbox: Rule = token({
  id: "dropbox_token",
  description: "Dropbox short-lived access token (sl.) and long-lived token (11 + ten A's + 43)",
  placeholder: "<DROPBOX_TOKEN>",
  keywords: ["sl.", "aaaaaaaaaa"],
  startsAtKeyword: true,
  pattern: () =>
    // The long-lived form starts at its ten A's, written out, and looks back for
    // the eleven characters before them: V8 skips ahead to a literal (7.8 → 0.5 ms/MiB).
    /(?<![\w.-])sl\.(?:u\.)?[A-Za-z0-9_=-]{130,1400}(?![\w=-])|(?<=(?<![\w.-])(?<head>[a-z0-9]{11}))AAAAAAAAAA[A-Za-z0-9_=-]{43}(?![\w=-])/dg,
  secretFrom: "head",
  validators: [hasDigitAndLetter, randomAfterRun],
  truePositives: [
    'const dbx = new Dropbox({ accessToken: "sl.BV7GRVJNV4NxMW6JYhwTeNMokSxXJ-ZwBBGMUcbDZuINWHrClJScYWxVGlPG947pq0H3m-wyw5qODblzLpd9pUGnZCtYOca9Z6wzIP9E2Tvrl3K_GI3fPaXeS_nb_lUfg8h48PCkRNK" });',
    "DROPBOX_TOKEN=2a172q9cd0wAAAAAAAAAAR5nDBts60sGv2Eu8ZkiBh4wDfOPW1PEPoSNfnMtCmEd",
  ],
  falsePositives: ["sl.example_of_a_short_lived_token"],
});

/** Mapbox secret tokens. */
export const mapbox: Rule = token({
  id: "mapbox_secret_token",
  description: "Mapbox secret (sk.eyJ…) and temporary (tk.eyJ…) token; public pk. tokens stay",
  placeholder: "<MAPBOX_TOKEN>",
  keywords: ["sk.eyj", "tk.eyj"],
  startsAtKeyword: true,
  pattern: () => /(?<![\w.-])[st]k\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,40}(?![\w.-])/dg,
  truePositives: [
    "MAPBOX_DOWNLOADS_TOKEN=sk.eyJ1IjoiYaLd5Mm3tNxccGgMgoAezv8AiDa09qEbkYIDFsaZy4rF.7-nxg8XXkL1UtAJd1PBG0j",
  ],
  falsePositives: [
    "public tokens start with pk.eyJ1IjoiYWNtZSIsImEiOiJjbGZ4In0.Xk4v7Yq2Lm9Pn3Rt5Sw8Uw and stay",
  ],
});

/** Twitch stream keys. */
export const twitchStreamKey: Rule = token({
  id: "twitch_stream_key",
  description: "Twitch stream key (live_<user id>_<30 characters>), in an RTMP URL or alone",
  placeholder: "<TWITCH_KEY>",
  keywords: ["live_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])live_\d{6,12}_[A-Za-z0-9]{30}(?![\w-])/dg,
  // Above GoCardless' `live_` + 40, which a nine-digit id also fills.
  priority: 810,
  truePositives: [
    "ffmpeg -re -i in.mp4 -f flv rtmp://live.twitch.tv/app/live_8089953641_Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0",
  ],
  falsePositives: ["obs: set Stream Key to live_<user id>_<key> from the dashboard"],
});

/** The social and content platform family. */
/**
 * Any stream key in an RTMP ingest URL: the path's last part after `live2/`
 * (YouTube), `app/` (Twitch), `live/` (Facebook, Kick, most servers).
 */
export const rtmpStreamKey: Rule = {
  id: "rtmp_stream_key",
  description:
    "Stream key as the last part of an RTMP ingest URL (YouTube live2/, Twitch app/, live/)",
  placeholder: "<STREAM_KEY>",
  keywords: ["rtmp"],
  startsAtKeyword: true,
  pattern: () =>
    /\brtmps?:\/\/[\w.-]{1,253}(?::\d{1,5})?\/(?:[\w.-]{1,40}\/){0,2}(?:live2?|app|stream)\/(?<secret>[\w-]{12,256})(?![\w\/-])/dg,
  secretGroup: "secret",
  priority: 700,
  validators: [notPlaceholder, minEntropy(3)],
  allowlist: [],
  truePositives: [
    '-f tee "[f=flv]rtmp://a.rtmp.youtube.com/live2/hx36-sgws-l8vp-foxt-fp8n|[f=flv]rtmp://x"',
    "rtmps://live-api-s.facebook.com:443/rtmp/live/FB-1093482771-0-AbxYq7TqZrL9mW2",
  ],
  falsePositives: [
    "rtmp://a.rtmp.youtube.com/live2/<stream-key>",
    "rtmp://localhost/live/test_stream",
  ],
};

export const social: Rule[] = [
  meta,
  twitterBearer,
  dropbox,
  mapbox,
  twitchStreamKey,
  rtmpStreamKey,
];
