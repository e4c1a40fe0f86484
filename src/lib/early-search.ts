/**
 * The search index.html starts for an anonymous visitor who opens a results page directly: the request
 * runs while the app's JavaScript loads, which takes it off the page's largest-paint chain (Lighthouse,
 * docs/benchmarks.md). The page takes the answer once, for the same search string; anything else (a
 * signed-in visitor, another search, a refetch) asks the function as usual.
 */
export interface EarlySearch {
  searchString: string;
  answer: Promise<Response>;
}

declare global {
  interface Window {
    __scamcheckEarlySearch?: EarlySearch;
  }
}

/** The early search's answer if it was for `searchString` and nobody took it yet; null otherwise. */
export function takeEarlySearch(searchString: string): Promise<Response> | null {
  const early = typeof window === 'undefined' ? undefined : window.__scamcheckEarlySearch;
  if (!early || early.searchString !== searchString) return null;
  delete window.__scamcheckEarlySearch;
  return early.answer;
}
