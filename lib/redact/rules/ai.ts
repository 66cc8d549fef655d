/**
 * AI platform keys with their own prefix, besides OpenAI, Anthropic and
 * Hugging Face (files of their own): Groq, Replicate, Perplexity, xAI,
 * OpenRouter, LangSmith, Pinecone, NVIDIA, Tavily, ElevenLabs and Langfuse.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** Prefixed AI platform keys. */
export const aiKeys: Rule = token({
  id: "ai_api_key",
  description:
    "Groq (gsk_), Replicate (r8_), Perplexity (pplx-), xAI (xai-), LangSmith (lsv2_) and Pinecone (pcsk_) API keys",
  placeholder: "<AI_API_KEY>",
  keywords: ["gsk_", "r8_", "pplx-", "xai-", "lsv2_", "pcsk_"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:gsk_[A-Za-z0-9]{52}|r8_[A-Za-z0-9]{37}|pplx-[A-Za-z0-9]{48}|xai-[A-Za-z0-9]{80}|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}|pcsk_[A-Za-z0-9]{5,8}_[A-Za-z0-9]{50,70})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    'export GROQ_API_KEY="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"',
    "REPLICATE_API_TOKEN=r8_e6BrEu7aE9ywd6jXdapK7tx2DLZWW3tm98mh1",
    "PERPLEXITY_API_KEY=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",
    "XAI_API_KEY=xai-4iWWhSg3Y0rxppvaOc0OVqST1pRnqJfJrZsZh3aYlrcU8VKRYVNnu9ZwlRQJmvTDCImX12w5kcpBZ77S",
    "LANGSMITH_API_KEY=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",
    "PINECONE_API_KEY=pcsk_PxTM2d_nI5FOEgjVzmfrAvxfwgAPFDlzmYYHSlowTKpV7AqHXn9Bb7dBbqELy9XuF4gNi9",
  ],
  falsePositives: ["gsk_placeholder and pplx-api-docs"],
});

/** OpenRouter keys (an `sk-` key of their own shape, named apart from OpenAI's). */
export const openrouter: Rule = token({
  id: "openrouter_key",
  description: "OpenRouter API key (sk-or-v1-)",
  placeholder: "<OPENROUTER_KEY>",
  keywords: ["sk-or-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sk-or-v1-[a-f0-9]{64}(?![\w-])/dg,
  priority: 795,
  truePositives: [
    "OPENROUTER_API_KEY=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",
  ],
  falsePositives: ["sk-or-v1- keys are OpenRouter's"],
});

/** More AI and agent platform keys with a prefix of their own. */
export const aiKeysMore: Rule = token({
  id: "ai_platform_key",
  description:
    "NVIDIA (nvapi-), Tavily (tvly-), ElevenLabs (sk_ + 48 hex) and Langfuse (sk-lf-) secret keys",
  placeholder: "<AI_API_KEY>",
  keywords: ["nvapi-", "tvly-", "sk_", "sk-lf-"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:nvapi-[\w-]{64}|tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}|sk_[a-f0-9]{48}|sk-lf-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    'client = OpenAI(base_url="https://integrate.api.nvidia.com/v1", api_key="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")',
    "TAVILY_API_KEY=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",
    "ELEVENLABS_API_KEY=sk_a8df89d4d2b940dd1e9019a9c4aafac680440fe7f49f6437",
    "LANGFUSE_SECRET_KEY=sk-lf-3c26b90a-1106-4110-aaec-af3303c16013",
  ],
  falsePositives: ["nvapi- and tvly- keys go in the environment, never in code"],
});

/** The AI family. */
/** DeepL's API keys: a UUID with `:fx` (the free plan) after it. */
export const deepl: Rule = token({
  id: "deepl_api_key",
  description: "DeepL API key (a UUID with :fx)",
  placeholder: "<DEEPL_KEY>",
  keywords: [":fx"],
  startsAtKeyword: true,
  // Starts at `:fx` and looks back for the UUID (see `secretFrom`): a leading class made V8 try
  // every offset.
  pattern: () =>
    /:fx(?<=(?<![\w-])(?<head>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):fx)(?![\w-])/dg,
  secretFrom: "head",
  truePositives: [
    "Der DeepL-API-Schlüssel ist 3c9f0a1e-7b2d-4c8e-9f6a-5d1b3e7c9a2f:fx, Limit 500.000 Zeichen",
  ],
  falsePositives: ["auth_key = 00000000-0000-0000-0000-000000000000:fx"],
});

export const ai: Rule[] = [aiKeys, openrouter, aiKeysMore, deepl];
