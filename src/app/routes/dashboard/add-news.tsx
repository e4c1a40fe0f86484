import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import type { NewsRow } from '@/features/news/api/types';
import { NewsAdminList } from '@/features/news/components/news-admin-list';
import { NewsEditor } from '@/features/news/components/news-editor';
import { RequireAdmin } from '@/features/admin/components/require-admin';
import { PageHeader } from '@/components/layouts/page-header';

function AddNews() {
  const { t } = useTranslation();
  const user = useUser();
  // Which article the form edits (null: it adds a new one). A UI choice, not server state.
  const [editing, setEditing] = useState<NewsRow | null>(null);
  return (
    <>
      <PageHeader
        title={t('news.add.title')}
        description={
          <Trans
            i18nKey="news.add.lead"
            components={{
              home: <Link to={paths.home.getHref()} className="text-primary underline underline-offset-4" />,
            }}
          />
        }
      />
      <div className="flex flex-col gap-6">
        <NewsEditor userId={user!.id} editing={editing} onDone={() => setEditing(null)} />
        <NewsAdminList
          editingId={editing?.id}
          onEdit={setEditing}
          // The article being edited is gone: the form goes back to adding.
          onDeleted={(id) => setEditing((current) => (current?.id === id ? null : current))}
        />
      </div>
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
