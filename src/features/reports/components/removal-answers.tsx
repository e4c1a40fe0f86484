import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';
import { toastError } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { moderationReasonLabel } from '@/lib/moderation-reasons';
import {
  answerSchema,
  useAnswerRemovalRequest,
  type AnswerInput,
  type ReportRemovalRequest,
} from '../api/removal-answers';

const decisionKeys = {
  keep: 'removal.mine.keep',
  hide: 'removal.mine.hide',
  remove: 'removal.mine.remove',
} as const;

function AnswerForm({ request, onDone }: { request: ReportRemovalRequest; onDone: () => void }) {
  const { t } = useTranslation();
  const answer = useAnswerRemovalRequest();
  const form = useForm<AnswerInput>({
    resolver: zodResolver(answerSchema),
    defaultValues: { answer: request.reporter_response ?? '' },
  });
  const onSubmit = (values: AnswerInput) =>
    answer.mutate(
      { id: request.id, answer: values.answer },
      {
        onSuccess: () => {
          toast.success(t('reports.removal.saved'));
          onDone();
        },
        onError: (error) => void toastError(error),
      },
    );
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-2" noValidate>
        <FormField
          control={form.control}
          name="answer"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('reports.removal.answerLabel')}</FormLabel>
              <FormControl>
                <Textarea rows={3} maxLength={5000} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={answer.isPending}>
            {t('reports.removal.send')}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={onDone}>
            {t('reports.removal.cancel')}
          </Button>
        </div>
      </form>
    </Form>
  );
}

function RemovalRequestItem({ request }: { request: ReportRemovalRequest }) {
  const { t } = useTranslation();
  const [answering, setAnswering] = useState(false);
  return (
    <li className="flex flex-col gap-2 py-2" data-testid="removal-request-item">
      <p>{t('reports.removal.asked', { date: formatDate(request.created_at) })}</p>
      <blockquote className="border-l-2 pl-3 break-words whitespace-pre-wrap">{request.reason}</blockquote>
      {request.reporter_response && (
        <div>
          <p className="text-muted-foreground">
            {t('reports.removal.answered', { date: formatDate(request.responded_at ?? request.created_at) })}
          </p>
          <p className="break-words whitespace-pre-wrap">{request.reporter_response}</p>
        </div>
      )}
      {request.decision ? (
        <div className="font-medium" data-testid="removal-decision">
          <p>{t(decisionKeys[request.decision])}</p>
          {request.decision_reason && (
            <p className="font-normal">
              {t('moderation.cardReason', { reason: moderationReasonLabel(request.decision_reason) })}
            </p>
          )}
          {request.decision_note && (
            <p className="text-muted-foreground font-normal whitespace-pre-wrap">
              {t('moderation.cardNote', { note: request.decision_note })}
            </p>
          )}
        </div>
      ) : request.escalated_at ? (
        <p className="text-muted-foreground">{t('reports.removal.escalated')}</p>
      ) : request.reporter_response ? (
        <p className="text-muted-foreground">{t('reports.removal.waitingAdmin')}</p>
      ) : (
        request.answer_by && (
          <p className="font-medium">
            {t('reports.removal.answerBy', { date: formatDate(request.answer_by) })}
          </p>
        )
      )}
      {request.can_answer &&
        (answering ? (
          <AnswerForm request={request} onDone={() => setAnswering(false)} />
        ) : (
          <div>
            <Button size="sm" variant="outline" onClick={() => setAnswering(true)}>
              {request.reporter_response ? t('reports.removal.change') : t('reports.removal.answer')}
            </Button>
          </div>
        ))}
    </li>
  );
}

/**
 * Removal requests on one of the reporter's reports (issue 31): what the requester wrote, the deadline,
 * the reporter's answer (given or changed here while no admin has decided), and the decision with its
 * reason, in the reader's language.
 */
export function RemovalAnswers({ requests }: { requests: ReportRemovalRequest[] }) {
  const { t } = useTranslation();
  if (requests.length === 0) return null;
  return (
    <section
      className="rounded-md border border-amber-300 p-2 sm:col-span-2 dark:border-amber-800"
      aria-label={t('reports.removal.title')}
      data-testid="removal-answers"
    >
      <h3 className="font-semibold">{t('reports.removal.title')}</h3>
      <ul className="divide-y">
        {requests.map((r) => (
          <RemovalRequestItem key={r.id} request={r} />
        ))}
      </ul>
    </section>
  );
}
