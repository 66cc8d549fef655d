/**
 * Developer-tool tokens that carry their own prefix: package registries
 * (PyPI, RubyGems, NuGet, Clojars, Docker Hub, JFrog), CI and code quality
 * (SonarQube, Buildkite, CircleCI, Codecov by context), observability
 * (Sentry, Grafana, New Relic, Dynatrace), work tools (Linear, Atlassian,
 * Bitbucket, Notion, Figma, Asana, Airtable, Contentful, ReadMe, Typeform,
 * Postman), and others (Prefect, LaunchDarkly, Infracost, Octopus Deploy,
 * Scalingo, Frame.io, age, Anaconda channels).
 *
 * @module
 */

import type { Rule } from "../_engine.ts";
import { hasDigitAndLetter, minEntropy, notPlaceholder } from "../_validators.ts";
import { token } from "./_token.ts";
import { decodeBase64 } from "../_base64.ts";

/** PyPI API tokens (a macaroon whose base64 names pypi.org or test.pypi.org). */
export const pypi: Rule = token({
  id: "pypi_token",
  description: "PyPI / TestPyPI upload token (pypi-AgEIcHlwaS5vcmc…)",
  placeholder: "<PYPI_TOKEN>",
  keywords: ["pypi-ag"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])pypi-Ag(?:EIcHlwaS5vcmc|ENdGVzdC5weXBpLm9yZw)[\w-]{50,8192}/dg,
  truePositives: [
    "twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcN54N9n4RtNk8FMQlM2UTs2VvWCSD5xVHHiZ4jfpMhekzy3aa2yPdppvZNicQtJeBJJ2_AiN3CZ6OD9M_yc4qXfutp9KN8Qj4vHjGJWqKokr6tGzE7pzqcyp4 dist/*",
    "[testpypi]\npassword = pypi-AgENdGVzdC5weXBpLm9yZw8ufgIDqkWilTgNAWIeAEFcUySfXJ8cwf2KfZQt6FCDGXUizl6U43HYXYI6qtrC90vfpMs3hLU8VXSwGQqiITHmh2ON",
  ],
  falsePositives: ["a token starts with pypi-AgEIcHlwaS5vcmc and goes on"],
});

/** RubyGems API keys. */
export const rubygems: Rule = token({
  id: "rubygems_key",
  description: "RubyGems API key (rubygems_)",
  placeholder: "<RUBYGEMS_KEY>",
  keywords: ["rubygems_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])rubygems_[a-f0-9]{48}(?![\w-])/dg,
  truePositives: ["GEM_HOST_API_KEY=rubygems_91250246ed7e596e65222a456f90a38e3ad7ac03a462fd6c"],
  falsePositives: ["rubygems_version_requirement"],
});

/** NuGet API keys. */
export const nuget: Rule = token({
  id: "nuget_key",
  description: "NuGet.org API key (oy2…)",
  placeholder: "<NUGET_KEY>",
  keywords: ["oy2"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])oy2[a-z0-9]{43}(?![\w-])/dg,
  truePositives: [
    "dotnet nuget push pkg.nupkg -k oy2cvryhg03uhy3bkl9sjt89mivjuu1woeoo3yfjse47a2 -s https://api.nuget.org/v3/index.json",
  ],
  falsePositives: ["oy2 is the start of a NuGet key"],
});

/** Clojars deploy tokens. */
export const clojars: Rule = token({
  id: "clojars_token",
  description: "Clojars deploy token (CLOJARS_)",
  placeholder: "<CLOJARS_TOKEN>",
  keywords: ["clojars_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])CLOJARS_[a-z0-9]{60}(?![\w-])/dg,
  truePositives: [
    "CLOJARS_PASSWORD=CLOJARS_h59f6reusf3jczqqdrn9c193truhb6d5suh10cks5qdlqei0h0grjzbf2tdq",
  ],
  falsePositives: ["CLOJARS_USERNAME=acme"],
});

/** Docker Hub personal and organisation access tokens. */
export const dockerHub: Rule = token({
  id: "docker_hub_token",
  description: "Docker Hub personal (dckr_pat_) and organisation (dckr_oat_) access token",
  placeholder: "<DOCKER_TOKEN>",
  keywords: ["dckr_pat_", "dckr_oat_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])dckr_[po]at_[\w-]{27,40}(?![\w-])/dg,
  truePositives: ["docker login -u acme -p dckr_pat_heKux32lHyRNXAv8K0cI4jC7_Ev"],
  falsePositives: ["dckr_pat_XXXXXXXXXXXXXXXXXXXXXXXXXXX"],
});

/** JFrog Artifactory API keys and identity tokens. */
export const jfrog: Rule = token({
  id: "jfrog_token",
  description: "JFrog API key (AKCp) and identity / reference token (cmVmd…, base64 of reftkn)",
  placeholder: "<JFROG_TOKEN>",
  keywords: ["akcp", "cmvmd"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59,8192})(?![\w-])/dg,
  truePositives: [
    "artifactory_api_key: AKCp7TnCTstgDJnq3QyQyHMdrJDa9OTB6H5mZCvkRYoUjghyDS3ElcNt7pOQw5Z1XCTS5csoB",
    'curl -H "Authorization: Bearer cmVmdGtuOjAxOjCTXj2iXOls0UqcukVAhYbeqH3dhQr2DO4195ig9ww4KM128n9T" https://acme.jfrog.io/artifactory/api/repositories',
  ],
  falsePositives: ["AKCp is JFrog's prefix"],
});

/** SonarQube / SonarCloud tokens. */
export const sonar: Rule = token({
  id: "sonar_token",
  description: "SonarQube / SonarCloud user (squ_), project (sqp_) and analysis (sqa_) token",
  placeholder: "<SONAR_TOKEN>",
  keywords: ["squ_", "sqp_", "sqa_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])sq[upa]_[a-f0-9]{40}(?![\w-])/dg,
  truePositives: ["mvn sonar:sonar -Dsonar.token=squ_fd54aadae7d3b0e7a6ccb732edc25b0569430288"],
  falsePositives: ["sqp_ marks a project token"],
});

/** Buildkite and CircleCI tokens. */
export const ciTokens: Rule = token({
  id: "ci_token",
  description:
    "Buildkite user token (bkua_) and CircleCI personal / project token (CCIPAT_, CCIPRJ_)",
  placeholder: "<CI_TOKEN>",
  keywords: ["bkua_", "ccipat_", "cciprj_"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:bkua_[a-f0-9]{40}|CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40})(?![\w-])/dg,
  truePositives: [
    "BUILDKITE_API_TOKEN=bkua_990d5cb915115a20333bf747837a59443bd30cb6",
    'curl -H "Circle-Token: CCIPAT_IvlsnIVPy2K8JeUj3JujSx_b9f0ff07d1fcb8521690450bc198d62ebd91974f" https://circleci.com/api/v2/me',
  ],
  falsePositives: ["bkua_ and CCIPAT_ are token prefixes"],
});

/** Postman API keys. */
export const postman: Rule = token({
  id: "postman_key",
  description: "Postman API key (PMAK-)",
  placeholder: "<POSTMAN_KEY>",
  keywords: ["pmak-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![\w-])/dg,
  truePositives: [
    'newman run c.json --env-var "apiKey=PMAK-72ce2536abc35b2aadb1b13a-8656da52305c3ded26c526c429e1282b35"',
  ],
  falsePositives: ["PMAK-xxxxxxxxxxxxxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
});

/** Sentry auth tokens. */
export const sentry: Rule = token({
  id: "sentry_token",
  description: "Sentry organisation (sntrys_) and user (sntryu_) auth token",
  placeholder: "<SENTRY_TOKEN>",
  keywords: ["sntrys_", "sntryu_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:sntrys_[A-Za-z0-9+/_=]{60,400}|sntryu_[a-f0-9]{64})(?![\w+/=-])/dg,
  truePositives: [
    "SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOQBBEAW6xCsW7ooRpKSTR2IP81SD5NaDYUgmiaYP/LkuNpKH4ahUfAArGUv+WehWYKfPkF7eSuvBQ/3DVZepN0X2HLBMOMbny/tuyjqW1i2ujo5eoRHLjIo23_guly8D9vila3ofWGs9LUoCfiYQN07qRctXM9v/s5z+/",
    "sentry-cli --auth-token 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 releases list",
  ],
  falsePositives: ["sntrys_ tokens are scoped to an organisation"],
});

/** Grafana tokens. */
export const grafana: Rule = token({
  id: "grafana_token",
  description:
    "Grafana Cloud token (glc_), service account token (glsa_) and legacy API key (eyJrIjoi…)",
  placeholder: "<GRAFANA_TOKEN>",
  keywords: ["glc_", "glsa_", "eyjrijoi"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,2})(?![\w+/=-])/dg,
  validators: [
    notPlaceholder,
    minEntropy(3),
    function notPowerBiView(c) {
      // `app.powerbi.com/view?r=eyJrIjoi…`: a published report's `{"k":…,"t":…,"c":…}`, public.
      if (!c.secret.startsWith("eyJrIjoi")) return undefined;
      return /^\{"k":"[^"]*","t":"/.test(decodeBase64(c.secret) ?? "")
        ? "a Power BI report's public view key"
        : undefined;
    },
  ],
  truePositives: [
    "GRAFANA_SERVICE_ACCOUNT_TOKEN=glsa_ruuXHYjGPf4dwJXiJAkT5aiAcJEwc2aa_7d0017dc",
    "grafana_cloud_token: glc_Ihb0s12VBv+b14QQhZOnAOW07CfgUvUsH4oXKAFEDSkLk0dyKFgfNYoLBU1Fj6X394ctAP17FfiOEqxH8n1T96e+cHn8gG4AGyDpmxtAj1AeHxDSEuOtUv0Q==",
    "api_key = eyJrIjoioocx1C6BMQU7B9ki1KIsNyezDkB9bYQ8t05t0nNsJti6QeAukeRHRV6Tpr5kfWQXSWMuf1ImemuqlgQY=",
  ],
  falsePositives: [
    "glsa_ tokens belong to service accounts",
    "https://app.powerbi.com/view?r=eyJrIjoiOWUzYmNhODMtMjg4NC00ZDQwLWFmMmQtMDlhZDQxNTU3Yjg2IiwidCI6IjM1ZWY1ODMyLTJmMzItNDU3Ny04Mzc2LTMxMzUzOWVmMzdjOSIsImMiOjh9",
  ],
});

/** New Relic keys. */
export const newRelic: Rule = token({
  id: "new_relic_key",
  description:
    "New Relic user (NRAK-), admin (NRAA-), insert (NRII-), query (NRIQ-), browser (NRJS-) and license (…NRAL) key",
  placeholder: "<NEW_RELIC_KEY>",
  keywords: ["nrak-", "nraa-", "nrii-", "nriq-", "nrjs-", "nral"],
  startsAtKeyword: true,
  pattern: () =>
    /(?<![\w-])(?:NRAK-[A-Z0-9]{27}|NRAA-[a-f0-9]{27}|NRI[IQ]-[\w-]{32}|NRJS-[a-f0-9]{19})(?![\w-])|(?<=(?<![\w-])(?<head>(?:eu01xx[a-f0-9]{30}|[a-f0-9]{36})))NRAL(?![\w-])/dg,
  secretFrom: "head",
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "NEW_RELIC_API_KEY=NRAK-O5YAEEJ9HNYA7IJESYR3YWY5LKG",
    "license_key: 3f018f9828de441cf12ac3fdc81d64fb0646NRAL",
    // An EU account's licence key; an Insights query key.
    "license: eu01xx9c2e1b5d4a8f9c0e2b4d6f8a1c3e7bNRAL",
    "X-Query-Key: NRIQ-Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1Jd5Fs0Ga",
  ],
  falsePositives: ["NRAK-XXXXXXXXXXXXXXXXXXXXXXXXXXX"],
});

/** Dynatrace API tokens. */
export const dynatrace: Rule = token({
  id: "dynatrace_token",
  description: "Dynatrace API / platform token (dt0c01.…, dt0s01.…)",
  placeholder: "<DYNATRACE_TOKEN>",
  keywords: ["dt0"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])dt0[a-z]\d{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}(?![\w-])/dg,
  truePositives: [
    "DT_API_TOKEN=dt0c01.RUKNXQMY4SZ8IQ8XD3Y0IUGH.SGKIJ41PO7G0I9NGKQQZDZOA3I2EDLQPLH7OU0YXW039PW64YDV4D0IB9X3978IH",
  ],
  falsePositives: ["dt0c01.ABC.DEF is the shape"],
});

/** Linear API keys and OAuth tokens. */
export const linear: Rule = token({
  id: "linear_key",
  description: "Linear API key (lin_api_) and OAuth token (lin_oauth_)",
  placeholder: "<LINEAR_KEY>",
  keywords: ["lin_api_", "lin_oauth_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])lin_(?:api_[A-Za-z0-9]{40}|oauth_[a-f0-9]{64})(?![\w-])/dg,
  truePositives: [
    'new LinearClient({ apiKey: "lin_api_00agCugiwZ2rH8zG23A4sedlL8dkZtFD2lfpje7K" })',
  ],
  falsePositives: ["lin_api_key_name"],
});

/** Atlassian API tokens and Bitbucket app passwords. */
export const atlassian: Rule = token({
  id: "atlassian_token",
  description: "Atlassian API token (ATATT3…, ATCTT3…, ATSTT3…) and Bitbucket app password (ATBB…)",
  placeholder: "<ATLASSIAN_TOKEN>",
  keywords: ["atatt3", "atctt3", "atstt3", "atbb"],
  startsAtKeyword: true,
  // `(?![\w=-]{301})`: a run too long fails at once instead of backtracking from 300 to 150.
  pattern: () =>
    /\b(?<![\w-])(?:AT[ACS]TT3(?![\w=-]{301})[\w=-]{150,300}|ATBB[A-Za-z0-9_=.-]{24,40})(?![\w=-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "JIRA_API_TOKEN=ATATT38MrURAD9Yj3g_JZjaTprP9kWx0mB0uzyF-kX4ekVvs2ZkmNa-by6oGmvdtC2jDNek8TLj4e7y9NI36fA_0fVV4NIABkhj-OK4Inl83wICzR2FwnwVQRIfm0aP0a2p9ZRhw-cTXCoc2aCNl-ZQ8Nm7DZMNc1JEOUsiD3C_lvuzrVxXw4_Ob9Mv9=36A5F81E",
    "BITBUCKET_APP_PASSWORD=ATBBN7R1DtJ3OMMxuA1H1aotcpX2dX26jiQg",
  ],
  falsePositives: ["ATATT3 is how Atlassian tokens start"],
});

/** Notion integration tokens. */
export const notion: Rule = token({
  id: "notion_token",
  description: "Notion integration token (ntn_ + 40–60, legacy secret_ + 43)",
  placeholder: "<NOTION_TOKEN>",
  keywords: ["ntn_", "secret_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])(?:ntn_[A-Za-z0-9]{40,60}|secret_[A-Za-z0-9]{43})(?![\w-])/dg,
  validators: [
    notPlaceholder,
    function bodyOfBothClasses(c) {
      // `ntn_` and 60 digits: a stand-in. The prefix's letters do not count.
      const body = c.secret.slice(c.secret.indexOf("_") + 1);
      return /\d/.test(body) && /[A-Za-z]/.test(body) ? undefined : "a body of one class";
    },
    minEntropy(3.5),
  ],
  truePositives: [
    "NOTION_TOKEN=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",
    // Not every ntn_ token starts with eleven digits.
    'curl -H "Authorization: Bearer ntn_Jq4w8XeR2tYu6Io0PaS3dF5gH7jK9lZxC1vB3nM5qW7eR" https://api.notion.com/v1/users',
    'notion = Client(auth="secret_xON79I63oNzkDYn85qux2vEL4Q0WyYiwzH3aWt7NC85")',
  ],
  falsePositives: [
    "secret_access_key_rotation_schedule_for_prod",
    "ntn_internal_notification_handler_registry_v2",
  ],
});

/** Figma personal access tokens. */
export const figma: Rule = token({
  id: "figma_token",
  description: "Figma personal access token (figd_)",
  placeholder: "<FIGMA_TOKEN>",
  keywords: ["figd_", "figu_", "figo_"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])fig[duo]_[\w-]{40,64}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "curl -H 'X-Figma-Token: figd_bLnJ4e7ocO-k88AlGqzLOWWAJvXz5SvMHHcYCaLl' https://api.figma.com/v1/me",
  ],
  falsePositives: ["figd_ is the Figma prefix"],
});

/** Asana personal access tokens. */
export const asana: Rule = token({
  id: "asana_token",
  description: "Asana personal access token (1/… or 2/…/…:32 hex)",
  placeholder: "<ASANA_TOKEN>",
  keywords: ["/"],
  precheck: (facts) => facts.digitCluster() >= 13,
  pattern: () => /(?<=(?<![\w/])(?<head>[12]))\/\d{13,19}(?:\/\d{13,19})?:[a-f0-9]{32}(?![\w-])/dg,
  secretFrom: "head",
  truePositives: ["ASANA_PAT=2/1204870768096527/1205463967262124:63dcc4d6cc0e19db0c38b907222d16fe"],
  falsePositives: ["ratio 1/1204000000000000"],
});

/** Airtable personal access tokens. */
export const airtable: Rule = token({
  id: "airtable_token",
  description: "Airtable personal access token (pat….64 hex)",
  placeholder: "<AIRTABLE_TOKEN>",
  keywords: ["pat"],
  // `pat` starting a word, as the pattern wants: not the one inside `file_path` or `xpath`.
  precheck: (facts) => facts.startsWord("pat"),
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![\w-])/dg,
  truePositives: [
    "AIRTABLE_TOKEN=patu7HlhmAEaK6gZq.7396d6c45a7bb5e31b2b70c7ff0ef03e2be8837c3c845050b4a96dc01a12ae41",
  ],
  falsePositives: ["path.to.module"],
});

/** Statsig's server secret key (`secret-…`); its client keys (`client-…`) ship in apps. */
export const statsig: Rule = token({
  id: "statsig_server_secret",
  description: "Statsig server secret key (secret- + 40 to 50 letters and digits)",
  placeholder: "<STATSIG_KEY>",
  keywords: ["secret-"],
  startsAtKeyword: true,
  pattern: () => /\b(?<![\w-])secret-[A-Za-z0-9]{40,50}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3.5)],
  truePositives: [
    "await Statsig.initialize('secret-Kq7Lm2Vx9Rt3Wz8PnB4Yc6Hd1Jf5Gs0Ua2Ie9Ow7Tq3Lx', { environment: { tier: 'production' } });",
  ],
  falsePositives: [
    "kubectl get secret-store-csi-driver-provider-aws-1234567890abcdefghij",
    "Statsig.initialize('client-Kq7Lm2Vx9Rt3Wz8PnB4Yc6Hd1Jf5Gs0Ua2Ie9Ow7Tq3Lx')",
  ],
});

/** Contentful, ReadMe, Typeform, Prefect, Infracost, Frame.io and Scalingo tokens. */
export const saasTokens: Rule = token({
  id: "saas_token",
  description:
    "Contentful (CFPAT-), ReadMe (rdme_), Typeform (tfp_), Prefect (pnu_, pnb_), Infracost (ico-), Frame.io (fio-u-) and Scalingo (tk-us-) tokens",
  placeholder: "<API_TOKEN>",
  keywords: ["cfpat-", "rdme_", "tfp_", "pnu_", "pnb_", "ico-", "fio-u-", "tk-us-"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w.-])(?:CFPAT-[\w-]{43}|rdme_[a-z0-9]{70}|tfp_[\w.=-]{40,80}|pn[ub]_[A-Za-z0-9]{36}|ico-[A-Za-z0-9]{32}|fio-u-[\w=-]{64}|tk-us-[\w-]{48})(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-zE97YYcsI2TDCfaDVn_lO6NzYpT8rLblsua99QNM_IB",
    "README_API_KEY=rdme_q0x6wo78t0e0d2spi6dbvv4wawy3jt16u281il4ooaiw5l0bs47vxorobnhiqfly5k0ufp",
    "TYPEFORM_TOKEN=tfp_kCev0tVaVaLZCjhxIzZ472KukPyKC56ebhc5pI32nFrP_y0jdbcVDq3-Fr5",
    "PREFECT_API_KEY=pnu_jq8RWVXZEqCGYQs0orvjWA6fTOba7DhrYFuV",
    "infracost configure set api_key ico-jRpHjepr3Q8nEtjr5W3VWr6KiRhOSk4A",
    "FRAMEIO_TOKEN=fio-u-ke3bfRTZZJ_VvCKs4QQEpIr-arxwdTia74At35-yACGXOraY0FVkRHMA-oSYCnqo",
    "SCALINGO_API_TOKEN=tk-us-ih8VDAG_pxv01RN0Mb4mKTIfDdglQC7IHvO0ZFr_zIYFG5F1",
  ],
  falsePositives: ["tfp_render_loop and ico-home-button and pnu_unit"],
});

/** LaunchDarkly API and SDK keys. */
export const launchdarkly: Rule = token({
  id: "launchdarkly_key",
  description: "LaunchDarkly API access token (api-uuid) and server SDK key (sdk-uuid)",
  placeholder: "<LAUNCHDARKLY_KEY>",
  keywords: ["api-", "sdk-"],
  startsAtKeyword: true,
  pattern: () =>
    /\b(?<![\w-])(?:api|sdk)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?![\w-])/dg,
  truePositives: ["LD_SDK_KEY=sdk-d41387ff-902f-4b01-ace5-3a37a170c1ba"],
  falsePositives: ["api-gateway-v2 and sdk-version"],
});

/** Octopus Deploy API keys. */
export const octopus: Rule = token({
  id: "octopus_key",
  description: "Octopus Deploy API key (API-)",
  placeholder: "<OCTOPUS_KEY>",
  keywords: ["api-"],
  startsAtKeyword: true,
  // 26 characters exactly; a path's `/API-<32 hex>` (a Notion page) is no key.
  pattern: () => /\b(?<![\w/-])API-[A-Z0-9]{26}(?![\w-])/dg,
  validators: [notPlaceholder, hasDigitAndLetter, minEntropy(3)],
  truePositives: ["octo list-projects --apiKey API-P3AH05KZ0BOLZMXKJYDJ4Y1ICF"],
  falsePositives: [
    "API-GATEWAY-INTEGRATION-TESTS",
    "https://acme-wiki.notion.site/API-4F2A9C71D0E84A65B2C9F01E7D3A4B5C",
  ],
});

/** age secret keys. */
export const age: Rule = token({
  id: "age_secret_key",
  description: "age encryption secret key (AGE-SECRET-KEY-1…)",
  placeholder: "<AGE_KEY>",
  keywords: ["age-secret-key-1"],
  startsAtKeyword: true,
  pattern: () => /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![\w-])/dg,
  truePositives: [
    "# created: 2026-01-02\nAGE-SECRET-KEY-1GJZ40C85WKH63WUR0A3HPQ28MDT8EKMREELH0HRDGH4H9T885HPWMYACEU",
  ],
  falsePositives: ["the key file holds one AGE-SECRET-KEY-1 line"],
});

/** The developer-tools family. */
/**
 * The password a new Jenkins prints once, to unlock its setup: 32 hex
 * digits after its banner line in the log, or printed from the file that
 * holds it.
 */
export const jenkinsInitialPassword: Rule = token({
  id: "jenkins_initial_password",
  description:
    "Jenkins' initial admin password, in its setup banner or printed from initialAdminPassword",
  placeholder: "<PASSWORD>",
  keywords: ["proceed to installation", "initialadminpassword"],
  pattern: () =>
    /(?:password to proceed to installation:|initialAdminPassword["']?)[ \t]*(?:\r?\n[ \t]*){1,3}(?<secret>[a-f0-9]{32})(?![a-f0-9])/dg,
  secretGroup: "secret",
  truePositives: [
    "Please use the following password to proceed to installation:\n\n9b3e7c1a5f2d8e4b6a0c3f9d1e7b5a2c\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword",
    "$ docker exec jenkins cat /var/jenkins_home/secrets/initialAdminPassword\n9b3e7c1a5f2d8e4b6a0c3f9d1e7b5a2c",
  ],
  falsePositives: [
    "This may also be found at: /var/jenkins_home/secrets/initialAdminPassword\n\n*************",
  ],
});

/** Anaconda's channel tokens, which stand in the channel's URL. */
export const anacondaChannelToken: Rule = token({
  id: "anaconda_channel_token",
  description: "Anaconda private channel token in its URL (conda.anaconda.org/t/<token>/channel)",
  placeholder: "<ANACONDA_TOKEN>",
  keywords: ["anaconda."],
  pattern: () => /\banaconda\.(?:org|cloud|com)\/t\/(?<secret>[A-Za-z0-9][\w-]{15,200})(?=\/)/dg,
  secretGroup: "secret",
  validators: [hasDigitAndLetter, minEntropy(3)],
  truePositives: [
    "channels:\n  - https://conda.anaconda.org/t/ab-4Kq9zT2w-m81735-Lp3Vx8Rn2cW/acme-internal\n  - conda-forge",
  ],
  falsePositives: [
    "channels:\n  - https://conda.anaconda.org/t/<TOKEN>/acme-internal\n  - https://conda.anaconda.org/conda-forge",
  ],
});

export const devtools: Rule[] = [
  pypi,
  rubygems,
  nuget,
  clojars,
  dockerHub,
  jfrog,
  sonar,
  ciTokens,
  postman,
  sentry,
  grafana,
  newRelic,
  dynatrace,
  linear,
  atlassian,
  notion,
  figma,
  asana,
  airtable,
  statsig,
  saasTokens,
  launchdarkly,
  octopus,
  age,
  jenkinsInitialPassword,
  anacondaChannelToken,
];
