import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

type SubmitButtonProps = Omit<ComponentProps<typeof Button>, 'type' | 'children'> & {
  /** True while the form's request is in flight. */
  isPending: boolean;
  /** The idle label; docs/behaviour.md §2 says 'submit'. */
  label?: string;
  pendingLabel?: string;
};

/**
 * The shared submit button (docs/behaviour.md §2): 'submit', then 'submitting...' and disabled while the
 * request runs, so a double click cannot send a form twice.
 */
export function SubmitButton({ isPending, label, pendingLabel, disabled, ...props }: SubmitButtonProps) {
  const { t } = useTranslation();
  return (
    <Button type="submit" disabled={isPending || disabled} aria-busy={isPending} {...props}>
      {isPending ? (pendingLabel ?? t('common.submitting')) : (label ?? t('common.submit'))}
    </Button>
  );
}
