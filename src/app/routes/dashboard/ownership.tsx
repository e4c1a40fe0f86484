import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';
import {
  useMyEvidence,
  useMyStatements,
  useProofs,
  useWatched,
  type MyEvidence,
} from '@/features/ownership/api/ownership';
import { ProofCard } from '@/features/ownership/components/proof-card';
import { ProveForm } from '@/features/ownership/components/prove-form';
import { OwnerRemoval } from './ownership-removal';

/**
 * Right of reply (issue 32): the owner of a reported number, e-wallet, e-mail address, website or social
 * account proves it, answers on the record, watches it and asks for a report's removal (docs/right-of-reply.md).
 */
export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const proofs = useProofs(user?.id);
  const statements = useMyStatements(user?.id);
  const watched = useWatched(user?.id);
  const evidence = useMyEvidence(user?.id);
  const byIdentifier = new Map((statements.data ?? []).map((s) => [s.identifier_canonical, s]));
  // Newest first: the first evidence seen for a proof is its latest.
  const latestEvidence = new Map<string, MyEvidence>();
  for (const e of evidence.data ?? []) if (!latestEvidence.has(e.proof_id)) latestEvidence.set(e.proof_id, e);

  return (
    <>
      <PageHeader title={t('ownership.title')} description={t('ownership.description')} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card className="self-start">
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{t('ownership.prove.title')}</h2>
            </CardTitle>
            <CardDescription>{t('ownership.prove.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ProveForm />
          </CardContent>
        </Card>
        <section aria-labelledby="proofs-heading" className="flex flex-col gap-4">
          <h2 id="proofs-heading" className="text-lg font-semibold">
            {t('ownership.proofs.title')}
          </h2>
          {!proofs.data ? (
            <Skeleton className="h-32" />
          ) : proofs.data.length === 0 ? (
            <p className="text-muted-foreground">{t('ownership.proofs.none')}</p>
          ) : (
            proofs.data.map((p) => (
              <ProofCard
                key={p.id}
                proof={p}
                statement={byIdentifier.get(p.identifier_canonical)}
                watched={watched.data?.has(p.identifier_canonical) ?? false}
                evidence={latestEvidence.get(p.id)}
                removal={(identifier) => <OwnerRemoval identifier={identifier} />}
              />
            ))
          )}
        </section>
      </div>
    </>
  );
}
