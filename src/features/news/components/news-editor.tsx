import { Trans, useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useCreateNews } from '../api/create-news';
import { toNewsFormValues } from '../api/news-form-schema';
import type { NewsRow } from '../api/types';
import { useUpdateNews } from '../api/update-news';
import { NewsForm } from './news-form';

/**
 * The Add News card: adds an article, or, while `editing` is set, edits that one with the same form
 * filled in. `onDone` leaves edit mode (after saving or on Cancel).
 */
export function NewsEditor({
  userId,
  editing,
  onDone,
}: {
  userId: string;
  editing: NewsRow | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateNews();
  const update = useUpdateNews();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{editing ? t('news.editor.editTitle') : t('news.editor.newTitle')}</h2>
        </CardTitle>
        {editing && (
          <CardDescription className="break-words">
            <Trans
              i18nKey="news.editor.editingLead"
              values={{ title: editing.news_title }}
              components={{ title: <strong /> }}
            />
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        {editing ? (
          <NewsForm
            // A fresh form per article, so switching from one Edit to another never mixes their values.
            key={editing.id}
            editing={{ values: toNewsFormValues(editing), hasBanner: !!editing.banner_path }}
            isPending={update.isPending}
            onCancel={onDone}
            onSubmit={(values) =>
              update.mutate(
                { news: editing, values },
                {
                  onSuccess: () => {
                    toast.success(t('news.editor.updated'));
                    onDone();
                  },
                },
              )
            }
          />
        ) : (
          <NewsForm
            key="new"
            isPending={create.isPending}
            onSubmit={(values, reset) =>
              create.mutate(
                { values, userId },
                {
                  onSuccess: () => {
                    // docs/behaviour.md §4: news added stays on /dashboard/add-news, ready for the next one.
                    toast.success(t('news.editor.added'));
                    reset();
                  },
                },
              )
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
