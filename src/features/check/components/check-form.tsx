import { useId, useState, type FormEvent } from 'react';
import { SearchCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { MESSAGE_MAX_LENGTH, messageLength } from '@/lib/check-message';
import { formatNumber } from '@/lib/format';

/** The message box of /check: a text, chat or e-mail pasted whole. */
export function CheckForm({
  defaultValue = '',
  onCheck,
}: {
  defaultValue?: string;
  onCheck: (text: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(defaultValue);
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!value.trim()) return setError(t('check.form.required'));
    // characters as people count them (code points): an emoji is one
    const length = messageLength(value);
    if (length > MESSAGE_MAX_LENGTH)
      return setError(
        t('check.form.tooLong', {
          length: formatNumber(length),
          max: formatNumber(MESSAGE_MAX_LENGTH),
        }),
      );
    setError(null);
    onCheck(value);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <Label htmlFor={`${id}-text`}>{t('check.form.label')}</Label>
      <Textarea
        id={`${id}-text`}
        name="text"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-message` : `${id}-hint`}
        rows={6}
        spellCheck={false}
        placeholder={t('check.form.placeholder')}
        className="bg-background max-h-[50vh] min-h-32 text-base md:text-base"
      />
      {error ? (
        <p id={`${id}-message`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-muted-foreground text-sm">
          {t('check.form.hint')}
        </p>
      )}
      <Button type="submit" size="lg" className="self-start">
        <SearchCheck aria-hidden />
        {t('check.form.submit')}
      </Button>
    </form>
  );
}
