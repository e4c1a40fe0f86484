/**
 * Issue 15: the no-literal-string rule of eslint.config.js covers every component in src, so a
 * hard-coded text anywhere fails lint, while text through t() and what is not language (punctuation,
 * the brand name) passes. Linted as text at made-up paths, so nothing is written to the tree.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function literalErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'i18next/no-literal-string').length;
}

const hardCoded = 'export function Probe() {\n  return <p title="Close">Hello there</p>;\n}\n';
const translated =
  "import { useTranslation } from 'react-i18next';\n" +
  'export function Probe() {\n' +
  '  const { t } = useTranslation();\n' +
  "  return <p title={t('common.loading')}>{t('common.unknown')} <b>·</b> <b>ScamCheck</b></p>;\n" +
  '}\n';

describe('no hard-coded text', { timeout: 60_000 }, () => {
  it('refuses JSX text and read-aloud attributes in any component folder', async () => {
    for (const dir of [
      'src/app',
      'src/app/routes/dashboard',
      'src/components/layouts',
      'src/features/stats',
      'src/lib',
    ])
      expect(await literalErrors(`${dir}/probe.tsx`, hardCoded), dir).toBe(2);
  });

  it('lets text through t(), punctuation and the brand name pass, and leaves tests alone', async () => {
    expect(await literalErrors('src/features/stats/probe.tsx', translated)).toBe(0);
    expect(await literalErrors('src/features/stats/probe.test.tsx', hardCoded)).toBe(0);
  });
});
