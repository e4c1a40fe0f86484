/**
 * Every test that asserts a protection says where that protection holds on hosted Supabase (issue 29,
 * item 5; docs/security.md "Where each protection holds"). What counts as a protection test, and what
 * counts as a tag, is in protection-tags.ts. Reads the test files as syntax trees: no stack, about a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLACES, protectionTests, type ProtectionTest } from './protection-tags.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The suites a protection test may live in. Not the browser tests (tests/e2e), which check screens, not
 * guards, nor this file, whose fixtures are protection tests on purpose.
 */
function testFiles(): string[] {
  const under = (dir: string, suffix: string) =>
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(suffix) && !f.includes('node_modules'))
      .map((f) => path.join(dir, f));
  return [
    ...under('supabase/tests', '.test.ts'),
    ...under('supabase/local', '.test.ts'),
    ...under('supabase/functions', '_test.ts'),
    ...under('tests', '.test.ts').filter(
      (f) =>
        !f.startsWith(path.join('tests', 'e2e')) &&
        f !== path.join('tests', 'units', 'protection-tags.test.ts'),
    ),
  ].sort();
}

/**
 * Tests that match the rules but guard nothing of the product's: they check the local stack's own
 * plumbing, which hosted Supabase does not run. Keyed by file and test title; each must still match.
 */
const NOT_PROTECTIONS: Record<string, string> = {
  "supabase/local/tests/functions.test.ts > hands on an answer given before the body was read, and closes the caller's connection":
    "the local function runner's proxy passing on an early 413",
  'supabase/local/tests/functions.test.ts > reads and drops a small body the function answered early, so a caller still sending gets the answer':
    "the local function runner's proxy passing on an early 403",
  'supabase/local/tests/mail.test.ts > speaks SMTP with implicit TLS only, with a certificate the stack trusts':
    'the local mail sink refusing plain SMTP',
  'supabase/tests/functions/scheduler.test.ts > refuses a schedule pg_cron refuses':
    "the local pg_cron stand-in's schedule syntax",
  'supabase/local/tests/postgres.test.ts > names a port another program holds in one line':
    "the local Postgres's start-up error",
};

const key = (file: string, title: string) => `${file.split(path.sep).join('/')} > ${title}`;

let scanned: ProtectionTest[] | undefined;
function scanTree(): ProtectionTest[] {
  scanned ??= testFiles().flatMap((file) =>
    protectionTests(file, fs.readFileSync(path.join(ROOT, file), 'utf8')),
  );
  return scanned;
}

describe('protection tests say where they hold', () => {
  it('every protection test in the suites is tagged with holds on: <where>', () => {
    const found = scanTree();
    // A scanner that finds nothing would pass everything.
    expect(found.length).toBeGreaterThan(150);
    const untagged = found
      .filter((t) => !t.tagged && !(key(t.file, t.titles.at(-1)!) in NOT_PROTECTIONS))
      .map((t) => `${t.file}:${t.line} ${t.titles.join(' > ')} (${t.reasons.join(', ')})`);
    expect(
      untagged,
      `add "holds on: ${PLACES.join(' | ')}" to the describe or test title (docs/security.md)`,
    ).toEqual([]);
  });

  it('each exception still names an untagged test that matches the rules', () => {
    const found = new Set(scanTree().map((t) => key(t.file, t.titles.at(-1)!)));
    expect(Object.keys(NOT_PROTECTIONS).filter((k) => !found.has(k))).toEqual([]);
  });
});

describe('what counts as a protection test', () => {
  const scan = (body: string) => protectionTests('fixture.test.ts', body);

  it('finds an untagged test by each rule: a refusal status, database refusal, .rejects, or an attack in its title', () => {
    const fixture = `
      describe('reports', () => {
        it('a burst gets 429', async () => { expect((await call()).status).toBe(429); });
        it('anon is refused', async () => { expect(res.status).toEqual(401); });
        it('strangers cannot update', async () => { await expect(update()).rejects.toThrow(/permission denied/); });
        it('anon cannot read', async () => { expect(error?.message).toMatch(DENIED); });
        it('a policy', async () => { expect(error?.code).toBe('42501'); });
        it('refuses a forged token', async () => { expect(await ok()).toBe(false); });
        it.each(['a', 'b'])('%s is too large', async () => { expect(res.status).toBe(413); });
        it('reads its own reports', async () => { expect(res.status).toBe(200); expect(() => parse('')).toThrow(); });
      });`;
    const found = scan(fixture);
    expect(found.map((t) => [t.titles.at(-1), t.tagged])).toEqual([
      ['a burst gets 429', false],
      ['anon is refused', false],
      ['strangers cannot update', false],
      ['anon cannot read', false],
      ['a policy', false],
      ['refuses a forged token', false],
      ['%s is too large', false],
    ]);
    expect(found.map((t) => t.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('takes a tag from the test or any describe around it, naming only the known places', () => {
    const fixture = `
      describe('holds on: postgres — reports', () => {
        describe('insert', () => {
          it('anon is refused', async () => { expect(res.status).toBe(401); });
        });
      });
      describe('legacy API', () => {
        it('holds on: edge function + postgres — a burst gets 429', async () => { expect(s).toBe(429); });
        it('holds on: the cloud — anon is refused', async () => { expect(s).toBe(401); });
        it('holds on: postgres + the cloud — anon is refused', async () => { expect(s).toBe(401); });
        it('holds on: config.tomlx — anon is refused', async () => { expect(s).toBe(401); });
        test('holds on: local-only — deep JSON', async () => { await expect(p).rejects.toThrow(); });
      });`;
    expect(scan(fixture).map((t) => t.tagged)).toEqual([true, true, false, false, false, true]);
  });

  it('fails the tree check on an untagged protection test', () => {
    const untagged =
      "describe('uploads', () => { it('a flood meets 429', () => { expect(s).toBe(429); }); });";
    const tagged = untagged.replace("'uploads'", "'holds on: edge function + postgres — uploads'");
    expect(scan(untagged).filter((t) => !t.tagged)).toHaveLength(1);
    expect(scan(tagged).filter((t) => !t.tagged)).toHaveLength(0);
  });
});
