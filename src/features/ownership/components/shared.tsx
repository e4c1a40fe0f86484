import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/errors';

/** An error as the owner should read it: our own keys in their language, a server's message as sent. */
export function ownershipError(t: TFunction, error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (message === 'ownership.errors.wrongCode') return t('ownership.errors.wrongCode');
  return errorMessage(error);
}

/** A value to copy exactly (a code, a record), with its label. */
export function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-muted-foreground">{label}</span>
      <code className="bg-muted rounded-md border px-2 py-1 font-mono break-all select-all">{value}</code>
    </div>
  );
}

export function ErrorText({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-destructive text-sm">
      {message}
    </p>
  );
}

/** A 6-digit code and its Confirm button; `fail` shows why it was refused. */
export function CodeForm({
  label,
  isPending,
  onSubmit,
}: {
  label: string;
  isPending: boolean;
  onSubmit: (code: string, fail: (message: string) => void) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const c = code.replace(/\s/g, '');
        if (!/^\d{6}$/.test(c)) return setError(t('ownership.code.invalid'));
        setError(null);
        onSubmit(c, setError);
      }}
    >
      <Label htmlFor={`${id}-code`}>{label}</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={`${id}-code`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          className="w-36 font-mono tracking-widest"
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <Button type="submit" disabled={isPending} aria-busy={isPending}>
          {isPending ? t('common.submitting') : t('ownership.code.confirm')}
        </Button>
      </div>
      <ErrorText id={`${id}-error`} message={error} />
    </form>
  );
}
