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
    ['ewallet', 'GCash  0917', /e-wallet account number or name/],
  ] as const)('refuses a %s like %j', (kind, value, message) => {
    expect(identifierError(kind, value)).toMatch(message);
  });
});

describe('identifierError messages and the 320-character limit', () => {
  it('says exactly what is wrong', () => {
    expect(identifierError('mobile', '')).toBe('Enter the account you are reporting');
    expect(identifierError('mobile', 'abc')).toBe('Enter a valid mobile number, e.g. 0917 123 4567');
    expect(identifierError('email', 'abc')).toBe('Enter a valid e-mail address, e.g. name@example.com');
    expect(identifierError('website', 'abc')).toBe('Enter a website address, e.g. example.com');
    expect(identifierError('crypto', 'abc')).toBe('Enter a crypto wallet address, e.g. 0x… or bc1…');
    expect(identifierError('ewallet', 'a  b')).toBe('Enter the e-wallet account number or name');
  });

  it('accepts 320 characters and refuses 321, counted after trimming', () => {
    expect(identifierError('ewallet', 'a'.repeat(320))).toBeNull();
    expect(identifierError('ewallet', ` ${'a'.repeat(320)} `)).toBeNull();
    expect(identifierError('ewallet', 'a'.repeat(321))).toBe('That is too long to be an account');
  });

  it('takes the kind the value looks like, not another', () => {
    expect(identifierError('mobile', 'me@example.com')).not.toBeNull();
    expect(identifierError('email', '0917 123 4567')).not.toBeNull();
    expect(identifierError('website', 'me@example.com')).not.toBeNull();
    expect(identifierError('crypto', 'example.com')).not.toBeNull();
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
      error:
        '"my cat" is not an e-mail, mobile number, website, social media account link or crypto wallet address',
    });
  });

  it('needs at least one identifier', () => {
    expect(parseIdentifierList(' , \n ')).toEqual({
      ok: false,
      error: 'Enter at least one e-mail, mobile number, website or crypto wallet',
    });
  });

  it('refuses a free-form e-wallet name and anything over 320 characters', () => {
    expect(parseIdentifierList('juan_dela_cruz')).toEqual({
      ok: false,
      error:
        '"juan_dela_cruz" is not an e-mail, mobile number, website, social media account link or crypto wallet address',
    });
    const long = `${'a'.repeat(309)}@example.com`; // 321 characters, a well-formed address otherwise
    expect(parseIdentifierList(long)).toMatchObject({ ok: false });
    const longest = `${'a'.repeat(308)}@example.com`;
    expect(parseIdentifierList(longest)).toMatchObject({ ok: true });
  });

  it('names an entry that looks like a kind but has nothing to keep (a scheme with no host)', () => {
    expect(parseIdentifierList('0917 123 4567, https://')).toEqual({
      ok: false,
      error:
        '"https://" is not an e-mail, mobile number, website, social media account link or crypto wallet address',
    });
  });
});
