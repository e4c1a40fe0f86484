import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` only once its frame comes near the screen and the browser is idle (issue 37): a
 * heavy part below the first screen (deck.gl's map, recharts) is neither fetched nor evaluated while the
 * page loads, so it costs the load no main-thread time. Until then the frame shows `fallback`; give it
 * the part's size in `className` so nothing shifts when the part mounts.
 *
 * `rootMargin` starts the part that far before it scrolls into view, so it is usually ready when seen.
 * Without IntersectionObserver (jsdom, very old browsers) the part renders at once.
 */
export function WhenVisible({
  children,
  fallback = null,
  className,
  rootMargin = '400px 0px',
  testId,
}: {
  children: ReactNode;
  fallback?: ReactNode;
  className?: string;
  rootMargin?: string;
  testId?: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = frame.current;
    if (shown || !el) return;
    let cancelIdle = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        cancelIdle = whenIdle(() => setShown(true));
      },
      { rootMargin },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelIdle();
    };
  }, [shown, rootMargin]);
  return (
    <div ref={frame} className={className} data-testid={testId} data-shown={shown || undefined}>
      {shown ? children : fallback}
    </div>
  );
}

/** Calls `run` when the main thread is idle (at most 2 s later); returns the cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 200);
  return () => clearTimeout(id);
}
