/**
 * Microsoft tokens beyond storage connection strings: the signature of an
 * Azure shared access signature (SAS) URL and Azure DevOps personal access
 * tokens in their current shape (84 characters, `AZDO` at 77–80), and the
 * secret of an App Configuration connection string.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";

/** The `sig=` of an Azure SAS URL or token (base64, often percent-encoded). */
export const azureSasSignature: Rule = {
  id: "azure_sas_signature",
  description: "Azure shared access signature: the sig= value of a SAS URL or token",
  placeholder: "<AZURE_SAS>",
  keywords: ["sig="],
  startsAtKeyword: true,
  pattern: () =>
    // A mail client may wrap a long URL: a signature cut short of 40 goes on at the next line.
    /(?<=[?&;\s"'])sig=(?<secret>(?:[A-Za-z0-9%+/]{40,120}|[A-Za-z0-9%+/]{16,39}\r?\n[A-Za-z0-9%+/]{4,120})={0,2}(?:%3[Dd]){0,2})(?![A-Za-z0-9%+/=])/dg,
  secretGroup: "secret",
  priority: 650,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "az storage blob download --blob-url 'https://acme.blob.core.windows.net/b/f.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=GorWTeAWY80tYZnGej4OorYhTjH7Bw%2BuGK5sxwvVEks%3D'",
    "AZURE_SAS_TOKEN=sv=2021-06-08&ss=bfqt&srt=sco&sp=rwdlacupitfx&se=2025-12-31T23:59:59Z&sig=uTtXQNGdnywrcy15XeOTXwF4m4nDiBxpOPAzXSWTqxR%3D",
    "use this link (it wrapped):\nhttps://acme.blob.core.windows.net/m/2024-03?sv=2022-11-02&sp=rl&sig=w7QyIrypjhQZMkkInnc%2Bkj6qIiqm\nTCbB7p3ZEppSTPz%3D\n\nThanks",
  ],
  falsePositives: [
    "https://acme.blob.core.windows.net/b/f.csv?sv=2022-11-02&sig=<signature>",
    // A short `sig=` of something else, then a word on the next line.
    "curl 'https://api.lan/v1/check?sig=abc123def456ghi789'\nThanks",
  ],
};

/** Azure DevOps personal access tokens, current format. */
export const azureDevOps: Rule = token({
  id: "azure_devops_pat",
  description: "Azure DevOps personal access token (84 characters with AZDO at 77–80)",
  placeholder: "<AZURE_DEVOPS_PAT>",
  keywords: ["azdo"],
  startsAtKeyword: true,
  // Starts at the literal `AZDO` and looks back for the 76 characters before it (a leading class: every offset).
  pattern: () => /(?<=(?<![\w-])(?<head>[A-Za-z0-9]{76}))AZDO[A-Za-z0-9]{4}(?![\w-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "echo xoshDpmthWXEeaGH5fU8xbZkQdt67knbxMvAqRCAJrTwZb4P3Mfuo5KNBIYQkYTFMXnzCOawlLBfAZDOnPeu | az devops login --organization https://dev.azure.com/acme",
  ],
  falsePositives: ["AZDO_PERSONAL_ACCESS_TOKEN=AZDO"],
});

/** The secret of an Azure App Configuration connection string. */
export const azureAppConfig: Rule = {
  id: "azure_app_config_secret",
  description: "Azure App Configuration connection string: the Secret= after …azconfig.io;Id=…",
  placeholder: "<AZURE_KEY>",
  keywords: [".azconfig.io"],
  startsAtKeyword: true,
  pattern: () =>
    /\.azconfig\.io;\s{0,4}Id=[\w+/:-]{8,40};\s{0,4}Secret=(?<secret>[A-Za-z0-9+/]{36,60}={0,2})(?![\w+/=])/dg,
  secretGroup: "secret",
  priority: 650,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    'APP_CONFIG="Endpoint=https://acme-prod.azconfig.io;Id=jezP-LR-s0:aZfFlZMmzrUpLXFDoUho;Secret=BxnSWuiRp1oIW6sAte07jsy2zdvkqecEVlgpnIlIzI2="',
  ],
  falsePositives: ["Endpoint=https://contoso.azconfig.io;Id=xxx;Secret=xxx"],
};

/** The key that registers a self-hosted integration runtime with Azure Data Factory. */
export const azureDataFactoryKey: Rule = token({
  id: "azure_data_factory_key",
  description:
    "Azure Data Factory self-hosted integration runtime key (IR@<id>@<factory>@<region>@<key>)",
  placeholder: "<AZURE_KEY>",
  keywords: ["ir@"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w@-])IR@[0-9a-fA-F-]{36}@[\w.-]{1,90}@[\w-]{1,40}@[A-Za-z0-9+/]{43}=(?![\w+/=])/dg,
  truePositives: [
    'dmgcmd -Key "IR@a1b2c3d4-e5f6-4789-abcd-ef0123456789@contoso-adf@westeurope@Qm7Rt2Vx9Kp4Lz8Nw3Hy6Jb1Fc5Dg0Sa7Qm7Rt2Vx9K="',
  ],
  falsePositives: ["the key has the form IR@<guid>@<factory>@<region>@<secret>"],
});

/** The Microsoft family (storage connection strings live in `azure.ts`). */
export const microsoft: Rule[] = [
  azureSasSignature,
  azureDevOps,
  azureAppConfig,
  azureDataFactoryKey,
];
