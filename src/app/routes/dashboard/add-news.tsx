import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { useCreateNews } from '@/features/add-news/api/create-news';
import { NewsForm } from '@/features/add-news/components/news-form';
import { RequireAdmin } from '@/features/admin/components/require-admin';
import { PageHeader } from './page-header';

function AddNews() {
  const user = useUser();
  const create = useCreateNews();
  return (
    <>
      <PageHeader
        title="Add News"
        description={
          <>
            Articles appear on the{' '}
            <Link to={paths.home.getHref()} className="text-primary underline underline-offset-4">
              home page
            </Link>{' '}
            and in the news list at once.
          </>
        }
      />
      <Card>
        <CardContent>
          <NewsForm
            isPending={create.isPending}
            onSubmit={(values, reset) =>
              create.mutate(
                { values, userId: user!.id },
                {
                  onSuccess: () => {
                    // SPEC.md section 4: news added stays on /dashboard/add-news, ready for the next one.
                    toast.success('News Added Sucessfully');
                    reset();
                  },
                },
              )
            }
          />
        </CardContent>
      </Card>
    </>
  );
}

export function Component() {
  return (
    <RequireAdmin>
      <AddNews />
    </RequireAdmin>
  );
}
