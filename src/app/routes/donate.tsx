import { Link } from 'react-router-dom';
import { CreditCard, HeartHandshake } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StaticPage } from '@/components/static-page';
import { env } from '@/config/env';
import { paths } from '@/config/paths';

/** SPEC.md section 9: one-off 25, 3.25, 9.95 and 40 dollars; $1, $5 and $10 per minute. */
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
  const { href, external } = donationHref(amount, recurring);
  const label = `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}${recurring ? ' per minute' : ''}`;
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
  return (
    <StaticPage
      title="Support ScamCheck"
      lead="ScamCheck is free for everyone and run by volunteers. Donations pay for servers, moderation and scam-awareness campaigns."
    >
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="text-primary size-5" aria-hidden />
              <h2 className="!mt-0 !text-lg">Card or PayPal</h2>
            </CardTitle>
            <CardDescription>A one-off gift, through our payment provider.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-3">
              {ONE_OFF_AMOUNTS.map((amount) => (
                <AmountButton key={amount} amount={amount} />
              ))}
            </div>
            <p className="text-muted-foreground text-sm">
              Or a recurring gift, charged per minute until you cancel it:
            </p>
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
              <h2 className="!mt-0 !text-lg">Ethereum</h2>
            </CardTitle>
            <CardDescription>Send ETH or ERC-20 tokens on Ethereum mainnet.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {env.VITE_ETH_DONATION_ADDRESS ? (
              <>
                <p className="text-sm">Our address:</p>
                <code className="bg-muted rounded-md p-3 text-sm break-all">
                  {env.VITE_ETH_DONATION_ADDRESS}
                </code>
                <p className="text-muted-foreground text-sm">
                  Check the address character by character after pasting it: clipboard-swapping malware is a
                  common crypto scam.
                </p>
              </>
            ) : (
              <p className="text-sm">
                Our Ethereum address will be published here.{' '}
                <Link to={paths.comingSoon.getHref()}>Coming soon</Link>.
              </p>
            )}
          </CardContent>
        </Card>
      </div>
      <p className="text-muted-foreground text-sm">
        We never ask for donations by text, chat or phone. Anyone who does in our name is a scammer: please
        report them.
      </p>
    </StaticPage>
  );
}
