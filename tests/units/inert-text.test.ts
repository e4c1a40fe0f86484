/**
 * Another person's text in ScamCheck's e-mails (issue 27): quoted, and never a link a mail client
 * would make, whatever the scheme, spelling or script of the address.
 */
import { describe, expect, it } from 'vitest';
import { defang, quoteHtml, quoteText } from '../../supabase/functions/_shared/inert-text.ts';

const URLISH = /(https?|ftp|mailto|tel|javascript):|\b[\w-]+\.(com|example|ph|top)\b|@/i;

describe('inert text', () => {
  it.each([
    'Log in at https://scamcheck-support.example/verify?u=1',
    'HTTP://EVIL.EXAMPLE',
    'www.evil.ph and evil.top',
    'write to help@evil.example or mailto:help@evil.example',
    'javascript:alert(1)',
    'evil\uFF0Ecom and evil\u3002com',
    'tel:+639171234567',
  ])('%s has no link left', (text) => {
    const out = defang(text);
    expect(out).not.toMatch(URLISH);
  });

  it('breaks schemes, dots and at signs the way security notices do', () => {
    expect(defang('See https://a.example/x or me@b.example.')).toBe(
      'See hxxps[:]//a[.]example/x or me[at]b[.]example.',
    );
  });

  it('drops control and invisible characters and cuts long text', () => {
    expect(defang('a\u0000b\u200Bc\u202Ed')).toBe('abcd');
    expect(defang('x'.repeat(400), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('quotes every line, in text and in escaped HTML', () => {
    expect(quoteText('one\ntwo.example')).toBe('> one\n> two[.]example');
    const html = quoteHtml('<a href="https://x.example">click</a>\nnext');
    expect(html).toMatch(/^<blockquote[^>]*>/);
    expect(html).not.toContain('<a ');
    expect(html).toContain('&#60;a href=&#34;hxxps[:]//x[.]example&#34;&#62;click&#60;/a&#62;<br>next');
  });
});
