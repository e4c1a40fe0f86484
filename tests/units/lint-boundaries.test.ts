/**
 * The import rules of eslint.config.js (docs/architecture.md) really fire: code that breaks a layer is
 * refused with the rule's message, and the same imports from an allowed place pass. Linted as text at
 * made-up paths inside src, so nothing is written to the tree.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId?.startsWith('import-x/')).map((m) => m.message);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('refuses an import from another feature, and allows one inside the feature', async () => {
    const code = "import { searchKeys } from '@/features/search/api/keys';\nexport const k = searchKeys;\n";
    expect(await importErrors('src/features/news/api/probe.ts', code)).toEqual([
      expect.stringContaining('A feature may not import another feature'),
    ]);
    expect(await importErrors('src/features/search/api/probe.ts', code)).toEqual([]);
  });

  it('refuses upward imports: a feature from src/app, shared code from a feature or a route', async () => {
    const fromApp = "import { AppProvider } from '@/app/provider';\nexport const p = AppProvider;\n";
    expect(await importErrors('src/features/news/api/probe.ts', fromApp)).toEqual([
      expect.stringContaining('Features may not import from src/app'),
    ]);
    const fromFeature = "import { newsKeys } from '@/features/news/api/keys';\nexport const k = newsKeys;\n";
    for (const layer of ['components', 'lib', 'config']) {
      expect(await importErrors(`src/${layer}/probe.ts`, fromFeature)).toEqual([
        expect.stringContaining('Shared code (components, lib, config, types, boot) may not import'),
      ]);
    }
    // The first load's runtime is shared code; its entry composes the app.
    expect(await importErrors('src/boot/probe.ts', fromFeature)).toEqual([
      expect.stringContaining('Shared code (components, lib, config, types, boot) may not import'),
    ]);
    expect(await importErrors('src/boot/main.tsx', fromFeature)).toEqual([]);
    // Routes compose features: allowed.
    expect(await importErrors('src/app/routes/probe.ts', fromFeature)).toEqual([]);
  });

  it("lets the SPA import only the isomorphic modules of the functions' shared code", async () => {
    const from = (file: string) =>
      `import * as m from '../../supabase/functions/_shared/${file}';\nexport const x = m;\n`;
    for (const file of ['canonical.ts', 'check-message.ts', 'limits.ts', 'database.types.ts']) {
      expect(await importErrors('src/lib/probe.ts', from(file)), file).toEqual([]);
    }
    // Deno-only modules (service keys, Postgres, mail, the functions' HTTP helpers) are refused.
    for (const file of ['supabase.ts', 'postgres.ts', 'mail.ts', 'http.ts', 'service.ts']) {
      expect(await importErrors('src/lib/probe.ts', from(file)), file).toEqual([
        expect.stringContaining('only the isomorphic modules of supabase/functions/_shared'),
      ]);
    }
    // The local stack is no part of the SPA either.
    const local = "import { ROOT_DIR } from '../../supabase/local/config.ts';\nexport const r = ROOT_DIR;\n";
    expect(await importErrors('src/lib/probe.ts', local)).toEqual([
      expect.stringContaining('only the isomorphic modules'),
    ]);
  });

  it("keeps the local stack's files its own: the product reaches it through the package's public entries", async () => {
    const stackErrors = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result.messages
        .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
        .map((m) => m.message);
    };
    const refused = [expect.stringContaining("The local stack's files are its own")];
    const withRole = (from: string) => `import { withRole } from '${from}';\nexport const w = withRole;\n`;
    // A product database test, a script and the project adapter may not reach into the package's files.
    expect(await stackErrors('supabase/tests/db/probe.test.ts', withRole('../../local/db.ts'))).toEqual(
      refused,
    );
    expect(await stackErrors('tests/bench/probe.ts', withRole('../../supabase/local/db.ts'))).toEqual(
      refused,
    );
    expect(await stackErrors('supabase/project/probe.ts', withRole('../local/db.ts'))).toEqual(refused);
    expect(
      await stackErrors(
        'tests/bench/probe.ts',
        "export const s = await import('../../supabase/local/stack.ts');\n",
      ),
    ).toEqual(refused);
    expect(await stackErrors('tests/bench/probe.ts', withRole('@scamcheck/local-supabase/db.ts'))).toEqual(
      refused,
    );
    // Its public entries, and the product's own helper, are allowed.
    expect(await stackErrors('tests/bench/probe.ts', withRole('@scamcheck/local-supabase'))).toEqual([]);
    expect(await stackErrors('tests/bench/probe.ts', withRole('@scamcheck/local-supabase/testing'))).toEqual(
      [],
    );
    expect(await stackErrors('supabase/tests/db/probe.test.ts', withRole('../helpers.ts'))).toEqual([]);
    // Inside the package its files import each other freely; the SPA may not import it at all.
    expect(await stackErrors('supabase/local/tests/probe.test.ts', withRole('../db.ts'))).toEqual([]);
    expect(await stackErrors('src/lib/probe.ts', withRole('@scamcheck/local-supabase'))).toEqual([
      expect.stringContaining('The local stack is no part of the SPA.'),
    ]);
  });

  it('has no-cycle switched on for src', async () => {
    const config = await eslint.calculateConfigForFile('src/lib/probe.ts');
    expect(config.rules?.['import-x/no-cycle']?.[0]).toBe(2);
  });
});
