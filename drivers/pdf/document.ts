import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);
// DejaVu Sans covers Maltese letters (ċ ġ ħ ż) that the PDF standard fonts lack.
const FONT_DIR = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
export const FONTS = { regular: join(FONT_DIR, "DejaVuSans.ttf"), bold: join(FONT_DIR, "DejaVuSans-Bold.ttf") };

export type Pdf = PDFKit.PDFDocument;

/** Builds an A4 PDF in memory with the project's fonts registered as "regular" and "bold". */
export function renderPdf(build: (doc: Pdf) => void, info: { title: string; author?: string }): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 40, info: { Title: info.title, Author: info.author ?? "Ironbox" } });
  doc.registerFont("regular", FONTS.regular);
  doc.registerFont("bold", FONTS.bold);
  doc.font("regular");
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  build(doc);
  doc.end();
  return done;
}

/** A PDF HTTP response: inline for preview, a download otherwise. */
export function pdfResponse(pdf: Buffer, filename: string, preview: boolean, headers: Record<string, string>): Response {
  const safe = filename.replace(/[^\w .-]/g, "_");
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...headers,
      "content-type": "application/pdf",
      "content-disposition": `${preview ? "inline" : "attachment"}; filename="${safe}"`,
      filename: safe,
      "cache-control": "no-store",
    },
  });
}
