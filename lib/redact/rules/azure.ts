/**
 * Azure storage account keys and shared access keys inside connection
 * strings (`AccountKey=…`, `SharedAccessKey=…`), and as `az storage account
 * keys list` prints them (`"keyName": "key1", … "value": "…=="`).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { minEntropy } from "../_validators.ts";

/** The base64 key after `AccountKey=` or `SharedAccessKey=`. */
export const azure: Rule = {
  id: "azure_storage_key",
  description:
    "Azure storage AccountKey / SharedAccessKey in a connection string, or a key az storage account keys list prints",
  placeholder: "<AZURE_KEY>",
  keywords: ["accountkey=", "sharedaccesskey=", "keyname"],
  pattern: () =>
    // A key the CLI lists: 64 bytes in base64 (86 characters and `==`) as the `value` of an
    // entry that has a `keyName`.
    /(?:(?:AccountKey|SharedAccessKey)=|"value"(?<=[Kk]ey[Nn]ame"[^{}]{0,200}"value")[ \t]*:[ \t]*"(?=[A-Za-z0-9+/]{86}=="))(?<secret>[A-Za-z0-9+/]{30,8192}={0,2})/dgi,
  secretGroup: "secret",
  priority: 650,
  validators: [minEntropy(3.5)],
  allowlist: [],
  truePositives: [
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz2Xc4Vb6Nm8Qw0Er2T+y/A==;EndpointSuffix=core.windows.net",
    '[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1Op3As5Df7Gh9Jk1Lz2Xc4Vb6Nm8Qw0Er2T+=="\n  }\n]',
  ],
  falsePositives: [
    // The documented development-storage placeholder is too regular.
    "AccountKey=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
  ],
};
