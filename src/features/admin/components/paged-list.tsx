import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { ADMIN_PAGE_SIZE, useAdminList, type AdminListName } from '../api/get-admin-list';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/** The page number lives in the address (?page=2), so a page of a list can be linked and reloaded. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  return [page, (next: number) => setParams(next > 1 ? { page: String(next) } : {})];
}

/** A paginated admin table over one of adminLists, newest first. */
export function PagedList<Row extends { id: string }>({
  name,
  columns,
  empty,
}: {
  name: AdminListName;
  columns: Column<Row>[];
  empty: string;
}) {
  const { t } = useTranslation();
  const [page, setPage] = usePageParam();
  const list = useAdminList<Row>(name, page);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));

  if (list.isError) return <p className="text-destructive">{errorMessage(list.error)}</p>;
  if (!list.data) return <Skeleton className="h-96 w-full" aria-label={t('admin.list.loading')} />;
  return (
    <div className="flex flex-col gap-3">
      <Card className="py-2">
        <Table>
          <TableHeader>
            <TableRow>
              {columns.map((c) => (
                <TableHead key={c.header}>{c.header}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.data.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columns.length} className="text-muted-foreground py-8 text-center">
                  {empty}
                </TableCell>
              </TableRow>
            ) : (
              list.data.rows.map((row) => (
                <TableRow key={row.id}>
                  {columns.map((c) => (
                    <TableCell key={c.header} className={c.className}>
                      {c.cell(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </Card>
      <nav aria-label={t('admin.list.pages')} className="flex items-center justify-between gap-2 text-sm">
        <p className="text-muted-foreground" data-testid="list-total">
          {t('admin.list.total', {
            total: formatNumber(total),
            page: formatNumber(Math.min(page, pages)),
            pages: formatNumber(pages),
          })}
        </p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            <ChevronLeft aria-hidden />
            {t('admin.list.previous')}
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('admin.list.next')}
            <ChevronRight aria-hidden />
          </Button>
        </div>
      </nav>
    </div>
  );
}
