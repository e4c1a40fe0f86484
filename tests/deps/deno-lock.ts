/**
 * supabase/functions/deno.lock, built from package-lock.json with no network.
 *
 * The functions import pinned `npm:name@version` specifiers. Locally Deno resolves them from node_modules;
 * `supabase functions deploy` bundles them from the registry and checks them against this lock. Writing the
 * lock from package-lock.json (the same versions and integrity hashes `npm install` verified) keeps the two
 * in step: what is deployed is byte for byte what the tests ran.
 *
 *   npx tsx tests/deps/deno-lock.ts          # prints whether the committed lock is current
 *   npx tsx tests/deps/deno-lock.ts --write  # rewrites it
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FUNCTIONS_DIR = path.join(ROOT, 'supabase/functions');
export const LOCK_PATH = path.join(FUNCTIONS_DIR, 'deno.lock');

export interface NpmSpecifier {
  /** The specifier as written, without a subpath: npm:name@version. */
  specifier: string;
  name: string;
  version: string;
  file: string;
}

interface LockPackage {
  name?: string;
  version: string;
  integrity: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: unknown;
}

const SPECIFIER = /npm:((?:@[a-z0-9._-]+\/)?[a-z0-9._-]+)@(\d[^/'"\s]*)/gi;

/** Every npm: specifier in the functions' sources, in imports, @deno-types comments and string constants. */
export function functionSpecifiers(dir = FUNCTIONS_DIR): NpmSpecifier[] {
  const out: NpmSpecifier[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|mjs|json)$/.test(entry.name) && entry.name !== 'deno.lock')
        for (const m of fs.readFileSync(p, 'utf8').matchAll(SPECIFIER))
          out.push({
            specifier: `npm:${m[1]}@${m[2]}`,
            name: m[1],
            version: m[2],
            file: path.relative(ROOT, p),
          });
    }
  };
  walk(dir);
  return out;
}

/** package-lock.json's installed packages, keyed by their real name and version. */
function installedPackages(): Map<string, { path: string; pkg: LockPackage }> {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };
  const byId = new Map<string, { path: string; pkg: LockPackage }>();
  for (const [p, pkg] of Object.entries(lock.packages)) {
    if (!p.includes('node_modules/') || !pkg.integrity) continue;
    const name = pkg.name ?? p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length);
    byId.set(`${name}@${pkg.version}`, { path: p, pkg });
  }
  return byId;
}

/** Where Node would find `name` from the package installed at `from` (the nested node_modules first). */
function resolveFrom(
  packages: Record<string, LockPackage>,
  from: string,
  name: string,
): { path: string; pkg: LockPackage } | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return { path: candidate, pkg: packages[candidate] };
    if (!dir) return null;
    const at = dir.lastIndexOf('node_modules/');
    dir = at <= 0 ? '' : dir.slice(0, at - 1);
  }
}

/** The deno.lock (version 5) that pins every specifier and everything it depends on to package-lock.json. */
export function buildDenoLock(specifiers = functionSpecifiers()): string {
  const packages = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockPackage>;
    }
  ).packages;
  const installed = installedPackages();
  const entries = new Map<string, { integrity: string; deps: string[]; bin: boolean }>();
  const visit = (id: string, at: { path: string; pkg: LockPackage }) => {
    if (entries.has(id)) return;
    const deps: string[] = [];
    const entry = { integrity: at.pkg.integrity, deps, bin: at.pkg.bin !== undefined };
    entries.set(id, entry);
    for (const dep of Object.keys({ ...at.pkg.dependencies, ...at.pkg.optionalDependencies })) {
      const found = resolveFrom(packages, at.path, dep);
      if (!found) {
        if (at.pkg.optionalDependencies?.[dep]) continue;
        throw new Error(`${id} depends on ${dep}, which package-lock.json does not install`);
      }
      const depId = `${found.pkg.name ?? dep}@${found.pkg.version}`;
      deps.push(depId);
      visit(depId, found);
    }
  };
  const specifierMap: Record<string, string> = {};
  for (const s of specifiers) {
    const at = installed.get(`${s.name}@${s.version}`);
    if (!at)
      throw new Error(`${s.specifier} (${s.file}) is not installed by package-lock.json at that version`);
    specifierMap[s.specifier] = s.version;
    visit(`${s.name}@${s.version}`, at);
  }
  // Deno names a dependency by its bare name when the lock holds one version of it, else name@version.
  const versionsOf = new Map<string, number>();
  for (const id of entries.keys()) {
    const name = id.slice(0, id.lastIndexOf('@'));
    versionsOf.set(name, (versionsOf.get(name) ?? 0) + 1);
  }
  const npm: Record<string, { integrity: string; dependencies?: string[]; bin?: true }> = {};
  for (const id of [...entries.keys()].sort()) {
    const e = entries.get(id)!;
    const deps = e.deps
      .map((d) => {
        const name = d.slice(0, d.lastIndexOf('@'));
        return versionsOf.get(name) === 1 ? name : d;
      })
      .sort();
    npm[id] = {
      integrity: e.integrity,
      ...(deps.length ? { dependencies: deps } : {}),
      ...(e.bin ? { bin: true } : {}),
    };
  }
  const sortedSpecifiers = Object.fromEntries(
    Object.entries(specifierMap).sort(([a], [b]) => a.localeCompare(b)),
  );
  return `${JSON.stringify({ version: '5', specifiers: sortedSpecifiers, npm }, null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const next = buildDenoLock();
  const current = fs.existsSync(LOCK_PATH) ? fs.readFileSync(LOCK_PATH, 'utf8') : '';
  if (process.argv.includes('--write')) {
    fs.writeFileSync(LOCK_PATH, next);
    console.log(current === next ? 'deno.lock is current' : 'deno.lock rewritten from package-lock.json');
  } else if (current !== next) {
    console.error('deno.lock differs from package-lock.json; run: npx tsx tests/deps/deno-lock.ts --write');
    process.exitCode = 1;
  } else console.log('deno.lock is current');
}
