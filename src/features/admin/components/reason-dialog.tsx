import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { MODERATION_REASONS, moderationReasonLabel, type ModerationReason } from '@/lib/moderation-reasons';

export const NOTE_MAX = 1000;

/**
 * Picks a reason from the short list (keys 1-8) and an optional note; Enter confirms. Used for
 * reject and remove in the review workspace and for decisions on removal requests.
 */
export function ReasonDialog({
  open,
  title,
  description,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: (reason: ModerationReason, note: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<ModerationReason | null>(null);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);

  const confirm = () => {
    if (!reason) {
      setMissing(true);
      return;
    }
    if (note.length > NOTE_MAX) return;
    onConfirm(reason, note);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.target instanceof HTMLTextAreaElement) {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        confirm();
      }
      return;
    }
    const n = Number(e.key);
    if (Number.isInteger(n) && n >= 1 && n <= MODERATION_REASONS.length) {
      e.preventDefault();
      setReason(MODERATION_REASONS[n - 1]);
      setMissing(false);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      confirm();
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onCancel()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg" onKeyDown={onKeyDown}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <fieldset className="flex flex-col gap-1" aria-describedby={missing ? 'reason-missing' : undefined}>
          <legend className="mb-2 text-sm font-medium">{t('moderation.reasonLegend')}</legend>
          {MODERATION_REASONS.map((r, i) => (
            <label
              key={r}
              className="hover:bg-muted has-[:checked]:border-primary has-[:checked]:bg-muted flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm"
            >
              <input
                type="radio"
                name="moderation-reason"
                value={r}
                checked={reason === r}
                onChange={() => {
                  setReason(r);
                  setMissing(false);
                }}
                className="accent-primary"
              />
              <kbd className="bg-muted text-muted-foreground rounded border px-1.5 font-mono text-xs">
                {i + 1}
              </kbd>
              <span>{moderationReasonLabel(r)}</span>
            </label>
          ))}
          {missing && (
            <p id="reason-missing" role="alert" className="text-destructive text-sm">
              {t('moderation.reasonRequired')}
            </p>
          )}
        </fieldset>
        <div className="flex flex-col gap-1">
          <Label htmlFor="moderation-note">{t('moderation.noteLabel')}</Label>
          <Textarea
            id="moderation-note"
            value={note}
            maxLength={NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            rows={3}
          />
          <p className="text-muted-foreground text-xs">{t('moderation.noteHint')}</p>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {t('moderation.cancel')}
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={busy}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
