import { Link } from 'react-router-dom';
import { HeartHandshake } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function Component() {
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <HeartHandshake className="text-primary size-12" aria-hidden />
      <h1 className="text-3xl font-bold">Thank you!</h1>
      <p className="text-muted-foreground">
        Your support keeps ScamCheck free for everyone. Every report and every peso helps the next person
        avoid a scam.
      </p>
      <Button asChild>
        <Link to={paths.home.getHref()}>Back to home</Link>
      </Button>
    </section>
  );
}
