import { identifierError, parseIdentifierList } from './identifiers';

describe('identifierError', () => {
  it.each([
    ['mobile', '0917 123 4567'],
    ['mobile', '+63 917 123 4567'],
    ['email', 'Scammer@Example.com'],
    ['website', 'https://gcash-rewards-ph.com/claim'],
    ['crypto', '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063'],
    ['ewallet', 'GCash 0917 123 4567'],
  ] as const)('accepts a %s like %s', (kind, value) => {
    expect(identifierError(kind, value)).toBeNull();
  });

  it.each([
    ['mobile', 'call me maybe', /valid mobile number/],
    ['email', 'scammer.example.com', /valid e-mail/],
    ['website', 'not a site', /website address/],
    ['crypto', 'hello', /crypto wallet/],
    ['mobile', '   ', /account you are reporting/],
  ] as const)('refuses a %s like %j', (kind, value, message) => {
    expect(identifierError(kind, value)).toMatch(message);
  });
});

describe('parseIdentifierList', () => {
  it('splits on commas and lines and keeps each identifier once, however it was typed', () => {
    const result = parseIdentifierList(
      '0917 123 4567, +639171234567\nme@Example.com,\n  https://www.My-Shop.ph/path , 0x8F3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
    );
    expect(result).toEqual({
      ok: true,
      identifiers: [
        { value: '0917 123 4567', kind: 'mobile', canonical: '+639171234567' },
        { value: 'me@Example.com', kind: 'email', canonical: 'me@example.com' },
        { value: 'https://www.My-Shop.ph/path', kind: 'website', canonical: 'my-shop.ph' },
        {
          value: '0x8F3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
          kind: 'crypto',
          canonical: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        },
      ],
    });
  });

  it('names the first entry that is not an e-mail, number, website or wallet', () => {
    expect(parseIdentifierList('me@example.com, my cat, 0917 123 4567')).toEqual({
      ok: false,
      error: '"my cat" is not an e-mail, mobile number, website or crypto wallet address',
    });
  });

  it('needs at least one identifier', () => {
    expect(parseIdentifierList(' , \n ')).toMatchObject({ ok: false });
  });
});
