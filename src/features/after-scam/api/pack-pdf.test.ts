import { PDFDocument } from 'pdf-lib';
import { pdfText } from '@/testing/pdf-text';
import jpeg from 'jpeg-js';
import { buildPack } from './pack-model';
import { packToPdf } from './pack-pdf';
import { packToText } from './pack-text';
import { sha256Hex } from './hash';
import type { PackInput, PackLanguage } from './pack-input';

async function screenshot(): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const width = 60;
  const height = 120;
  const data = Buffer.alloc(width * height * 4, 0xff);
  const encoded = jpeg.encode({ data, width, height }, 80).data;
  return { bytes: new Uint8Array(encoded), width, height };
}

async function input(language: PackLanguage): Promise<PackInput> {
  const shot = await screenshot();
  return {
    language,
    madeAt: new Date('2026-11-27T08:00:00Z'),
    victim: {
      name: 'Maria Santos',
      phone: '0917 555 0101',
      email: 'maria@example.ph',
      address: 'Quezon City',
    },
    institution: { name: 'GCash', victimAccount: '0917 555 0101' },
    identifiers: [
      { kind: 'mobile', written: '0917-123-4567' },
      { kind: 'website', written: 'shop-example.com' },
    ],
    incidentType: 'scam',
    incidentDate: '2026-11-25',
    description: 'Seller took payment for a phone and blocked me.',
    amountLost: 15000,
    transactions: [
      {
        reference: '5012 345 678901',
        amount: 'PHP 15,000.00',
        when: '2026-11-25 14:02',
        to: '0917 123 4567',
      },
    ],
    timeline: [{ when: '2026-11-25 15:00', what: 'Seller stopped answering' }],
    evidence: [
      {
        name: 'chat.jpg',
        bytes: shot.bytes.length,
        sha256: await sha256Hex(shot.bytes),
        image: { kind: 'jpeg', data: shot.bytes, width: shot.width, height: shot.height },
      },
    ],
    reportId: null,
  };
}

describe('complaint pack PDF', () => {
  it.each([
    ['en', /hold the disputed funds/, /Republic Act No\. 12010/],
    ['fil', /i-hold ang pinagtatalunang pondo/, /Republic Act No\. 12010/],
  ] as const)(
    'in %s: a valid PDF with the identifiers, the amounts, the evidence hash and the RA 12010 hold',
    async (language, hold, act) => {
      const pack = await input(language);
      const bytes = await packToPdf(buildPack(pack), pack.evidence);
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      const { pages, text } = await pdfText(bytes);
      const all = text.join('\n');
      // The facts, CICC, PNP-ACG, NBI, NTC, the bank letter, the evidence list and one image page.
      expect(pages).toBeGreaterThanOrEqual(8);
      expect(all).toContain('0917-123-4567');
      expect(all).toContain('+639171234567');
      expect(all).toContain('shop-example.com');
      expect(all).toContain('PHP 15,000.00');
      expect(all).toContain('5012 345 678901');
      expect(all).toContain(`SHA-256 ${pack.evidence[0].sha256}`);
      const letter = text.find((page) => /12010/.test(page) && /Fraud and Disputes/.test(page));
      expect(letter).toBeDefined();
      expect(letter).toMatch(hold);
      expect(letter).toMatch(act);
      expect(letter).toMatch(/30/);
      expect(letter).toMatch(/consumeraffairs@bsp\.gov\.ph/);
      expect(all).toContain('Maria Santos');
      // The image itself is in the file.
      const doc = await PDFDocument.load(bytes);
      expect(doc.getTitle()).toBe('Complaint pack');
    },
  );

  it('the plain text carries the same facts', async () => {
    const pack = await input('en');
    const text = packToText(buildPack(pack));
    expect(text).toContain('Mobile number: 0917-123-4567  (canonical: +639171234567)');
    expect(text).toContain('Total lost: PHP 15,000.00');
    expect(text).toContain(pack.evidence[0].sha256);
    expect(text).toMatch(/temporarily hold the disputed funds.*30 days as RA 12010 allows/);
  });

  it('writes characters the standard fonts lack as ? in the PDF but keeps them in the text', async () => {
    const pack = {
      ...(await input('en')),
      victim: { name: 'Ma. 李 Santos', phone: '', email: '', address: '' },
    };
    const { text } = await pdfText(await packToPdf(buildPack(pack), []));
    expect(text.join('\n')).toContain('Ma. ? Santos');
    expect(packToText(buildPack(pack))).toContain('Ma. 李 Santos');
  });

  it('hashes bytes as SHA-256 in lowercase hex', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
