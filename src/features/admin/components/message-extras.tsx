import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Reply } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { extractIdentifiers } from '@/lib/check-message';
import { formatDate } from '@/lib/format';
import { moderationStatusLabel } from '@/lib/moderation-reasons';
import { REPLY_MAX, replySchema, useMessageExtras, useReplyToMessage } from '../api/contact-replies';

interface Message {
  id: string;
  email: string | null;
  subject: string | null;
  message: string;
}

/**
 * Under a contact message: the reports it names by id and the identifiers it mentions (links to their
 * search), who handled it, the replies sent, and a form to reply by e-mail (issue 31).
 */
export function MessageExtras({ message }: { message: Message }) {
  const { t } = useTranslation();
  const extras = useMessageExtras(message.id);
  const [replying, setReplying] = useState(false);
  const identifiers = useMemo(
    () =>
      extractIdentifiers(`${message.subject ?? ''}\n${message.message}`)
        .filter((i) => i.canonical !== message.email?.toLowerCase())
        .slice(0, 5),
    [message],
  );
  const data = extras.data;
  return (
    <div className="mt-2 flex flex-col gap-2 text-xs" data-testid="message-extras">
      {(identifiers.length > 0 || (data && data.reports.length > 0)) && (
        <p className="flex flex-wrap gap-x-3 gap-y-1">
          <span className="text-muted-foreground">{t('admin.messages.names')}</span>
          {data?.reports.map((r) => (
            <Link
              key={r.id}
              className="text-primary underline-offset-4 hover:underline"
              to={paths.search.getHref(r.reported_account)}
            >
              {t('admin.messages.report', {
                account: r.reported_account,
                status: moderationStatusLabel(r.status),
              })}
            </Link>
          ))}
          {identifiers.map((i) => (
            <Link
              key={i.canonical}
              className="text-primary break-all underline-offset-4 hover:underline"
              to={paths.search.getHref(i.value)}
            >
              {i.value}
            </Link>
          ))}
        </p>
      )}
      {data?.handled_by_email && (
        <p className="text-muted-foreground">
          {t('admin.messages.handledBy', { who: data.handled_by_email })}
        </p>
      )}
      {data?.replies.map((r) => (
        <div key={r.id} className="bg-muted/50 rounded-md border p-2" data-testid="message-reply">
          <p className="text-muted-foreground">
            {r.sent_at
              ? t('admin.messages.replied', {
                  who: r.admin_email ?? '—',
                  to: r.sent_to,
                  date: formatDate(r.sent_at),
                })
              : t('admin.messages.replyFailed', {
                  who: r.admin_email ?? '—',
                  date: formatDate(r.created_at),
                })}
          </p>
          <p className="mt-1 whitespace-pre-wrap">{r.body}</p>
        </div>
      ))}
      {extras.isError && <p className="text-destructive">{errorMessage(extras.error)}</p>}
      {message.email &&
        (replying ? (
          <ReplyForm id={message.id} to={message.email} onDone={() => setReplying(false)} />
        ) : (
          <div>
            <Button size="sm" variant="outline" onClick={() => setReplying(true)}>
              <Reply aria-hidden />
              {t('admin.messages.reply')}
            </Button>
          </div>
        ))}
    </div>
  );
}

function ReplyForm({ id, to, onDone }: { id: string; to: string; onDone: () => void }) {
  const { t } = useTranslation();
  const send = useReplyToMessage();
  const form = useForm<{ body: string }>({ resolver: zodResolver(replySchema), defaultValues: { body: '' } });
  const error = form.formState.errors.body?.message;
  const bodyField = form.register('body');
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={form.handleSubmit((v) =>
        send.mutate(
          { id, body: v.body },
          {
            onSuccess: () => {
              toast.success(t('admin.messages.sent', { to }));
              onDone();
            },
            onError: (e) => void toast.error(errorMessage(e)),
          },
        ),
      )}
    >
      <label className="flex flex-col gap-1 font-medium">
        {t('admin.messages.replyLabel', { to })}
        <Textarea
          rows={4}
          maxLength={REPLY_MAX + 100}
          aria-invalid={!!error}
          aria-describedby={error ? `reply-error-${id}` : undefined}
          {...bodyField}
        />
      </label>
      {error && (
        <p id={`reply-error-${id}`} role="alert" className="text-destructive">
          {t(
            error === 'admin.messages.replyLong'
              ? 'admin.messages.replyLong'
              : 'admin.messages.replyRequired',
          )}
        </p>
      )}
      <div className="flex gap-2">
        <Button size="sm" type="submit" disabled={send.isPending}>
          {t('admin.messages.send')}
        </Button>
        <Button size="sm" type="button" variant="ghost" onClick={onDone}>
          {t('admin.messages.cancel')}
        </Button>
      </div>
    </form>
  );
}
