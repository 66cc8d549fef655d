/**
 * Public top-level domains an e-mail address may end in: the generic and
 * sponsored ones, every country code, and the new generic ones that people
 * and companies actually take addresses under. A host whose last label is
 * none of them (`@pytest.fixture`, `@app.route`, `@Component.input`,
 * `db@primary.internal`) is not an address.
 *
 * Kept out on purpose: the new generic names that read more often as code
 * than as a mail domain (`.run`, `.build`, `.page`, `.link`, `.click`,
 * `.post`, `.get`, `.zip`, `.mov`, `.java`, `.key`, `.pub`), and the
 * names reserved for private use (`.test`, `.example`, `.invalid`,
 * `.localhost`, `.local`, `.internal`, `.corp`, `.home`, `.lan`).
 *
 * @module
 */

/** Generic and sponsored TLDs of the original root. */
const GENERIC =
  "com net org edu gov mil int info biz name pro aero asia cat coop jobs mobi museum tel travel";

/** Every ISO 3166 country code delegated in the root, plus `ac`, `eu`, `su` and `uk`. */
const COUNTRY_CODES = [
  "ac ad ae af ag ai al am ao aq ar as at au aw ax az",
  "ba bb bd be bf bg bh bi bj bm bn bo bq br bs bt bv bw by bz",
  "ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz",
  "de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr",
  "ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy",
  "hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp",
  "ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly",
  "ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz",
  "na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa",
  "re ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz",
  "tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz",
  "va vc ve vg vi vn vu wf ws ye yt za zm zw",
].join(" ");

/** New generic TLDs common in mail addresses. */
const NEW_GENERIC = [
  "app dev cloud tech online site website store shop xyz top club live life world today news",
  "blog digital agency studio design solutions services systems network email company group",
  "team center academy education school university college institute media space host",
  "hosting software global international finance financial capital fund money bank insurance",
  "legal law consulting partners ventures holdings enterprises industries engineering energy",
  "health care clinic dental healthcare fitness social chat photo photography art gallery",
  "fashion style beauty tours flights hotel restaurant cafe wiki mba gmbh ltd llc inc srl",
  "expert guru ninja market marketing business trade properties realty estate science",
  "technology careers foundation charity ngo ong community church",
  "tokyo nyc london paris berlin amsterdam wien hamburg bayern barcelona madrid moscow vegas",
  "miami boston sydney melbourne istanbul dubai quebec scot wales cymru eus gal swiss africa",
].join(" ");

/** Space-separated public TLDs, lowercase (see {@linkcode inWordList}). */
export const PUBLIC_TLDS = `${GENERIC} ${COUNTRY_CODES} ${NEW_GENERIC}`;
