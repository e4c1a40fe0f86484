import { headlineFacts, identifierSegments } from './search-headline';

const reports = (...statuses: string[]) => statuses.map((status) => ({ status }));

describe('the results headline', () => {
  it('reads the exact verified count when the answer lists every report', () => {
    expect(
      headlineFacts({ count: 3, reports: reports('verified', 'not-verified', 'verified') }),
    ).toMatchObject({
      tone: 'verified',
      key: 'verified',
      count: 3,
      verified: 2,
    });
    expect(headlineFacts({ count: 2, reports: reports('not-verified', 'not-verified') })).toMatchObject({
      tone: 'pending',
      key: 'pending',
    });
  });

  it('says "at least" or "the latest" when older reports are not in the answer', () => {
    expect(headlineFacts({ count: 47, reports: reports('verified', 'not-verified') })).toMatchObject({
      key: 'verifiedAtLeast',
      verified: 1,
    });
    expect(headlineFacts({ count: 47, reports: reports('not-verified') })).toMatchObject({
      tone: 'pending',
      key: 'pendingLatest',
      shown: 1,
    });
  });

  it('uses the answer’s own verified count when it has one, and says nobody reported it for 0', () => {
    expect(
      headlineFacts({ count: 47, summary: { verified_count: 31 }, reports: reports('not-verified') }),
    ).toMatchObject({
      key: 'verified',
      verified: 31,
    });
    expect(
      headlineFacts({ count: 47, summary: { verified_count: 0 }, reports: reports('verified') }),
    ).toMatchObject({
      key: 'pending',
    });
    expect(headlineFacts({ count: 0, reports: [] })).toMatchObject({ tone: 'none', key: 'none' });
  });
});

describe('identifier wrapping', () => {
  it('keeps short values and phone numbers whole', () => {
    expect(identifierSegments('0917 555 0142')).toEqual(['0917 555 0142']);
    expect(identifierSegments('+63 917 555 0142 0917 555 0143')).toEqual(['+63 917 555 0142 0917 555 0143']);
  });

  it('cuts e-mail and web addresses only after a separator, and gives the value back unchanged', () => {
    const email = 'support.team@bdo-verify-account.example.com';
    const pieces = identifierSegments(email);
    expect(pieces.join('')).toBe(email);
    expect(pieces).toContain('support.');
    expect(pieces).toContain('team@');
    for (const piece of pieces.slice(0, -1)) expect(piece).toMatch(/[@./:?&=_\-# ]$/);
    expect(identifierSegments('https://gcash-rewards-ph.com/claim?id=1')).toEqual([
      'https:',
      '/',
      '/',
      'gcash-',
      'rewards-',
      'ph.',
      'com/',
      'claim?',
      'id=',
      '1',
    ]);
  });

  it('leaves a wallet address in one piece (the page scales it instead)', () => {
    expect(identifierSegments('0x8f3cf7ad23cd3cadbd9735aff958023239c6a063')).toEqual([
      '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
    ]);
  });
});
