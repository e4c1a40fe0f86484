/**
 * The complaint pack as a PDF, written on the device with pdf-lib (loaded only when a pack is made, so
 * it never weighs on the first page load). A4 pages; each recipient starts on a new page; evidence
 * images follow, one a page, each under its SHA-256.
 *
 * The standard PDF fonts (Helvetica, Courier) cover Western European text (WinAnsi), which English and
 * Filipino need; a character outside it (an emoji, a non-Latin name) is written as '?' in the PDF, and
 * every identifier also appears in its canonical form, which is ASCII. The plain-text pack keeps them all.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { PackEvidence } from './pack-input';
import type { PackDocument } from './pack-model';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const WIDTH = PAGE.width - 2 * MARGIN;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

/** The text with every character the font cannot encode replaced by '?'. */
function encodable(font: PDFFont, text: string): string {
  const set = new Set(font.getCharacterSet());
  return [...text.replace(/\u20b1/g, 'PHP ')]
    .map((ch) => (ch === '\n' || set.has(ch.codePointAt(0)!) ? ch : '?'))
    .join('');
}

/** Splits text into lines no wider than `width`, breaking at spaces (and inside over-long words). */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private doc: PDFDocument,
    private fonts: Fonts,
    private footer: string,
  ) {}

  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
    this.page.drawText(encodable(this.fonts.regular, this.footer), {
      x: MARGIN,
      y: MARGIN / 2,
      size: 7,
      font: this.fonts.regular,
      color: rgb(0.4, 0.4, 0.4),
    });
  }

  text(
    text: string,
    { font = this.fonts.regular, size = 10, indent = 0, gap = 4, color = rgb(0, 0, 0) } = {},
  ) {
    const lines = wrap(font, size, encodable(font, text), WIDTH - indent);
    for (const line of lines) {
      if (this.y - size < MARGIN) this.newPage();
      this.y -= size * 1.3;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color });
    }
    this.y -= gap;
  }
}

/** Writes the pack as a PDF; returns its bytes. */
export async function packToPdf(doc: PackDocument, evidence: PackEvidence[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  pdf.setCreator('ScamCheck (made on the device)');
  pdf.setProducer('pdf-lib');
  pdf.setLanguage(doc.language === 'fil' ? 'fil-PH' : 'en-PH');
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    mono: await pdf.embedFont(StandardFonts.Courier),
  };
  const w = new Writer(pdf, fonts, `${doc.title} · ScamCheck`);
  for (const page of doc.pages) {
    w.newPage();
    w.text(page.title, { font: fonts.bold, size: 16, gap: 2 });
    w.text(page.subtitle, { size: 9, color: rgb(0.3, 0.3, 0.3), gap: 10 });
    for (const block of page.blocks) {
      switch (block.kind) {
        case 'heading':
          w.y -= 4;
          w.text(block.text, { font: fonts.bold, size: 11 });
          break;
        case 'para':
          w.text(block.text);
          break;
        case 'field':
          w.text(`${block.label}: ${block.value}`);
          break;
        case 'list':
          for (const item of block.items) w.text(`•  ${item}`, { indent: 8, gap: 2 });
          w.y -= 2;
          break;
        case 'mono':
          w.text(block.text, { font: fonts.mono, size: 8 });
          break;
      }
    }
    if (page.id === 'evidence') {
      for (const [i, e] of evidence.entries()) {
        if (!e.image) continue;
        w.newPage();
        w.text(`${doc.annex} ${i + 1}: ${e.name}`, { font: fonts.bold, size: 11 });
        w.text(`SHA-256 ${e.sha256}`, { font: fonts.mono, size: 8, gap: 8 });
        const embedded =
          e.image.kind === 'jpeg' ? await pdf.embedJpg(e.image.data) : await pdf.embedPng(e.image.data);
        const room = w.y - MARGIN;
        const scale = Math.min(WIDTH / embedded.width, room / embedded.height, 1);
        const width = embedded.width * scale;
        const height = embedded.height * scale;
        w.page.drawImage(embedded, { x: MARGIN + (WIDTH - width) / 2, y: w.y - height, width, height });
        w.y -= height;
      }
    }
  }
  return pdf.save();
}
