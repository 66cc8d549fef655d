/**
 * Azure storage account keys and shared access keys inside connection
 * strings (`AccountKey=…`, `SharedAccessKey=…`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy } from "../_validators.ts";

/** The base64 key after `AccountKey=` or `SharedAccessKey=`. */
export const azure: Rule = {
  id: "azure_storage_key",
  description: "Azure storage AccountKey / SharedAccessKey in a connection string",
  placeholder: "<AZURE_KEY>",
  keywords: ["accountkey=", "sharedaccesskey="],
  startsAtKeyword: true,
  pattern: () => /(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{30,8192}={0,2})/dgi,
  secretGroup: "secret",
  priority: 650,
  validators: [minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz2Xc4Vb6Nm8Qw0Er2T+y/A==;EndpointSuffix=core.windows.net",
  ],
  falsePositives: [
    // The documented development-storage placeholder is too regular.
    "AccountKey=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
  ],
};
