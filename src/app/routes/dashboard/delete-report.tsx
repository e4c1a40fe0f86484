import { Form, Link, redirect, useNavigation, useParams, type ActionFunctionArgs } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { i18n } from '@/i18n';
import { runMutation } from '@/lib/react-query';
import { deleteReportAndRefresh } from '@/features/reports/api/delete-report';

/**
 * delete-report/:id is an action (docs/behaviour.md §2): report cards post to it; it deletes and goes
 * back to My Reports either way, with a toast saying what happened.
 */
export const clientAction =
  (queryClient: QueryClient) =>
  async ({ params }: ActionFunctionArgs) => {
    // A failure is a toast from the MutationCache, like every other mutation's.
    await runMutation(
      queryClient,
      {
        mutationFn: (id: string) => deleteReportAndRefresh(queryClient, id),
        onSuccess: () => toast.success(i18n.t('reports.delete.deleted')),
      },
      params.id ?? '',
    );
    return redirect(paths.dashboard.allReports.getHref());
  };

/** Opening the address itself asks first: a link alone must never delete anything. */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigation = useNavigation();
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <CardTitle>
          <h1 className="text-xl">{t('reports.delete.title')}</h1>
        </CardTitle>
      </CardHeader>
      <CardContent className="text-muted-foreground">{t('reports.delete.text')}</CardContent>
      <CardFooter className="flex justify-end gap-2">
        <Button asChild variant="outline">
          <Link to={paths.dashboard.allReports.getHref()}>{t('reports.delete.keep')}</Link>
        </Button>
        <Form method="post" action={paths.dashboard.deleteReport.getHref(id)}>
          <Button type="submit" variant="destructive" disabled={navigation.state !== 'idle'}>
            {t('reports.delete.confirm')}
          </Button>
        </Form>
      </CardFooter>
    </Card>
  );
}
