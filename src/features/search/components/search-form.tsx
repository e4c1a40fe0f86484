import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { Label } from '@/components/ui/label';
import { paths } from '@/config/paths';
import { formatNumber } from '@/lib/format';
import { restorePageShellFocus, takePageShellDraft } from '@/boot/page-shell';
import { cn } from '@/lib/utils';
// Not check-message.ts itself: the extraction libraries load with /check, not with the home page.
import { looksLikeMessage } from '../../../../supabase/functions/_shared/message-shape.ts';
import { SEARCH_MAX_LENGTH } from '../../../../supabase/functions/_shared/limits.ts';

/** /check takes messages up to this length (MESSAGE_MAX_LENGTH of the shared check). */
const MESSAGE_MAX_LENGTH = 5000;

/**
 * The search box's value as a search takes it: trimmed, not empty, at most SEARCH_MAX_LENGTH long; else
 * the key of the message to show. Two comparisons, so no validation library: this form is on the home
 * and results pages, whose first load must stay small (issue 6, docs/performance.md).
 */
export function checkSearchString(
  value: string,
): { searchString: string } | { error: 'validation.search.required' | 'validation.search.tooLong' } {
  const searchString = value.trim();
  if (searchString.length < 1) return { error: 'validation.search.required' };
  if (searchString.length > SEARCH_MAX_LENGTH) return { error: 'validation.search.tooLong' };
  return { searchString };
}

/**
 * The search box: one identifier goes to /search/{searchString} (docs/behaviour.md §4), where the results
 * page runs the search, so a result is a link anyone can share; a whole message (several lines or
 * words) goes to /check in the page state, never in the address (issue 13).
 *
 * One field does not need react-hook-form; leaving it out keeps ~13 KB gzipped off the home page's
 * first load. The markup mirrors shadcn's Form (label, aria-invalid, described-by message).
 */
export function SearchForm({
  defaultValue = '',
  className,
  hrefFor = paths.search.getHref,
}: {
  defaultValue?: string;
  className?: string;
  /** Where the results live: the public page by default; the dashboard passes its own. */
  hrefFor?: (searchString: string) => string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  // What the visitor typed into index.html's page shell before the app took over, if anything.
  const [draft] = useState(takePageShellDraft);
  const [current, setValue] = useState(draft?.text ?? defaultValue);
  const [takeFocus] = useState(() => restorePageShellFocus(draft, setValue));
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The visitor pressed Enter or the button in the page shell before the app took over: search now.
  useEffect(() => {
    if (draft?.submitted) formRef.current?.requestSubmit();
  }, [draft]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The box as it is now: text typed into the shell meanwhile may not have reached the state yet.
    const box = event.currentTarget.elements.namedItem('searchString');
    const value = box instanceof HTMLTextAreaElement ? box.value : current;
    if (looksLikeMessage(value)) {
      if (value.length > MESSAGE_MAX_LENGTH) {
        setError(t('validation.search.messageTooLong', { max: formatNumber(MESSAGE_MAX_LENGTH) }));
        return;
      }
      setError(null);
      navigate(paths.check.getHref(), { state: { text: value } });
      return;
    }
    const result = checkSearchString(value);
    if ('error' in result) {
      setError(t(result.error));
      return;
    }
    setError(null);
    navigate(hrefFor(result.searchString));
  }

  return (
    <form
      ref={formRef}
      role="search"
      noValidate
      onSubmit={onSubmit}
      className={cn('flex w-full flex-col gap-2', className)}
    >
      <Label htmlFor={`${id}-input`} className="sr-only">
        {t('search.form.label')}
      </Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Textarea
          id={`${id}-input`}
          rows={1}
          onKeyDown={(e: KeyboardEvent<HTMLTextAreaElement>) => {
            // Enter searches as in a one-line box; Shift+Enter starts a new line of a pasted message.
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          name="searchString"
          value={current}
          onChange={(e) => {
            setValue(e.target.value);
            if (error) setError(null);
          }}
          required
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-message` : undefined}
          ref={takeFocus}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('search.form.placeholder')}
          className="bg-background max-h-48 min-h-12 resize-none py-3 text-base md:text-base"
        />
        <Button type="submit" size="lg" className="h-12 sm:w-36">
          <Search aria-hidden />
          {t('search.form.submit')}
        </Button>
      </div>
      {error && (
        <p id={`${id}-message`} role="alert" className="text-destructive text-left text-sm">
          {error}
        </p>
      )}
    </form>
  );
}
