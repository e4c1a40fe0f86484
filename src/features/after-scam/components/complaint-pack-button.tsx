import { lazy, Suspense, useState } from 'react';
import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { PackSource } from '../api/pack-source';

// The form and pdf-lib load only when a pack is asked for (tests/bundle-size.test.ts keeps them out
// of the first load).
const ComplaintPackDialog = lazy(() => import('./complaint-pack-dialog'));

/** Opens the complaint pack's form for `source`; the pack is made on the device. */
export function ComplaintPackButton({ source, className }: { source: PackSource; className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="outline" className={className} onClick={() => setOpen(true)}>
        <FileText aria-hidden />
        {t('afterScam.pack.open')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ComplaintPackDialog source={source} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
