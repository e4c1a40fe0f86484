import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@/i18n/use-language';
import { cn } from '@/lib/utils';

/**
 * The frame of every text page (about, guide, privacy, terms, FAQ, donate): a title, a lead and
 * readable body text. Headings and lists inside get their spacing from here, so pages stay plain JSX.
 */
export function StaticPage({
  title,
  lead,
  children,
  className,
  legal = false,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Terms and privacy: a translation says that the English text is the one that governs. */
  legal?: boolean;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <article className={cn('mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10', className)}>
      <header className="flex flex-col gap-3 border-b pb-6">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{title}</h1>
        {lead && <p className="text-muted-foreground text-lg">{lead}</p>}
        {legal && language !== 'en' && (
          <p className="bg-muted/40 rounded-md border p-3 text-sm" role="note">
            {t('legal.englishGoverns')}
          </p>
        )}
      </header>
      <div
        className={cn(
          'flex flex-col gap-4 leading-relaxed',
          '[&_h2]:mt-4 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:text-lg [&_h3]:font-semibold',
          '[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6',
          '[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
        )}
      >
        {children}
      </div>
    </article>
  );
}

/** The support e-mail and the Manila address, as a block the legal pages end with. */
export function ContactBlock({ email, addressLines }: { email: string; addressLines: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <address className="bg-muted/40 rounded-lg border p-4 not-italic">
      <p>
        {t('common.emailLabel')} <a href={`mailto:${email}`}>{email}</a>
      </p>
      <p className="mt-2">
        {addressLines.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </p>
    </address>
  );
}
