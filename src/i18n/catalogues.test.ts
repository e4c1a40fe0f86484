import en from './locales/en.json';
import fil from './locales/fil.json';
import adminUsersEn from './locales/admin-users/en.json';
import adminUsersFil from './locales/admin-users/fil.json';

/** Every leaf of a catalogue as 'a.b.c' -> text. */
function flatten(node: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') {
    out.set(prefix, node);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) flatten(value, prefix ? `${prefix}.${key}` : key, out);
  } else {
    throw new Error(`${prefix}: a catalogue holds only text, found ${JSON.stringify(node)}`);
  }
  return out;
}

const catalogues = { en: flatten(en), fil: flatten(fil) };
/** Namespaces loaded with their (admin-only) screens, each checked like the main catalogue. */
const namespaces = { adminUsers: { en: flatten(adminUsersEn), fil: flatten(adminUsersFil) } };

/** The source that may use keys: everything in src except the catalogues and tests. */
const sources = Object.entries(
  import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/i18n/locales/**'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
);

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** {{variables}} and <tags> a text uses; both languages must use the same ones. */
function placeholders(text: string): string[] {
  const variables = [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => `{{${m[1]}}}`);
  const tags = [...text.matchAll(/<\/?(\w+)\s*\/?>/g)].map((m) => m[0]);
  return [...new Set([...variables, ...tags])].sort();
}

describe('message catalogues', () => {
  it('English and Filipino have exactly the same keys', () => {
    const enKeys = [...catalogues.en.keys()];
    const filKeys = [...catalogues.fil.keys()];
    expect(
      enKeys.filter((k) => !catalogues.fil.has(k)),
      'keys missing in Filipino',
    ).toEqual([]);
    expect(
      filKeys.filter((k) => !catalogues.en.has(k)),
      'keys missing in English',
    ).toEqual([]);
  });

  it('no message is empty, and both languages use the same variables and tags', () => {
    for (const [key, text] of catalogues.en) {
      const other = catalogues.fil.get(key) ?? '';
      expect(text.trim(), `en ${key}`).not.toBe('');
      expect(other.trim(), `fil ${key}`).not.toBe('');
      expect(placeholders(other), `fil ${key}`).toEqual(placeholders(text));
    }
  });

  it('every key is used somewhere in src', () => {
    const code = sources.map(([, text]) => text).join('\n');
    const unused = [...catalogues.en.keys()]
      .map((key) => key.replace(PLURAL_SUFFIX, ''))
      .filter((key, i, all) => all.indexOf(key) === i)
      .filter(
        (key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`) && !code.includes(`\`${key}\``),
      );
    expect(unused, 'keys no component uses').toEqual([]);
  });

  it('lazily loaded namespaces: same keys and placeholders in both languages, every key used', () => {
    const code = sources.map(([, text]) => text).join('\n');
    for (const [ns, { en: nsEn, fil: nsFil }] of Object.entries(namespaces)) {
      expect([...nsFil.keys()].sort(), ns).toEqual([...nsEn.keys()].sort());
      for (const [key, text] of nsEn) {
        expect(text.trim(), `${ns} en ${key}`).not.toBe('');
        expect(placeholders(nsFil.get(key) ?? ''), `${ns} fil ${key}`).toEqual(placeholders(text));
        expect(code.includes(`'${key.replace(PLURAL_SUFFIX, '')}'`), `${ns} ${key} unused`).toBe(true);
      }
    }
  });

  it('the check finds the source files (so an empty glob cannot pass it)', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.some(([path]) => path.endsWith('/src/components/layouts/public-layout.tsx'))).toBe(true);
  });
});
