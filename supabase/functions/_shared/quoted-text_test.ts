import assert from 'node:assert/strict';
import { QUOTE_MAX_CHARS, quotedText } from './quoted-text.ts';

Deno.test('quotedText: plain words stay, quoted', () => {
  assert.equal(quotedText('  Please   remove\nmy report  '), '"Please remove my report"');
});

Deno.test('quotedText: nothing a mail client could show as a link survives', () => {
  for (const text of [
    'visit https://evil.example/pay now',
    'go to evil.example',
    'go to EVIL.EXAMPLE/path?x=1',
    'www.evil.example',
    'evil\u3002example',
    'mail me: someone@evil.example',
    'javascript:alert(1)',
    'tel:+639171234567',
    'xn--80ak6aa92e.com',
  ]) {
    const out = quotedText(text);
    assert.ok(!/evil|example|\.com|javascript:|tel:|xn--|@/i.test(out), `${text} -> ${out}`);
    assert.ok(out.includes('[link removed]'), `${text} -> ${out}`);
  }
});

Deno.test(
  'quotedText: controls, bidi and zero-width characters go; quotes cannot close it; length is capped',
  () => {
    assert.equal(quotedText('a\u0000b\u202ec\u200bd "e"'), `"a bcd 'e'"`);
    const long = quotedText('word '.repeat(200));
    assert.equal([...long].length, QUOTE_MAX_CHARS + 2);
    assert.ok(long.endsWith('…"'));
  },
);
