/**
 * Vietnamese citizen ids (CCCD): 12 digits that are structurally valid
 * (province code, century digit, birth year) and have id context nearby
 * (CCCD, CMND, căn cước, số định danh, citizen/national id, id_number), or
 * in a table column whose header names such an id (a CSV, an SQL `INSERT`,
 * a JSON key over an array or object; see `_id_columns.ts`), however far
 * below the header. Without context, a 12-digit number is an order,
 * invoice or tracking number.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { cccdProblem } from "../_validators.ts";
import { idColumnPlace, underAlignedIdHeader } from "./_id_columns.ts";

function structure(c: Candidate): string | undefined {
  return cccdProblem(c.secret.replace(/[ .]/g, ""));
}

/** Words that say a number nearby is a citizen id. */
const ID_CONTEXT =
  /cccd|cmnd|căn[ _]cước|can[ _]cuoc|định[ _]danh|dinh[ _]danh|chứng[ _]minh|chung[ _]minh|citizen|national[ _-]?id|id[ _-]?number|identity|id[ _-]?card/;

function idContext(c: Candidate): string | undefined {
  const place = idColumnPlace(c.text, c.start, c.end);
  if (place === "id") return undefined;
  if (place === "other") {
    // Another column of a table whose header names the id column, unless
    // its own cell says so (`"so_cccd": "…"` in a record of another order).
    const before = c.text.slice(Math.max(0, c.start - 40), c.start).toLowerCase();
    const cell = before.slice(
      Math.max(...[",", ";", "|", "\t", "("].map((d) => before.lastIndexOf(d))) + 1,
    );
    return ID_CONTEXT.test(cell) ? undefined : "in a table whose id column is another";
  }
  const window = c.text.slice(Math.max(0, c.start - 160), c.end + 60).toLowerCase();
  if (ID_CONTEXT.test(window)) return undefined;
  return underAlignedIdHeader(c.text, c.start, c.end)
    ? undefined
    : "no id context within 160 characters";
}

/** 12-digit CCCD with id context. */
export const cccd: Rule = {
  id: "vn_cccd",
  description:
    "Vietnamese citizen id (CCCD), 12 digits (also in groups of three) with structure and id context",
  placeholder: "<VN_CCCD>",
  keywords: [
    "cccd",
    "cmnd",
    "căn cước",
    "can cuoc",
    "can_cuoc",
    "định danh",
    "dinh danh",
    "dinh_danh",
    "chứng minh",
    "chung minh",
    "citizen",
    "national",
    "number",
    "identity",
    "card",
  ],
  // The card rule asks every text for its digit cluster, so this costs nothing
  // and spares thirteen keyword scans of a text without a 12-digit number.
  precheck: (facts) => facts.digitCluster() >= 12,
  precheckFirst: true,
  // A comma may stand on either side: CSV cells. Also written in groups of three, as on the card.
  pattern: () =>
    /(?<![\d./-])(?:\d{12}|\d{3}(?<sep>[ .])\d{3}\k<sep>\d{3}\k<sep>\d{3})(?!\d|\.\d)/dg,
  priority: 250,
  validators: [structure, idContext],
  allowlist: [],
  truePositives: [
    // A table aligned with blanks (pandas), the header far above the last rows.
    "   ho_ten            so_cccd       sdt\n0  Aiko Tanaka       079307546230  x\n1  Mateus Oliveira   040165696232  x\n2  Nguyen Van An     048286735139  x\n3  Priya Raman       040166451028  x\n4  Do Thu Ha         056056603968  x\n5  Le Van Binh       056056603911  x\n6  Tran Thi Cuc      056056603922  x\n7  Pham Van Dung     056056603933  x",
    "số CCCD: 001204012345",
    'User nhập "CMND/CCCD: 079 203 001 234" có dấu cách',
    "citizen id 079188001122 verified",
    // A CSV row far below the header that names the column.
    "stt,ho_ten,so_cccd,ghi_chu\n" +
    "1,Phạm Thị Hồng,,chưa nộp bản sao giấy tờ và hẹn bổ sung vào tuần sau khi về quê\n" +
    "2,Ngô Văn Lực,,đang chờ xác minh lại với công an phường nên chưa có số mới\n" +
    "3,Đinh Thu Trang,036195007731,đã đối chiếu",
    // An SQL row far below its INSERT's column list.
    "INSERT INTO members (id, full_name, national_id, note) VALUES\n" +
    "  (31, 'Vương Gia Bảo', NULL, 'pending scan of the front side, asked to resend'),\n" +
    "  (32, 'Lạc Minh Thư', NULL, 'pending scan of the back side, photo was blurry'),\n" +
    "  (33, 'Tạ Quang Vinh', '052092011468', 'verified at the counter');",
    // A JSON key over an array of ids.
    '{"so_dinh_danh": ["075301004422", "001096013579"]}',
  ],
  falsePositives: [
    // No id context.
    "tracking 079188001122 stuck in transit",
    // Context but an impossible province code.
    "CCCD 999188001122",
    "CCCD form: bytes 123 456 789 012 read",
    // A table whose header names the id column; the number is in another one.
    "ma_don,cccd_da_xac_minh,so_van_don\n" +
    "DH-1001,true,038204118265\nDH-1002,false,079199402271",
  ],
};
