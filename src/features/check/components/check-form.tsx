import { useId, useState, type FormEvent } from 'react';
import { SearchCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { MESSAGE_MAX_LENGTH } from '@/lib/check-message';

/** The message box of /check: a text, chat or e-mail pasted whole. */
export function CheckForm({
  defaultValue = '',
  onCheck,
}: {
  defaultValue?: string;
  onCheck: (text: string) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(defaultValue);
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!value.trim()) return setError('Paste the message you received');
    if (value.length > MESSAGE_MAX_LENGTH)
      return setError(
        `That is ${value.length.toLocaleString('en')} characters; at most ${MESSAGE_MAX_LENGTH.toLocaleString('en')} can be checked. Paste the part with the numbers and links.`,
      );
    setError(null);
    onCheck(value);
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <Label htmlFor={`${id}-text`}>Message</Label>
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
        placeholder="Paste a text message, chat or e-mail here"
        className="bg-background max-h-[50vh] min-h-32 text-base md:text-base"
      />
      {error ? (
        <p id={`${id}-message`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-muted-foreground text-sm">
          The message stays in your browser; the numbers, links and addresses in it are looked up privately,
          by the first 5 characters of their fingerprint.
        </p>
      )}
      <Button type="submit" size="lg" className="self-start">
        <SearchCheck aria-hidden />
        Check message
      </Button>
    </form>
  );
}
