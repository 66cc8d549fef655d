/**
 * Network devices' configurations and consoles: the secrets Cisco IOS and
 * ASA, FortiGate, Juniper, Cisco's wireless controller and HAProxy keep in
 * clear or in a reversible form (Cisco's type 7, Juniper's `$9$`), and SNMP
 * communities and SNMPv3 passphrases in configs and on the command line.
 * One-way hashes (`secret 9 $9$…`, `$6$…`, `ENC …`) stay.
 *
 * @module
 */

import { boundaryFirst } from "../_boundary_first.ts";
import type { Candidate, Rule } from "../_engine.ts";
import { perText } from "../_memo.ts";
import { minEntropy, notPlaceholder, passwordShapeProblem } from "../_validators.ts";

/** A value in clear at the end of a config word: up to a blank. */
const WORD = "(?<secret>[^\\s\"']{1,128})";

/** Quoted or bare. */
const QUOTED_OR_WORD =
  "(?:\"(?<secret>[^\"\\n]{1,128})\"|'(?<secret>[^'\\n]{1,128})'|(?<secret>[^\\s\"']{1,128}))";

/** Cisco's type 7: two decimal digits, then pairs of hex digits. */
function typeSevenShape(c: Candidate): string | undefined {
  if (c.groups["seven"] === undefined) return undefined;
  return /^[01]\d(?:[0-9A-F]{2})+$/.test(c.secret) ? undefined : "not a type 7 string";
}

/** Whether `text` is a FortiOS config (`config …`, `edit "…"`); asked once per text. */
const isFortiConfig = perText((text) =>
  /(?:^|\n)[ \t]*(?:config[ \t]+[a-z]|edit[ \t]+["\d])/.test(text)
);

/** A FortiGate `set password`: only in a FortiOS config. */
function fortiContext(c: Candidate): string | undefined {
  if (c.groups["forti"] === undefined) return undefined;
  return isFortiConfig(c.text) ? undefined : "set password outside a FortiOS config";
}

/** Passwords and keys of network devices' configs and consoles. */
export const networkDeviceSecret: Rule = {
  id: "network_device_secret",
  description:
    "Network device secret in clear or type 7 (Cisco IOS/ASA username/enable password, key-string, pre-shared-key, isakmp/tacacs/radius key; FortiGate set psksecret/password; WLC set-key; Junos plain-text-password-value, authentication-key; PAN-OS radius secret; OpenWrt option key; HAProxy insecure-password; keepalived auth_pass)",
  placeholder: "<PASSWORD>",
  keywords: [
    "password",
    "authentication-key",
    "ascii-text",
    "wpa-passphrase",
    "radius-server",
    "option key",
    "option psk",
    "secret 0",
    "server",
    "psk=",
    "login=",
    "pre-shared",
    "wpa-psk",
    "key-string",
    "pre-shared-key",
    "isakmp",
    "-server key",
    "md5",
    "psksecret",
    "passwd",
    "set-key",
    "stats auth",
    "auth_pass",
  ],
  pattern: () =>
    new RegExp(
      boundaryFirst(
        // Type 7, reversible: `password 7 0822455D0A16`, `key 7 …`.
        "\\b(?:password|secret|key|key-string|ascii)[ \\t]+7[ \\t]+(?<seven>(?<secret>[0-9A-Fa-f]{4,200}))(?![\\w$])" +
          // In clear: `username ops [privilege 15] password [0] …`, `enable password …`.
          `|\\b(?:username[ \\t]+[\\w.@-]{1,64}(?:[ \\t]+privilege[ \\t]+\\d{1,2})?|enable)[ \\t]+password(?:[ \\t]+0)?[ \\t]+(?![5789][ \\t])${WORD}` +
          // Type 0 secrets are in clear: `username ops secret 0 …`, `enable secret 0 …`.
          `|\\b(?:username[ \\t]+[\\w.@-]{1,64}(?:[ \\t]+privilege[ \\t]+\\d{1,2})?|enable)[ \\t]+secret[ \\t]+0[ \\t]+${WORD}` +
          // An AAA server block's key: `tacacs server ISE` … ` key 0 …`, on a line of its own (the
          // line break first: a look back at every `key` cost text dense with them 30×).
          `|\\n[ \\t]{1,8}key(?<=(?:(?:tacacs|radius)[ \\t]+server|authentication-server[ \\t]+(?:radius|tacacs))[ \\t]+\\S{1,64}[^!]{0,300}\\n[ \\t]{1,8}key)(?:[ \\t]+0)?[ \\t]+(?![57][ \\t])${WORD}` +
          // wpa_supplicant: `psk="…"` (also the `#psk=` comment wpa_passphrase writes) or its 64 hex digits.
          `|(?<![\\w-])#?psk=(?:"(?<secret>[^"\\n]{8,63})"|(?<secret>[0-9a-f]{64})(?![0-9a-f]))` +
          // Squid's parent proxy: `cache_peer … login=user:password`.
          `|\\bcache_peer\\b[^\\n]{0,300}?\\blogin=[^:\\s]{1,64}:${WORD}` +
          // Keys: `key-string …`, `ikev1 pre-shared-key …`, `crypto isakmp key … address`, AAA servers'
          // keys, also on IOS's older server lines (`radius-server host 10.0.0.5 auth-port 1812 key …`).
          "|\\b(?:key-string|pre-shared-key|message-digest-key[ \\t]+\\d{1,3}[ \\t]+md5|crypto[ \\t]+isakmp[ \\t]+key" +
          "|(?:tacacs|radius)-server[ \\t]+(?:host[ \\t]+[\\w.:-]{1,64}(?:[ \\t]+(?!key\\b)[\\w-]{1,32}){0,8}[ \\t]+)?key)" +
          `(?:[ \\t]+0)?[ \\t]+(?![57][ \\t])(?!ascii-text[ \\t]|[\\w-]{1,40}=)${WORD}` +
          // FortiGate: `set psksecret …`, `set passwd …`; `set password …` in a FortiOS config, not `ENC …`.
          `|\\bset[ \\t]+(?:psksecret|passwd|(?<forti>password|auth-password|priv-password))[ \\t]+(?!ENC[ \\t])${QUOTED_OR_WORD}` +
          // Cisco's wireless controller: `wpa akm psk set-key ascii …`.
          `|\\bset-key[ \\t]+(?:ascii|hex)[ \\t]+${WORD}` +
          // VyOS/EdgeOS: `authentication pre-shared-secret '…'`, `plaintext-password '…'`.
          `|\\b(?:pre-shared-secret|plaintext-password)[ \\t]+${QUOTED_OR_WORD}` +
          // Junos: `plain-text-password-value …`, an IKE policy's `pre-shared-key ascii-text "…"`, a BGP
          // or OSPF `authentication-key "…"` (Cisco's NTP: `ntp authentication-key 1 md5 …`).
          `|\\b(?:plain-text-password-value|pre-shared-key[ \\t]+ascii-text|authentication-key(?![ \\t]+\\d{1,5}[ \\t]))[ \\t]+${QUOTED_OR_WORD}` +
          `|\\bauthentication-key[ \\t]+\\d{1,5}[ \\t]+md5(?:[ \\t]+[07](?=[ \\t]))?[ \\t]+${QUOTED_OR_WORD}` +
          // PAN-OS: `set deviceconfig system radius-server secret …`; Aruba: `wpa-passphrase …`.
          `|\\b(?:radius-server[ \\t]+secret|wpa-passphrase)[ \\t]+${QUOTED_OR_WORD}` +
          // OpenWrt's UCI: a Wi-Fi's `option key '…'`, a PPPoE `option password '…'`.
          `|\\boption[ \\t]+(?:key|password|psk)[ \\t]+${QUOTED_OR_WORD}` +
          // Huawei VRP: `local-user admin password cipher %^%#…` (reversible) or `simple …`.
          `|\\bpassword[ \\t]+(?:cipher|simple)[ \\t]+${WORD}` +
          // Cisco: `ppp chap password [0] …`, an access point's `wpa-psk ascii [0] …`.
          `|\\bppp[ \\t]+(?:chap|pap)[ \\t]+(?:sent-username[ \\t]+\\S{1,64}[ \\t]+)?password(?:[ \\t]+0)?[ \\t]+(?!7[ \\t])${WORD}` +
          `|\\bwpa-psk[ \\t]+(?:ascii|hex)(?:[ \\t]+0)?[ \\t]+(?!7[ \\t])${WORD}` +
          // RouterOS: `wpa2-pre-shared-key=…`, `/ip ipsec peer … secret=…` is the generic rule's.
          `|\\b(?:wpa2?-)?pre-shared-key=${QUOTED_OR_WORD}` +
          // HAProxy: `user ops insecure-password …`, `stats auth admin:…`.
          // keepalived's VRRP: `authentication { auth_type PASS auth_pass … }`.
          `|\\bauth_pass[ \\t]+${WORD}` +
          `|\\binsecure-password[ \\t]+${WORD}|\\bstats[ \\t]+auth[ \\t]+[^\\s:]{1,64}:${WORD}`,
      ),
      "dg",
    ),
  secretGroup: "secret",
  priority: 460,
  validators: [
    notPlaceholder,
    typeSevenShape,
    fortiContext,
    function notAWord(c) {
      return /^[a-z]{1,10}[.,;:]?$/.test(c.secret) ? "a word" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    "username backup-ro privilege 5 password 7 130E2F4B1D2B2D6B211C273974",
    "username vpn.danang password KL9D9P6#b^tYs privilege 0",
    " ikev1 pre-shared-key 6!p3ZtUFITIAZd6kr2yAoUk8",
    "crypto isakmp key X7O3iwaaIU1#l9oJSqM# address 118.69.188.2",
    " ip ospf message-digest-key 1 md5 AGQrDPQbdoMV",
    "  key-string Y0m6ELuc18v366tetR",
    'config vpn ipsec phase1-interface\n    edit "to-CanTho"\n        set psksecret E9oYRg0vS1wvS9!cOF#yOK',
    "(Cisco Controller) >config wlan security wpa akm psk set-key ascii 9l9dV62eiiv77exV 3",
    "userlist ops_users\n    user ops insecure-password ui^6Eb#NP5U@Hh",
    "set vpn ipsec site-to-site peer 203.0.113.5 authentication pre-shared-secret 'Vq8Rt3Lm9xKw7'",
    "username admin privilege 15 secret 0 Vq8Rt3Lm9xK",
    "tacacs server ISE\n address ipv4 10.0.0.9\n key 0 Vq8Rt3Lm9xK",
    "radius-server host 10.20.0.5 auth-port 1812 acct-port 1813 key Rq4-Lm8-Vx2",
    // Aruba's controller.
    'aaa authentication-server radius "NPS01"\n   host "10.8.1.21"\n   key Aruba_y19DBp23fqRSa2\n!',
    "vrrp_instance VI_1 {\n    authentication {\n        auth_type PASS\n        auth_pass BRfnrRIi\n    }\n}",
    'network={\n\tssid="Office"\n\t#psk="Vq8Rt3Lm9xK"\n\tpsk=6f2a1c9e0b7d4a3f8e5c2b1a9d7f6e4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e\n}',
    "cache_peer parent.example.com parent 3128 0 no-query login=squiduser:Vq8Rt3Lm9xK",
    "local-user admin password cipher %^%#Vq8Rt3Lm9xKw7Zq2Tn4yBc6Hd1%^%#",
    " ppp chap password 0 Vq8Rt3Lm9x",
    " wpa-psk ascii 0 Vq8Rt3Lm9xKw7",
    "/interface wireless security-profiles set [ find default=yes ] wpa2-pre-shared-key=Vq8Rt3Lm9xKw7",
    "set system login user ops authentication plain-text-password-value Jn6!Wq2-Lk8v",
    'set protocols bgp group ISP neighbor 198.51.100.1 authentication-key "Bg4!Kq9-Lz3m"',
    'set security ike policy ike-pol pre-shared-key ascii-text "Jk7!Tq3-Lm9z"',
    "ntp authentication-key 1 md5 Nt8!Kq3-Lw2m",
    "ntp authentication-key 2 md5 7 0822455D0A16",
    "set deviceconfig system radius-server secret Pa7#Lm3-Qv9k",
    'wlan ssid-profile "Corp"\n essid "AnPhat-Corp"\n wpa-passphrase Wl8!Tq3-Lm6k',
    "config wifi-iface 'default_radio0'\n\toption ssid 'Home'\n\toption encryption 'psk2'\n\toption key 'Op3#Lq9-Wm2v'",
  ],
  falsePositives: [
    // Prose about an account.
    "sign in with the default account (username `airflow`, password `airflow`)",
    // One-way hashes.
    "enable secret 9 $9$UQrXBbHfqNjmu8$FnA61yffHY7iri0PcuA0XHpDuivToZOGCvsvtySNXLc",
    "username netops privilege 15 secret 9 $9$Z.xpdy4.pf0oLv$KswpuPmSIoBT",
    'config system admin\n    edit "admin"\n        set password ENC SH253ec1b9e4e665fd22b64a21c0cde6f46',
    "user viewer password $6$VcDEv2pK.42P.UEt$VQv.ENqrd",
    // Prose.
    "the enable password is stored as type 7, which is reversible",
    "option key '$WIFI_KEY'",
  ],
};

/**
 * Juniper's `$9$` strings: reversible, so as good as the secret (an IKE
 * pre-shared key, a RADIUS secret, a BGP key). Junos quotes them; its
 * `encrypted-password` holds a one-way hash and stays.
 */
export const junosSecret: Rule = {
  id: "junos_secret",
  description: "Juniper $9$ reversible secret in a Junos config",
  placeholder: "<PASSWORD>",
  keywords: ["$9$"],
  pattern: () => /"(?<secret>\$9\$[A-Za-z0-9./$-]{8,512})"/dg,
  secretGroup: "secret",
  priority: 460,
  validators: [
    function notEncryptedPassword(c) {
      const line = c.text.slice(Math.max(0, c.matchStart - 200), c.matchStart);
      return /encrypted-password[ \t]*$/.test(line) ? "a one-way hash" : undefined;
    },
  ],
  allowlist: [],
  truePositives: [
    'set security ike policy IKE-POL-CT pre-shared-key ascii-text "$9$vD48Nb4aZDHm0Bw24oZGuOBErKNdwaJUN-VYg4ZGAtuOESKM8NVwtp"',
  ],
  falsePositives: [
    'set system login user noc authentication encrypted-password "$9$y/mnDbS2sFbQYBxPO6OLWr5PdRGm"',
  ],
};

/** The community names everybody knows: policy negatives. */
const DEFAULT_COMMUNITIES = /^(?:public|private)$/i;

/**
 * SNMP communities (`snmp-server community …`, `community: …`, `-c …`) and
 * SNMPv3 passphrases (`auth sha …`, `priv aes …`, `createUser … SHA "…"`,
 * `-A`/`-X`) in configs and on the command line.
 */
export const snmpSecret: Rule = {
  id: "snmp_secret",
  description:
    "SNMP community or SNMPv3 passphrase in a config or an snmp* command (not public/private)",
  placeholder: "<PASSWORD>",
  keywords: ["snmp", "community", "createuser"],
  pattern: () =>
    new RegExp(
      boundaryFirst(
        `\\b(?:snmp-server|set[ \\t]+snmp)[ \\t]+community[ \\t]+${QUOTED_OR_WORD}` +
          `|(?<![\\w-])community[ \\t]*[:=][ \\t]*${QUOTED_OR_WORD}` +
          // IOS's trap receivers: `snmp-server host 10.0.0.5 [traps] [version 1|2c] COMMUNITY`.
          `|\\bsnmp-server[ \\t]+host[ \\t]+[\\w.:-]{1,64}[ \\t]+(?:(?:traps|informs)[ \\t]+)?(?:version[ \\t]+(?:1|2c)[ \\t]+)?(?!version\\b)${WORD}` +
          // snmptrapd's `authCommunity log,execute,net NAME`.
          `|\\bauthCommunity[ \\t]+[\\w,]{1,40}[ \\t]+${WORD}` +
          // SNMPv3: IOS's `auth sha … priv aes 128 …`, net-snmp's `createUser u SHA "…" AES "…"`.
          `|\\bsnmp-server[ \\t]+user[^\\n]{0,200}?[ \\t]auth[ \\t]+(?:md5|sha\\S{0,8})[ \\t]+${WORD}` +
          `|\\bpriv[ \\t]+(?:des|3des|aes)(?:[ \\t]+\\d{3})?[ \\t]+${WORD}` +
          `|\\bcreateUser[^\\n]{0,200}?[ \\t](?:MD5|SHA[\\w-]{0,8})[ \\t]+${QUOTED_OR_WORD}` +
          // The privacy passphrase after it: starts at its word and looks back for the `createUser`.
          `|(?:AES|DES)(?<=\\bcreateUser[^\\n]{0,300}[ \\t](?:AES|DES))[\\w-]{0,8}[ \\t]+${QUOTED_OR_WORD}` +
          // net-snmp's tools and Nagios' check_snmp: `-c`, `-A`, `-X`, `-C` with a blank or none.
          `|-(?:c|A|X|C)(?<=\\b(?:snmp(?:walk|bulkwalk|get|bulkget|getnext|set|table|trap|df|status)|check_snmp\\w{0,20})\\b[^\\n|;&]{0,300}[ \\t]-[cAXC])[ \\t]*${QUOTED_OR_WORD}`,
      ),
      "dg",
    ),
  secretGroup: "secret",
  priority: 455,
  validators: [
    function notDefaultCommunity(c) {
      return DEFAULT_COMMUNITIES.test(c.secret) ? "a default community" : undefined;
    },
    notPlaceholder,
    minEntropy(2.5),
  ],
  allowlist: [],
  truePositives: [
    "snmp-server community nms8CvcHZdmO RO 10",
    "  anphat_v2:\n    community: zbxNjU4COiEe2\n    version: 2",
    "authCommunity log,execute,net trapyc0OgSq8tL",
    'createUser -e 0x80001f88 trapuser SHA "VipNX2tQSXPV5Azd" AES "3kFasvYg3nI2wlXW"',
    "snmpwalk -v3 -l authPriv -u zbx-poller -a SHA -A 'CxXGfPYpmt3hQY' -x AES -X 'MYIOi6CGP5WRhh' 10.99.0.2",
    "command_line    $USER1$/check_snmp -H $HOSTADDRESS$ -C nag6hQZDaZfJ -o ifOperStatus.$ARG1$",
    "set snmp community zbxylRlr3adqzc authorization read-only",
    "snmp-server host 10.0.0.5 version 2c nmsC0mmun1ty",
  ],
  falsePositives: [
    "snmp-server community public RO",
    "  public_v2:\n    community: public",
    "snmpwalk -v2c -c $SNMP_COMMUNITY 10.0.0.1",
    "the community edition of the snmp exporter",
  ],
};

/** Whether the text calls a JSON-RPC API's `user.login` (Zabbix's), whose result is a session. */
const callsUserLogin = perText((text) => /"method"[ \t]*:[ \t]*"user\.login"/.test(text));

/**
 * The session token a JSON-RPC API's `user.login` returns (Zabbix's
 * `{"jsonrpc":"2.0","result":"bc99…","id":1}`): it acts as the user until
 * it expires.
 */
export const jsonRpcSession: Rule = {
  id: "jsonrpc_login_session",
  description: "Session token returned by a JSON-RPC user.login (Zabbix API)",
  placeholder: "<SECRET>",
  keywords: ["user.login"],
  pattern: () => /"result"[ \t]*:[ \t]*"(?<secret>[0-9a-f]{32})"/dg,
  secretGroup: "secret",
  priority: 450,
  validators: [
    function afterUserLogin(c) {
      return callsUserLogin(c.text) ? undefined : "no user.login call";
    },
    minEntropy(3),
  ],
  allowlist: [],
  truePositives: [
    '$ curl -s -d \'{"jsonrpc":"2.0","method":"user.login","params":{"username":"api","password":"…"},"id":1}\' https://zbx/api_jsonrpc.php\n{"jsonrpc":"2.0","result":"bc99a30b3d4783c303622462cef0c422","id":1}',
  ],
  falsePositives: [
    '{"jsonrpc":"2.0","method":"host.get","id":2}\n{"jsonrpc":"2.0","result":"9f3c0a1e7b2d4c8e9f6a5d1b3e7c9a2f","id":2}',
  ],
};

/**
 * The secret column of pppd's `chap-secrets` and `pap-secrets` (`client
 * server secret [addresses]`), in a text that names the file or shows its
 * header.
 */
export const pppSecret: Rule = {
  id: "ppp_secret",
  description:
    "Secret column of pppd's chap-secrets or pap-secrets (client server secret [addresses])",
  placeholder: "<PASSWORD>",
  keywords: ["chap-secrets", "pap-secrets", "secrets for authentication using"],
  pattern: () =>
    new RegExp(
      // The server column is `*` or quoted, as pppd's files write it.
      '(?:^|\\n)[ \\t]*(?![#$])(?:"[^"\\n]{1,64}"|[^\\s"#]{1,64})[ \\t]+(?:"[^"\\n]{0,64}"|\\*)[ \\t]+' +
        '(?:"(?<secret>[^"\\n]{1,128})"|(?<secret>[^\\s"]{1,128}))(?:[ \\t]+[^\\s]{1,64})?[ \\t]*(?=\\r?\\n|$)',
      "dg",
    ),
  secretGroup: "secret",
  priority: 450,
  validators: [
    notPlaceholder,
    function passwordShaped(c) {
      return passwordShapeProblem(c.secret);
    },
  ],
  allowlist: [],
  truePositives: [
    '$ sudo cat /etc/ppp/chap-secrets\n# Secrets for authentication using CHAP\n# client\tserver\tsecret\t\t\tIP addresses\n"vpn-hq"\t*\t"Rq4-Lm8-Vx2q"\t*\n',
    "/etc/ppp/pap-secrets:\nfti/pppoe5541  *  Kd7mWq2xLz9p\n",
  ],
  falsePositives: [
    "# Secrets for authentication using CHAP\n# client\tserver\tsecret\t\t\tIP addresses\n",
    '/etc/ppp/chap-secrets\n"vpn-hq" * "$VPN_SECRET" *',
  ],
};

/** The network family. */
export const network: Rule[] = [
  networkDeviceSecret,
  junosSecret,
  snmpSecret,
  jsonRpcSession,
  pppSecret,
];
