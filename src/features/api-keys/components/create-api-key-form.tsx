import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Copy, KeyRound } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useCreateApiKey, type NewApiKey } from '../api/api-keys';

/** Names and makes a key, then shows it once with a copy button. */
export function CreateApiKeyForm() {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<NewApiKey | null>(null);
  const [copied, setCopied] = useState(false);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 60) {
      setError(t('apiKeys.nameError'));
      return;
    }
    setError(null);
    create.mutate(trimmed, {
      onSuccess: (key) => {
        setMade(key);
        setCopied(false);
        setName('');
      },
    });
  }

  async function copy() {
    if (!made) return;
    await navigator.clipboard.writeText(made.key);
    setCopied(true);
  }

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-2">
          <Label htmlFor="api-key-name">{t('apiKeys.name')}</Label>
          <Input
            id="api-key-name"
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? 'api-key-name-error' : undefined}
          />
        </div>
        <Button type="submit" disabled={create.isPending}>
          <KeyRound aria-hidden />
          {create.isPending ? t('apiKeys.creating') : t('apiKeys.create')}
        </Button>
      </form>
      {error && (
        <p id="api-key-name-error" className="text-destructive text-sm">
          {error}
        </p>
      )}
      {made && (
        <Alert>
          <KeyRound aria-hidden />
          <AlertTitle>{t('apiKeys.newKey', { name: made.name })}</AlertTitle>
          <AlertDescription className="flex flex-col gap-3">
            <p>{t('apiKeys.shownOnce')}</p>
            <code className="bg-muted text-foreground block rounded p-2 font-mono text-xs break-all select-all">
              {made.key}
            </code>
            <div>
              <Button type="button" variant="outline" size="sm" onClick={copy}>
                {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
                {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}
