import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Pencil, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useDeleteNews } from '../api/delete-news';
import { useNewsPages } from '../api/get-news-pages';
import type { NewsRow } from '../api/types';

/**
 * Every published article, newest first, a page at a time ('Load more'), each with Edit (fills the
 * form above) and Delete (asks first, then removes the row and its banner).
 */
export function NewsAdminList({
  editingId,
  onEdit,
  onDeleted,
}: {
  editingId?: string;
  onEdit: (news: NewsRow) => void;
  onDeleted?: (id: string) => void;
}) {
  const { t } = useTranslation();
  const news = useNewsPages();
  const remove = useDeleteNews();
  const [confirming, setConfirming] = useState<NewsRow | null>(null);
  const rows = news.data?.pages.flatMap((p) => p.rows) ?? [];
  const total = news.data?.pages.at(-1)?.total ?? 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id="published-news-heading" className="text-lg">
            {t('news.published.title')}
          </h2>
        </CardTitle>
        <CardDescription>{t('news.published.lead')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {news.isError ? (
          <p className="text-destructive">{errorMessage(news.error)}</p>
        ) : news.isPending ? (
          <Skeleton className="h-48 w-full" aria-label={t('news.loading')} />
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground">{t('news.none')}</p>
        ) : (
          <>
            <ul className="divide-y rounded-md border" aria-labelledby="published-news-heading">
              {rows.map((row) => (
                <li
                  key={row.id}
                  data-testid="news-row"
                  className={cn(
                    'flex flex-wrap items-center gap-3 px-4 py-3',
                    row.id === editingId && 'bg-primary/5',
                  )}
                  aria-current={row.id === editingId ? 'true' : undefined}
                >
                  {/* The buttons wrap under the title on a phone rather than squeezing it. */}
                  <div className="min-w-48 flex-1">
                    <Link
                      to={paths.newsArticle.getHref(row.id)}
                      className="font-medium break-words hover:underline"
                    >
                      {row.news_title}
                    </Link>
                    <p className="text-muted-foreground text-xs">
                      {formatDate(row.created_at)}
                      {row.source_desc && ` · ${row.source_desc}`}
                      {row.id === editingId && t('news.published.editing')}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => onEdit(row)}
                      aria-label={t('news.published.editLabel', { title: row.news_title })}
                    >
                      <Pencil aria-hidden />
                      {t('news.published.edit')}
                    </Button>
                    <Button
                      variant="destructive"
                      size="sm"
                      onClick={() => setConfirming(row)}
                      aria-label={t('news.published.deleteLabel', { title: row.news_title })}
                    >
                      <Trash2 aria-hidden />
                      {t('news.published.delete')}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <p className="text-muted-foreground" data-testid="news-count">
                {t('news.published.showing', {
                  shown: formatNumber(rows.length),
                  total: formatNumber(total),
                })}
              </p>
              {news.hasNextPage && (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void news.fetchNextPage()}
                  disabled={news.isFetchingNextPage}
                >
                  {news.isFetchingNextPage ? t('news.published.loadingMore') : t('news.published.loadMore')}
                </Button>
              )}
            </div>
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={!!confirming}
        onOpenChange={(open) => !open && setConfirming(null)}
        pending={remove.isPending}
        title={t('news.delete.title')}
        description={
          <Trans
            i18nKey="news.delete.text"
            values={{ title: confirming?.news_title ?? '' }}
            components={{ title: <strong className="break-words" /> }}
          />
        }
        keepLabel={t('news.delete.keep')}
        action={
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              confirming &&
              remove.mutate(confirming.id, {
                onSuccess: (_data, id) => {
                  toast.success(t('news.delete.done'));
                  setConfirming(null);
                  onDeleted?.(id);
                },
              })
            }
          >
            {remove.isPending ? t('news.delete.deleting') : t('news.delete.confirm')}
          </Button>
        }
      />
    </Card>
  );
}
