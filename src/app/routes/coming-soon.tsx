import { Link } from 'react-router-dom';
import { Hourglass } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function Component() {
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Hourglass className="text-primary size-12" aria-hidden />
      <h1 className="text-3xl font-bold">Coming soon</h1>
      <p className="text-muted-foreground">
        We are still setting this up. In the meantime you can search an identifier, read the scam news or
        contact us.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={paths.home.getHref()}>Search</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.contact.getHref()}>Contact us</Link>
        </Button>
      </div>
    </section>
  );
}
