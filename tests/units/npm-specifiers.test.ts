/**
 * The edge functions' `npm:` specifiers are installed by `npm install` at exactly the pinned version (locally Deno
 * resolves them from node_modules, with no network), and supabase/functions/deno.lock, which deploys check what
 * they download against, is the one package-lock.json gives (tests/deps/deno-lock.ts writes it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDenoLock, functionSpecifiers, LOCK_PATH, ROOT } from '../deps/deno-lock.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const specifiers = functionSpecifiers();

/** package.json's entries that install `name`: its own key, or an alias `other: npm:name@version`. */
function declaredVersions(name: string): string[] {
  return Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap(([key, range]) => {
    const alias = /^npm:((?:@[^/@]+\/)?[^/@]+)@(.+)$/.exec(range);
    if (alias) return alias[1] === name ? [alias[2]] : [];
    return key === name ? [range] : [];
  });
}

describe('npm: specifiers of the edge functions', () => {
  it('are found in every place the functions name a package', () => {
    const names = new Set(specifiers.map((s) => s.name));
    // imports and @deno-types comments
    for (const name of ['@supabase/supabase-js', 'zod', '@types/nodemailer'])
      expect(names, name).toContain(name);
  });

  it.each(specifiers.map((s) => [s.specifier, s.file, s] as const))(
    '%s (%s) is a package.json dependency at exactly that version',
    (_specifier, _file, s) => {
      expect(declaredVersions(s.name), `${s.name} in package.json`).toContain(s.version);
      const installed = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'node_modules', s.name, 'package.json'), 'utf8'),
      ) as { version: string };
      // An alias (nodemailer-deno) installs the pinned copy beside the app's own; otherwise it is the one installed.
      if (!Object.values(pkg.dependencies).includes(`npm:${s.name}@${s.version}`))
        expect(installed.version, `node_modules/${s.name}`).toBe(s.version);
    },
  );

  it('deno.lock is the lock package-lock.json gives (npx tsx tests/deps/deno-lock.ts --write)', () => {
    const lock = JSON.parse(fs.readFileSync(LOCK_PATH, 'utf8')) as {
      specifiers: Record<string, string>;
      npm: Record<string, { integrity: string }>;
    };
    for (const s of specifiers) {
      expect(lock.specifiers[s.specifier], s.specifier).toBe(s.version);
      expect(lock.npm[`${s.name}@${s.version}`]?.integrity, s.specifier).toMatch(/^sha512-/);
    }
    expect(fs.readFileSync(LOCK_PATH, 'utf8')).toBe(buildDenoLock(specifiers));
  });
});
