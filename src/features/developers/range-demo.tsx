import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { lookupIdentifierPrivately, type RangeResult } from '@/lib/range-lookup';
import { API_BASE } from './api';

/**
 * Tries the range lookup in the browser: the identifier is canonicalised and hashed here, and only
 * the first 5 characters of its hash leave the page.
 */
export function RangeDemo() {
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
      if (!r) setError('Enter a mobile number, e-mail, website, e-wallet or crypto address');
      else setResult(r);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The lookup failed, please try again');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-md border p-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-2">
          <Label htmlFor="range-demo">Try it: an identifier</Label>
          <Input id="range-demo" value={value} onChange={(e) => setValue(e.target.value)} maxLength={256} />
        </div>
        <Button type="submit" disabled={busy || value.trim() === ''}>
          {busy ? 'Checking...' : 'Check privately'}
        </Button>
      </form>
      <div aria-live="polite" className="text-sm">
        {error && <p className="text-destructive">{error}</p>}
        {result && (
          <p data-testid="range-result">
            Sent only <code>{result.prefix}</code> (of the hash of{' '}
            <code className="break-all">{result.canonical}</code>
            ).{' '}
            {result.count === 0
              ? 'Not reported.'
              : `${result.count} ${result.count === 1 ? 'report' : 'reports'}, risk ${result.risk_level} (${result.risk_label}).`}
          </p>
        )}
      </div>
    </div>
  );
}
