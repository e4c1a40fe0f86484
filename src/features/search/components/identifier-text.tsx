import { Fragment } from 'react';
import { identifierSegments } from '@/lib/search-headline';
import { cn } from '@/lib/utils';

/** A piece longer than this (a wallet address, a long token) is set smaller instead of breaking. */
const LONGEST_UNSCALED = 24;

/**
 * A phone number, e-mail, web or wallet address as text that never breaks inside a number, address or
 * word: it may wrap only after a separator (src/lib/search-headline.ts), and a piece too long for the
 * line (a crypto address on a phone) is shrunk to the width of its container instead of being cut.
 */
export function IdentifierText({ value, className }: { value: string; className?: string }) {
  const segments = identifierSegments(value);
  const longest = Math.max(...segments.map((s) => s.length));
  // A monospaced character is about 0.6em wide: 100cqi / (0.62 × length) fits the piece in its container
  // (the viewport when there is none), never larger than the surrounding text.
  const style =
    longest > LONGEST_UNSCALED
      ? { fontSize: `min(1em, calc(100cqi / ${(0.62 * longest).toFixed(1)}))` }
      : undefined;
  return (
    <span className={cn(longest > LONGEST_UNSCALED && 'font-mono', className)} style={style}>
      {segments.map((segment, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span className="whitespace-nowrap">{segment}</span>
        </Fragment>
      ))}
    </span>
  );
}
