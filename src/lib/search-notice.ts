import { useQuery } from '@tanstack/react-query';
import { canonicalIdentifier, detectIdentifierKind, isListedPlatformHost } from '@/lib/canonical';

/** What a results page says instead of "Nobody has reported this yet" (issue 30). */
export type SearchNotice = 'platform' | 'not-identifier';

/**
 * Why a search that found nothing may not be about an identifier at all (issue 30): 'platform' for a
 * platform's own host (facebook.com, bit.ly, vercel.app: never reported as a whole), 'not-identifier'
 * for words that are no number, address, link or account ('hello', 'scam ba ito'); null otherwise, when
 * "nobody has reported it" is the answer. `isPlatformHost` is isSharedPlatformHost
 * (supabase/functions/_shared/platform-hosts.ts), passed in because it carries the Public Suffix List.
 */
export function searchNotice(value: string, isPlatformHost: (host: string) => boolean): SearchNotice | null {
  const kind = detectIdentifierKind(value);
  if (!kind) return 'not-identifier';
  if (kind === 'website') {
    const host = canonicalIdentifier('website', value);
    return host && isPlatformHost(host) ? 'platform' : null;
  }
  if (kind !== 'ewallet') return null;
  const s = value.trim();
  // An e-wallet account is a number, an e-mail or a user name; plain words and sentences are neither.
  if (/\d|@/.test(s)) return null;
  return /^[\p{L}\p{M}'’ .,!?-]+$/u.test(s) ? 'not-identifier' : null;
}

/**
 * searchNotice on a results page (`enabled` when nobody reported the value). The listed platforms
 * (facebook.com, bit.ly) are known at once; the rest of the platform check (tldts with the Public
 * Suffix List's hosting platforms, about 110 KB gzipped) is fetched only for another website nobody
 * reported, not with the page: until it is in (or if it cannot be fetched), such a website reads as no
 * platform, so the page says "Nobody has reported this yet" and changes only for a hosting platform.
 */
export function useSearchNotice(value: string, enabled: boolean): SearchNotice | null {
  const kind = enabled ? detectIdentifierKind(value) : null;
  const host = kind === 'website' ? canonicalIdentifier('website', value) : null;
  const listed = host !== null && isListedPlatformHost(host);
  const platform = useQuery({
    queryKey: ['platform-host', host],
    enabled: host !== null && !listed,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      const { isSharedPlatformHost } = await import('../../supabase/functions/_shared/platform-hosts.ts');
      return isSharedPlatformHost(host!);
    },
  });
  if (!enabled) return null;
  return searchNotice(value, () => listed || platform.data === true);
}
