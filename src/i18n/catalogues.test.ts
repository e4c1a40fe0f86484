import en from './locales/en.json';
import fil from './locales/fil.json';
import enDashboard from './locales/dashboard/en.json';
import filDashboard from './locales/dashboard/fil.json';
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

/** The public catalogue and the dashboard's (index.ts DASHBOARD_NS), per language. */
const parts = {
  en: { public: flatten(en), dashboard: flatten(enDashboard) },
  fil: { public: flatten(fil), dashboard: flatten(filDashboard) },
};
/** What the app can look up once the dashboard's texts are loaded. */
const catalogues = {
  en: new Map([...parts.en.public, ...parts.en.dashboard]),
  fil: new Map([...parts.fil.public, ...parts.fil.dashboard]),
};
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

/** The source file a specifier names ('@/x' or './x'), as a key of `code`; null for packages. */
function resolveImport(from: string, specifier: string, code: Map<string, string>): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = `/src/${specifier.slice(2)}`;
  else if (specifier.startsWith('.')) base = new URL(specifier, `file://${from}`).pathname;
  else return null;
  for (const suffix of ['', '.ts', '.tsx', '/index.ts', '/index.tsx'])
    if (code.has(base + suffix)) return base + suffix;
  return null;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)['"]([^'"]+)['"]/g;

/**
 * Every source file the public pages can load: the entry (src/boot/main.tsx), the page shells index.html
 * is built with (src/boot/build/render-page-shells.tsx), and everything they import, statically or lazily, except the dashboard's
 * routes, which the router fetches with the dashboard's texts (router.tsx patchRoutesOnNavigation).
 */
function publicModules(code: Map<string, string>): Set<string> {
  const seen = new Set<string>();
  const queue = ['/src/boot/main.tsx', '/src/boot/build/render-page-shells.tsx'];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of code.get(file)!.matchAll(IMPORT)) {
      if (file === '/src/app/router.tsx' && specifier === './routes/dashboard/routes') continue;
      const next = resolveImport(file, specifier, code);
      if (next) queue.push(next);
    }
  }
  return seen;
}

/** Whether `text` names the key as a whole string literal (how the catalogue test finds uses). */
const names = (text: string, key: string) =>
  text.includes(`'${key}'`) || text.includes(`"${key}"`) || text.includes(`\`${key}\``);

describe('message catalogues', () => {
  it('English and Filipino have exactly the same keys, in the same catalogue', () => {
    for (const part of ['public', 'dashboard'] as const) {
      const enKeys = [...parts.en[part].keys()];
      const filKeys = [...parts.fil[part].keys()];
      expect(
        enKeys.filter((k) => !parts.fil[part].has(k)),
        `${part} keys missing in Filipino`,
      ).toEqual([]);
      expect(
        filKeys.filter((k) => !parts.en[part].has(k)),
        `${part} keys missing in English`,
      ).toEqual([]);
    }
    expect(
      [...parts.en.dashboard.keys()].filter((k) => parts.en.public.has(k)),
      'keys in both catalogues',
    ).toEqual([]);
  });

  it('the public pages use only public texts, and texts only the dashboard uses load with it', () => {
    const code = new Map(sources);
    const reachable = publicModules(code);
    // The walk follows the router into the public pages but not into the dashboard.
    expect(reachable).toContain('/src/app/routes/home.tsx');
    expect(reachable).toContain('/src/features/search/components/search-results.tsx');
    expect(reachable).not.toContain('/src/app/routes/dashboard/routes.tsx');
    expect(reachable).not.toContain('/src/app/routes/dashboard/admin/review-workspace.tsx');
    const publicCode = [...code].filter(([file]) => reachable.has(file)).map(([, text]) => text);
    const usedPublicly = (key: string) =>
      publicCode.some((text) => names(text, key.replace(PLURAL_SUFFIX, '')));
    expect(
      [...parts.en.dashboard.keys()].filter(usedPublicly),
      'dashboard texts that public pages use (move them to locales/<language>.json)',
    ).toEqual([]);
    expect(
      [...parts.en.public.keys()].filter((key) => !usedPublicly(key)),
      'public texts that only the dashboard uses (move them to locales/dashboard/<language>.json)',
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
