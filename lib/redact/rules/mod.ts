/**
 * The rule list, in no particular order: the engine ranks overlapping matches
 * by each rule's `priority`. Adding a rule is one file and one line here.
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { anthropic } from "./anthropic.ts";
import { aws } from "./aws.ts";
import { azure } from "./azure.ts";
import { basicAuth, registryAuth } from "./basic_auth.ts";
import { bearer } from "./bearer.ts";
import { card, cardSecurityCode, pinCode } from "./card.ts";
import { cccd } from "./cccd.ts";
import {
  cookieJarSession,
  erlangCookie,
  namedSessionCookie,
  savedCookie,
  sessionCookie,
  sessionId,
} from "./cookie.ts";
import { email } from "./email.ts";
import { network } from "./network.ts";
import { brazilCpf, canadaSin, digitNationalId, letterNationalId } from "./national_id.ts";
import { namedPairRow, namedRowSecret, passwordTableCell, secretTableCell } from "./table_cell.ts";
import {
  clientKeyArgument,
  commandKeyArgument,
  commandSetSecret,
  defineSecret,
  genericKey,
  genericKeyDotLeader,
  genericKeyMarkup,
  genericKeyProse,
  genericKeyQuoted,
  genericKeySaid,
  genericKeyTable,
  licenceSerial,
  secretConfigLine,
  secretKeyValueListing,
  secretList,
  secretNameLetters,
  secretNextLine,
  secretSetInProse,
  secretUnderHeading,
  sqlAliasSecret,
  wordpressKeys,
} from "./generic_key.ts";
import { generatedSecret } from "./generated.ts";
import { github } from "./github.ts";
import { recoveryCode } from "./recovery_code.ts";
import { gitlab } from "./gitlab.ts";
import { google } from "./google.ts";
import { ai } from "./ai.ts";
import { cloud } from "./cloud.ts";
import { devtools } from "./devtools.ts";
import { messaging } from "./messaging.ts";
import { payments } from "./payments.ts";
import { huggingface } from "./huggingface.ts";
import { iban } from "./iban.ts";
import { bankAccount } from "./bank_account.ts";
import { jwt, jwtBase64 } from "./jwt.ts";
import { npm } from "./npm.ts";
import { openai } from "./openai.ts";
import { password } from "./password.ts";
import { phone } from "./phone.ts";
import {
  borgKey,
  jwkPrivateMember,
  minisignSecretKey,
  privateKey,
  privateKeyBase64,
  puttyPrivateKey,
} from "./private_key.ts";
import { privateSpan } from "./private_span.ts";
import { sendgrid } from "./sendgrid.ts";
import { slack } from "./slack.ts";
import { ssn, ssnValue } from "./ssn.ts";
import { stripe } from "./stripe.ts";
import { telegram } from "./telegram.ts";
import { travisSecure } from "./travis.ts";
import { dsnPassword, urlPassword, urlTokenUser } from "./url_password.ts";
import { webhookSecret } from "./webhook_secret.ts";
import { social } from "./social.ts";
import { natsNkeySeed, platforms, vaultLegacy } from "./platforms.ts";
import { microsoft } from "./microsoft.ts";
import { vendorNamed } from "./vendor_named.ts";
import { kubernetesSecret } from "./kubernetes.ts";

/** Every rule the redactor runs. */
export const RULES: readonly Rule[] = [
  privateSpan,
  privateKey,
  jwkPrivateMember,
  privateKeyBase64,
  ...anthropic,
  openai,
  ...github,
  gitlab,
  ...aws,
  ...slack,
  stripe,
  ...google,
  ...cloud,
  ...devtools,
  ...messaging,
  ...payments,
  ...ai,
  sendgrid,
  npm,
  huggingface,
  telegram,
  azure,
  webhookSecret,
  jwt,
  basicAuth,
  registryAuth,
  bearer,
  ...network,
  sessionCookie,
  namedSessionCookie,
  savedCookie,
  cookieJarSession,
  erlangCookie,
  sessionId,
  urlPassword,
  dsnPassword,
  urlTokenUser,
  ...password,
  passwordTableCell,
  secretTableCell,
  namedRowSecret,
  namedPairRow,
  genericKey,
  travisSecure,
  card,
  cardSecurityCode,
  pinCode,
  iban,
  bankAccount,
  cccd,
  ssn,
  ssnValue,
  brazilCpf,
  canadaSin,
  digitNationalId,
  letterNationalId,
  email,
  ...phone,
  genericKeyMarkup,
  genericKeyProse,
  genericKeySaid,
  commandSetSecret,
  defineSecret,
  licenceSerial,
  secretList,
  secretConfigLine,
  secretNameLetters,
  secretKeyValueListing,
  secretNextLine,
  secretUnderHeading,
  wordpressKeys,
  recoveryCode,
  generatedSecret,
  genericKeyTable,
  genericKeyDotLeader,
  secretSetInProse,
  commandKeyArgument,
  clientKeyArgument,
  sqlAliasSecret,
  genericKeyQuoted,
  ...social,
  ...platforms,
  vaultLegacy,
  natsNkeySeed,
  ...microsoft,
  vendorNamed,
  puttyPrivateKey,
  minisignSecretKey,
  borgKey,
  jwtBase64,
  kubernetesSecret,
];
