import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { lookupIdentifierPrivately, type RangeResult } from '@/lib/range-lookup';
import { translateServerError } from '@/lib/server-errors';
import { API_BASE } from './api';

/** The server's risk label ('low', 'medium', 'high') in the reader's language, as search shows it. */
const riskLabels = {
  low: 'search.summary.risk.low',
  medium: 'search.summary.risk.medium',
  high: 'search.summary.risk.high',
} as const;

/**
 * Tries the range lookup in the browser: the identifier is canonicalised and hashed here, and only
 * the first 5 characters of its hash leave the page.
 */
export function RangeDemo() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [result, setResult] = useState<RangeResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const r = await lookupIdentifierPrivately(value, { apiBase: API_BASE });
      if (!r) setError(t('developers.demo.invalid'));
      else setResult(r);
    } catch (err) {
      // The API's refusal in the reader's words by its code; never its English message.
      setError(translateServerError(err) ?? t('developers.demo.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-md border p-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-2">
          <Label htmlFor="range-demo">{t('developers.demo.label')}</Label>
          <Input id="range-demo" value={value} onChange={(e) => setValue(e.target.value)} maxLength={256} />
        </div>
        <Button type="submit" disabled={busy || value.trim() === ''}>
          {busy ? t('developers.demo.checking') : t('developers.demo.submit')}
        </Button>
      </form>
      <div aria-live="polite" className="text-sm">
        {error && <p className="text-destructive">{error}</p>}
        {result && (
          <p data-testid="range-result">
            <Trans
              i18nKey="developers.demo.sent"
              values={{ prefix: result.prefix, canonical: result.canonical }}
              components={{ prefix: <code />, canonical: <code className="break-all" /> }}
            />{' '}
            {result.count === 0
              ? t('developers.demo.notReported')
              : t('developers.demo.reported', {
                  count: result.count,
                  risk: result.risk_level,
                  label:
                    result.risk_label in riskLabels
                      ? t(riskLabels[result.risk_label as keyof typeof riskLabels])
                      : result.risk_label,
                })}
          </p>
        )}
      </div>
    </div>
  );
}
