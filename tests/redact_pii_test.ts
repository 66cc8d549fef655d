/**
 * The personal-data rules (e-mail, phone, card, CCCD) on the shapes their
 * own samples cannot pin down: what exactly is replaced and what is left
 * around it (a JSON escape's letter, a `tel:` prefix), ids many rows below
 * the header of their column, and the published test cards in every
 * grouping.
 *
 * @module
 */

import assert from "node:assert/strict";
import { redactText } from "../lib/redact/mod.ts";
import { idColumnPlace, SECRET_COLUMN } from "../lib/redact/rules/_id_columns.ts";
import { PUBLISHED_TEST_CARDS } from "../lib/redact/rules/_published_test_cards.ts";
import { PUBLIC_TLDS } from "../lib/redact/rules/_public_tlds.ts";
import { luhnValid } from "../lib/redact/_validators.ts";
import {
  codiceFiscaleValid,
  myNumberValid,
  ppsnValid,
  saIdValid,
  tfnValid,
  verhoeffValid,
} from "../lib/redact/rules/national_id.ts";

/** A structurally valid CCCD for row `i` (province, century digit, birth year). */
function citizenId(i: number): string {
  const provinces = ["001", "079", "048", "031", "036", "092"];
  const year = String(60 + (i * 7) % 40).padStart(2, "0");
  return `${provinces[i % 6]}${i % 2}${year}${String(100000 + i * 7919).slice(-6)}`;
}

/** Lines long enough that every row but the first lies far from the header. */
function rows(n: number, row: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => row(i)).join("\n");
}

const NOTE = "đã gọi điện xác nhận địa chỉ giao hàng và hẹn lịch ký hợp đồng";

Deno.test({
  name: "redactText() leaves a JSON escape's letter before an e-mail address in place",
  permissions: "none",
  fn() {
    const text = '{"cc": "\\nthu.ha@kho-vanchuyen.vn\\tbao.le@kho-vanchuyen.vn\\u003e"}';
    assert.equal(redactText(text).text, '{"cc": "\\n<EMAIL>\\t<EMAIL>\\u003e"}');
  },
});

Deno.test({
  name: "redactText() keeps escaped decorators and hosts without a public TLD",
  permissions: "none",
  fn() {
    for (
      const text of [
        '{"content": "import pytest\\n\\n@pytest.fixture\\ndef db():\\n    ..."}',
        '"src": "\\n@app.route(\\"/\\")\\n\\t@Component.input\\n@router.get"',
        "ping deploy@ci-runner.lan and admin@nas.home",
      ]
    ) {
      assert.equal(redactText(text).text, text);
    }
  },
});

Deno.test({
  name: "redactText() redacts encoded, mailto: and postmaster addresses, keeps bot mailboxes",
  permissions: "none",
  fn() {
    assert.equal(
      redactText("GET /v1/users?email=khanh.do%40phuonglinh-group.com.vn&limit=5").text,
      "GET /v1/users?email=<EMAIL>&limit=5",
    );
    assert.equal(
      redactText('{"site":"https://acme.vn","mail":"mailto:lan.vu@acme.vn"}').text,
      '{"site":"https://acme.vn","mail":"mailto:<EMAIL>"}',
    );
    assert.equal(redactText("SMTP_USER=postmaster@mg.acme.vn").text, "SMTP_USER=<EMAIL>");
    const bots = "mailer-daemon@acme.vn noreply@acme.vn no-reply@acme.vn bounces@acme.vn";
    assert.equal(redactText(bots).text, bots);
  },
});

Deno.test({
  name: "the public TLD list holds the country codes and the common new gTLDs, not file types",
  permissions: "none",
  fn() {
    const tlds = new Set(PUBLIC_TLDS.split(" "));
    for (const tld of ["vn", "io", "dev", "app", "cloud", "tech", "uk", "de", "com", "edu"]) {
      assert.ok(tlds.has(tld), tld);
    }
    for (const tld of ["png", "json", "fixture", "route", "input", "local", "internal", "test"]) {
      assert.ok(!tlds.has(tld), tld);
    }
    assert.equal(tlds.size, PUBLIC_TLDS.split(" ").length, "no TLD is listed twice");
  },
});

Deno.test({
  name: "redactText() redacts the number of a tel: link and keeps the prefix",
  permissions: "none",
  fn() {
    assert.equal(
      redactText('<a href="tel:0812336445">Hotline</a> <a href="tel:02836225577">CSKH</a>').text,
      '<a href="tel:<PHONE>">Hotline</a> <a href="tel:<PHONE>">CSKH</a>',
    );
    assert.equal(redactText("hotel:0812336445").text, "hotel:0812336445");
  },
});

Deno.test({
  name: "redactText() redacts Napas cards of 16 and 19 digits, grouped or bare",
  permissions: "none",
  fn() {
    assert.equal(
      redactText('thẻ 9704 0511 8833 6203, "payout": "9704226190384553", 9704182704559132670').text,
      'thẻ <CARD>, "payout": "<CARD>", <CARD>',
    );
    // 17 digits is no Napas length.
    assert.equal(redactText("9704051188336203 4").text, "<CARD> 4");
    assert.equal(redactText("ref 97040511883362034").text, "ref 97040511883362034");
  },
});

Deno.test({
  name: "redactText() keeps every published test card, bare, spaced or dashed",
  permissions: "none",
  fn() {
    for (const digits of PUBLISHED_TEST_CARDS.split(" ")) {
      assert.ok(luhnValid(digits), `${digits} fails Luhn`);
      const spaced = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
      const dashed = digits.replace(/(\d{4})(?=\d)/g, "$1-");
      for (const text of [digits, `card: ${spaced}`, `"pan": "${dashed}"`]) {
        assert.equal(redactText(text).text, text);
      }
    }
    // A real-looking card one digit away from a test card is still redacted.
    assert.equal(redactText("4000 0027 6000 3192").text, "<CARD>");
  },
});

Deno.test({
  name: "redactText() redacts every CCCD of a CSV column the header names, however far down",
  permissions: "none",
  fn() {
    const csv = "ho_ten,so_cccd,ghi_chu\n" + rows(30, (i) => `Khách ${i},${citizenId(i)},${NOTE}`);
    const out = redactText(csv).text;
    assert.equal(out.match(/<VN_CCCD>/g)?.length, 30, out);
    // The same file as a hook payload's escaped content, semicolons and quotes.
    const quoted = '"Họ tên";"Số căn cước"\n' + rows(30, (i) => `"Lê; ${i}";"${citizenId(i)}"`);
    const payload = JSON.stringify({ file_path: "/data/khach.csv", content: quoted + "\n" + NOTE });
    assert.equal(redactText(payload).text.match(/<VN_CCCD>/g)?.length, 30);
  },
});

Deno.test({
  name: "redactText() redacts the id column of every row of an SQL INSERT",
  permissions: "none",
  fn() {
    const sql = "INSERT INTO khach_hang (id, ho_ten, national_id, ghi_chu) VALUES\n" +
      rows(20, (i) => `  (${i}, 'Lê, Văn (${i})', '${citizenId(i)}', '${NOTE}')`).replaceAll(
        "\n",
        ",\n",
      ) + ";";
    assert.equal(redactText(sql).text.match(/<VN_CCCD>/g)?.length, 20);
    const payload = JSON.stringify({ file_path: "seed.sql", content: sql });
    assert.equal(redactText(payload).text.match(/<VN_CCCD>/g)?.length, 20);
  },
});

Deno.test({
  name: "redactText() redacts every SSN column of a table, past an apostrophe left undoubled",
  permissions: "none",
  fn() {
    // Each row's note puts the header's names out of the nearby context's reach.
    const note = "plan changed at open enrolment as HR saw the dependants in person ".repeat(3);
    const sql = "INSERT INTO members (id, first_name, last_name, ssn, note, partner_ssn) VALUES\n" +
      `  (1, 'Ann', 'Lee', '219-09-9999', '${note}', '536-22-4817'),\n` +
      `  (2, 'Sean', 'O'Neill', '412-71-3305', '${note}', '318-44-2209'),\n` +
      `  (3, 'Bo', 'Kim', '219-09-9998', '${note}', '536-22-4818');`;
    const redacted = redactText(sql).text;
    assert.equal(redacted.match(/<SSN>/g)?.length, 6, redacted);
    assert.ok(redacted.includes("'O'Neill'"), redacted);
    const csv = `id,name,ssn,note,partner_ssn\n1,Ann Lee,219-09-9999,${note},536-22-4817\n` +
      `2,Cy Ng,412-71-3305,${note},318-44-2209`;
    assert.equal(redactText(csv).text.match(/<SSN>/g)?.length, 4);
  },
});

Deno.test({
  name: "redactText() redacts the ids under a JSON key naming the column",
  permissions: "none",
  fn() {
    const ids = Array.from({ length: 20 }, (_, i) => `"${citizenId(i)}"`);
    const array = `{"so_dinh_danh": [${ids.join(", ")}]}`;
    assert.equal(redactText(array).text.match(/<VN_CCCD>/g)?.length, 20);
    const columns = `{"cccd": {${ids.map((id, i) => `"${i}": ${id}`).join(", ")}}}`;
    assert.equal(redactText(columns).text.match(/<VN_CCCD>/g)?.length, 20);
  },
});

Deno.test({
  name: "redactText() keeps 12-digit numbers outside the id column and without context",
  permissions: "none",
  fn() {
    for (
      const text of [
        "ho_ten,cccd_da_xac_minh,ma_don\n" + rows(10, (i) => `Khách ${i},true,${citizenId(i)}`),
        "INSERT INTO orders (id, national_id, tracking) VALUES\n" +
        rows(10, (i) => `  (${i}, NULL, '${citizenId(i)}')`).replaceAll("\n", ",\n") + ";",
        "ho_ten,ma_don,ghi_chu\n" + rows(10, (i) => `Khách ${i},${citizenId(i)},${NOTE}`),
      ]
    ) {
      assert.equal(redactText(text).text, text);
    }
  },
});

Deno.test({
  name: "idColumnPlace() tells an id cell, another cell of the table, and text outside",
  permissions: "none",
  fn() {
    const csv = "ho_ten,so_cccd,ma_don\nAn,079203001234,001199004321\n\n001199004321";
    assert.equal(idColumnPlace(csv, 25, 37), "id");
    assert.equal(idColumnPlace(csv, 38, 50), "other");
    assert.equal(idColumnPlace(csv, 52, 64), undefined);
  },
});

Deno.test({
  name:
    "idColumnPlace() reads a console table across its rules, the column named by the id's whole name",
  permissions: "none",
  fn() {
    const table = "+------+------------------+-------------+\n" +
      "| ID   | NATIONAL_ID_TYPE | NATIONAL_ID |\n" +
      "|------+------------------+-------------|\n" +
      "| C-88 | CCCD             | 048188918180 |\n" +
      "+------+------------------+-------------+";
    const at = table.indexOf("048188918180");
    assert.equal(idColumnPlace(table, at, at + 12), "id");
    assert.equal(
      idColumnPlace(table, table.indexOf("CCCD  "), table.indexOf("CCCD  ") + 4),
      "other",
    );
  },
});

Deno.test({
  name:
    "idColumnPlace() names a secret column only by a header cell that is its name, with a rule below",
  permissions: "none",
  fn() {
    const cell = (text: string, value: string) =>
      idColumnPlace(text, text.indexOf(value), text.indexOf(value) + value.length, SECRET_COLUMN);
    const markdown = "| Service | Client secret |\n|---|---|\n| api | Wq8zR2mVt5Lx9Kp3 |";
    assert.equal(cell(markdown, "Wq8zR2mVt5Lx9Kp3"), "id");
    // A variable's name in a table's first row is no header, nor is a header with no rule below.
    const listed = "+----------------------+----------+\n" +
      "| ENVIRONMENT VARIABLE | VALUE    |\n" +
      "+----------------------+----------+\n" +
      "| CLOUDFLARE_API_TOKEN | xxxx4f2a |\n" +
      "| STRIPE_SECRET_KEY    | xxxx3D0K |\n" +
      "+----------------------+----------+";
    assert.equal(cell(listed, "STRIPE_SECRET_KEY"), undefined);
    assert.equal(
      cell("| Token | Owner |\n| Wq8zR2mVt5Lx9Kp3 | ci |", "Wq8zR2mVt5Lx9Kp3"),
      undefined,
    );
  },
});

Deno.test({
  name:
    "redactText() reads a table aligned with blanks: ids under its id column, not the next column",
  permissions: "none",
  fn() {
    const pad = (s: string, n: number) => s.padEnd(n);
    const header = `${pad("", 4)}${pad("ho_ten", 18)}${pad("so_cccd", 14)}ma_don`;
    const body = rows(
      12,
      (i) =>
        `${pad(String(i), 4)}${pad(`Khách ${i}`, 18)}${pad(citizenId(i), 14)}${citizenId(i + 50)}`,
    );
    const out = redactText(`${header}\n${body}`).text;
    for (let i = 0; i < 12; i++) {
      assert.ok(!out.includes(citizenId(i)), `row ${i}'s id`);
      if (i >= 6) assert.ok(out.includes(citizenId(i + 50)), `row ${i}'s order number`);
    }
  },
});

Deno.test({
  name: "the national ids' checks accept their published shapes and refuse one digit or letter off",
  permissions: "none",
  fn() {
    // Each check with values it accepts, then values it refuses. Verhoeff's own example: 236
    // takes check digit 3; the South African id's refusals fail Luhn, then have a month 13.
    const vectors: Array<[(value: string) => boolean, string[], string[]]> = [
      [verhoeffValid, ["2363"], ["2364"]],
      [codiceFiscaleValid, ["RSSMRA85T10A562S"], ["RSSMRA85T10A562T"]],
      [tfnValid, ["123456782"], ["123456783"]],
      [myNumberValid, ["123456789018"], ["123456789017"]],
      [ppsnValid, ["1234567T", "1234567FA"], ["1234567K"]],
      [saIdValid, ["9202204720083"], ["9202204720082", "9213204720083"]],
    ];
    for (const [check, accepted, refused] of vectors) {
      for (const value of accepted) assert.equal(check(value), true, `${check.name} ${value}`);
      for (const value of refused) assert.equal(check(value), false, `${check.name} ${value}`);
    }
  },
});
