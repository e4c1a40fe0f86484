import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '@/lib/auth';
import { recordPageView, setPageViewCaller } from '@/lib/page-views';

/** The last location counted: React's development double effects and re-renders never count twice. */
let lastKey: string | undefined;

/** Counts one page view per route change (see lib/page-views.ts); renders nothing. */
export function PageViewTracker() {
  const location = useLocation();
  const { session, ready } = useAuth();

  useEffect(() => {
    if (ready) setPageViewCaller({ accessToken: session?.access_token ?? null });
  }, [ready, session?.access_token]);

  useEffect(() => {
    if (lastKey === location.key) return;
    lastKey = location.key;
    recordPageView(location.pathname);
  }, [location.key, location.pathname]);

  return null;
}
