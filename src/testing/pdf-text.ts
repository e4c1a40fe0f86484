import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/**
 * The text each page of a PDF made by pdf-lib draws (tests only): pdf-lib writes each line as one
 * `<hex> Tj` in WinAnsi with the standard fonts, in content streams that may be Flate-compressed.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string[] }> {
  const doc = await PDFDocument.load(bytes);
  const ansi = new TextDecoder('windows-1252');
  const text = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    return streams
      .map((s) => new TextDecoder('latin1').decode(decodePDFRawStream(s as PDFRawStream).decode()))
      .join('\n')
      .split('\n')
      .flatMap((line) => [...line.matchAll(/<([0-9A-Fa-f]*)> Tj/g)])
      .map((m) => ansi.decode(Uint8Array.from(m[1].match(/../g) ?? [], (h) => parseInt(h, 16))))
      .join('\n');
  });
  return { pages: doc.getPageCount(), text };
}
