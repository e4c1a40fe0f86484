/**
 * The one window global of the app: `window.__scamcheck`, the hand-over between the small scripts
 * index.html runs before the app's JavaScript (all written in src/boot and inlined by
 * src/boot/build/vite-plugins.ts) and the app itself. Nothing else of the app lives on `window`.
 *
 * - `loadApp`: the build's loader of the app's JavaScript, held back on the home page and a results page
 *   until the page shell has painted (routePreload sets it; loadAppAfterShell or showResultsShell calls
 *   it; it sets itself to null when it runs).
 * - `earlySearch`: the search a signed-out visitor's results page started before the app loaded
 *   (startEarlySearch); the app takes it once (takeEarlySearch).
 * - `shell`: what the page shell showed, for the app to take over (showPageShell, showResultsShell;
 *   read by pageShownByShell).
 *
 * The inlined scripts stand alone (no imports), so each creates the object itself if it is missing:
 * `window.__scamcheck = window.__scamcheck || {}`.
 */
/** The search index.html started early (src/boot/early-search.ts). */
export interface EarlySearch {
  searchString: string;
  answer: Promise<Response>;
}

/** What the page shell showed, for the app to take over (src/boot/page-shell.ts). */
export interface PageShownByShell {
  language: 'en' | 'fil';
  theme: 'light' | 'dark';
  textarea: HTMLTextAreaElement | null;
  /** A results page's searched value (its answer came with the shell). */
  searchString?: string;
  /** The home shell's search was asked for (Enter or the button) before the app took over. */
  submitted?: boolean;
}

export interface BootState {
  loadApp?: (() => void) | null;
  earlySearch?: EarlySearch;
  shell?: PageShownByShell;
}

declare global {
  interface Window {
    __scamcheck?: BootState;
  }
}

/** The boot state, or an empty one outside a browser or before any script made it. */
export function bootState(): BootState {
  if (typeof window === 'undefined') return {};
  return window.__scamcheck ?? (window.__scamcheck = {});
}
