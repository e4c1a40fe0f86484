import { Link } from 'react-router-dom';
import { CreditCard, HeartHandshake } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StaticPage } from '@/components/static-page';
import { env } from '@/config/env';
import { paths } from '@/config/paths';

/** docs/behaviour.md §9: one-off 25, 3.25, 9.95 and 40 dollars; $1, $5 and $10 per minute. */
const ONE_OFF_AMOUNTS = [3.25, 9.95, 25, 40];
const RECURRING_AMOUNTS = [1, 5, 10];

/**
 * A donation link for an amount. Until the operator configures the payment provider
 * (VITE_DONATION_URL) the links lead to the coming-soon page rather than to a made-up account.
 */
function donationHref(amount: number, recurring = false): { href: string; external: boolean } {
  if (!env.VITE_DONATION_URL) return { href: paths.comingSoon.getHref(), external: false };
  const url = new URL(env.VITE_DONATION_URL);
  url.searchParams.set('amount', amount.toFixed(2));
  url.searchParams.set('currency_code', 'USD');
  if (recurring) url.searchParams.set('interval', 'minute');
  return { href: url.toString(), external: true };
}

function AmountButton({ amount, recurring }: { amount: number; recurring?: boolean }) {
  const { t } = useTranslation();
  const { href, external } = donationHref(amount, recurring);
  const dollars = `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
  const label = recurring ? t('donate.perMinute', { amount: dollars }) : dollars;
  return (
    <Button asChild variant="outline" className="h-auto min-h-12 text-base whitespace-normal">
      {external ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      ) : (
        <Link to={href}>{label}</Link>
      )}
    </Button>
  );
}

export function Component() {
  const { t } = useTranslation();
  return (
    <StaticPage title={t('donate.title')} lead={t('donate.lead')}>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="text-primary size-5" aria-hidden />
              <h2 className="!mt-0 !text-lg">{t('donate.cardTitle')}</h2>
            </CardTitle>
            <CardDescription>{t('donate.cardText')}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-3">
              {ONE_OFF_AMOUNTS.map((amount) => (
                <AmountButton key={amount} amount={amount} />
              ))}
            </div>
            <p className="text-muted-foreground text-sm">{t('donate.recurring')}</p>
            <div className="grid grid-cols-1 gap-3">
              {RECURRING_AMOUNTS.map((amount) => (
                <AmountButton key={amount} amount={amount} recurring />
              ))}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <HeartHandshake className="text-primary size-5" aria-hidden />
              <h2 className="!mt-0 !text-lg">{t('donate.ethTitle')}</h2>
            </CardTitle>
            <CardDescription>{t('donate.ethText')}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {env.VITE_ETH_DONATION_ADDRESS ? (
              <>
                <p className="text-sm">{t('donate.ourAddress')}</p>
                <code className="bg-muted rounded-md p-3 text-sm break-all">
                  {env.VITE_ETH_DONATION_ADDRESS}
                </code>
                <p className="text-muted-foreground text-sm">{t('donate.checkAddress')}</p>
              </>
            ) : (
              <p className="text-sm">
                <Trans
                  i18nKey="donate.ethSoon"
                  components={{ soon: <Link to={paths.comingSoon.getHref()} /> }}
                />
              </p>
            )}
          </CardContent>
        </Card>
      </div>
      <p className="text-muted-foreground text-sm">{t('donate.neverAsk')}</p>
    </StaticPage>
  );
}
