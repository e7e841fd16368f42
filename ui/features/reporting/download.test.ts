import { expect, test } from "bun:test";
import { CsvRowCounter, fileNameOf } from "./download";

const bytes = (s: string) => new TextEncoder().encode(s);
const rowsOf = (...chunks: string[]) => {
  const c = new CsvRowCounter();
  for (const chunk of chunks) c.push(bytes(chunk));
  return c.rows;
};

test("rows are the records after the header, with or without a last line break", () => {
  expect(rowsOf("\uFEFFDate,Action,Net\r\n")).toBe(0);
  expect(rowsOf("\uFEFFDate,Action,Net")).toBe(0);
  expect(rowsOf("")).toBe(0);
  expect(rowsOf("a,b\r\n1,2\r\n3,4\r\n")).toBe(2);
  expect(rowsOf("a,b\r\n1,2\r\n3,4")).toBe(2);
});

test("a line break or a doubled quote inside a quoted cell is not a new record, across chunk borders", () => {
  const csv = 'item,description\r\n1,"torn ""collar""\r\nsecond line"\r\n2,"ċ ġ ħ ż"\r\n';
  expect(rowsOf(csv)).toBe(2);
  // Every split point gives the same count.
  for (let i = 0; i <= csv.length; i++) expect(rowsOf(csv.slice(0, i), csv.slice(i))).toBe(2);
});

test("the file name is the server's: RFC 5987 UTF-8 name first, then the quoted one, else the fallback", () => {
  expect(fileNameOf(`attachment; filename="salesReport 01-11-2026 30-11-2026.csv"`, "x")).toBe("salesReport 01-11-2026 30-11-2026.csv");
  expect(fileNameOf(`attachment; filename="a.csv"; filename*=UTF-8''sales%20report%20%C4%8B.csv`, "x")).toBe("sales report ċ.csv");
  expect(fileNameOf("attachment; filename=plain.xlsx", "x")).toBe("plain.xlsx");
  expect(fileNameOf(null, "fallback.csv")).toBe("fallback.csv");
  expect(fileNameOf("attachment", "fallback.csv")).toBe("fallback.csv");
});
