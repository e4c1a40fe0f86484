/**
 * The page shell (issue 12): index.html holds the home page, rendered by the build with the app's own
 * components (src/boot/build/render-page-shells.tsx) in English and Filipino, light and dark. Before the app's
 * JavaScript has run, `showPageShell` (inlined into index.html by src/boot/build/vite-plugins.ts) puts the one that fits
 * the visitor into #root, so a phone's first paint is the page itself, not a blank screen for the ~2 s
 * the entry chunk takes to download and run. React then renders the same page over it in one commit
 * (main.tsx waits for the route's code first).
 *
 * A results page opened by a signed-out visitor has a shell too (issue 37): its largest paint is the
 * one-line answer, which needs only the search answer that index.html asks for before any of the app's
 * code (src/boot/early-search.ts). `showResultsShell` paints the page with that answer's headline as
 * soon as it arrives, and only then lets the app's code load, so the answer does not wait for ~200 KB
 * of JavaScript (docs/performance.md).
 */

import type { headlineFacts, identifierSegments } from '../lib/search-headline';
import { bootState, type PageShownByShell } from './globals.ts';
import type { maySignIn } from './session';

export const PAGE_SHELL_LANGUAGES = ['en', 'fil'] as const;
export const PAGE_SHELL_THEMES = ['light', 'dark'] as const;
export type PageShellTheme = (typeof PAGE_SHELL_THEMES)[number];

/** The id of the template holding the home page in one language and theme. */
export const pageShellTemplateId = (language: string, theme: PageShellTheme) =>
  `page-shell-home-${language}-${theme}`;

/** The id of the template holding the results page (before its answer) in one language and theme. */
export const resultsShellTemplateId = (language: string, theme: PageShellTheme) =>
  `page-shell-results-${language}-${theme}`;

/** Stands for the searched value in the results shell's markup. */
export const RESULTS_SHELL_TERM = '\u2060';

export type { PageShownByShell };

/**
 * Shows the page shell, if one fits. This function's source is inlined into index.html, so it must stand
 * alone: no imports, nothing from outside its body, syntax every supported browser parses unbundled.
 *
 * The shell is the page as a signed-out visitor sees it, so it is left out whenever the app might start
 * signed in (`mayBeSignedIn`, maySignIn of src/boot/session.ts, inlined beside it). Its language is the app's (src/i18n): the stored choice, else the browser's first language,
 * as i18next's detector reads them (codes it would refuse are skipped); Filipino for fil/tl, else
 * English (`languageOf`, pageShellLanguage inlined beside it). Its theme is the one index.html's earlier
 * script has set (<html class="dark">): the colours follow from that class, and that theme's template
 * has the matching theme switch.
 */
export function showPageShell(languageOf: () => 'en' | 'fil', mayBeSignedIn: typeof maySignIn): void {
  try {
    if (location.pathname !== '/' || mayBeSignedIn()) return;
    const language = languageOf();
    const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light';
    const template = document.getElementById(
      `page-shell-home-${language}-${theme}`,
    ) as HTMLTemplateElement | null;
    const root = document.getElementById('root');
    if (!template || !root || root.firstChild) return;
    root.appendChild(template.content.cloneNode(true));
    document.documentElement.lang = language;
    const boot = (window.__scamcheck = window.__scamcheck || {});
    const shell: PageShownByShell = { language, theme, textarea: root.querySelector('textarea') };
    boot.shell = shell;
    // A search asked for before the app runs (Enter in the box, or the button: without this the form
    // would reload the page with the text in its address) is kept, and the app makes it when it takes over.
    const form = root.querySelector('form');
    if (form) {
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        shell.submitted = true;
      });
    }
    if (shell.textarea) {
      shell.textarea.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
          event.preventDefault();
          shell.submitted = true;
        }
      });
    }
  } catch {
    // No storage or an old browser: the app renders the page as before.
  }
}

/**
 * The app's language before the app runs (src/i18n): the stored choice, else the browser's first
 * language, as i18next's detector reads them (codes it would refuse are skipped); Filipino for fil/tl,
 * else English. Inlined into index.html like showPageShell, so it stands alone.
 */
export function pageShellLanguage(): 'en' | 'fil' {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem('language');
  } catch {
    // No storage: the browser's languages decide.
  }
  const codes: (string | null)[] = [stored];
  const nav = window.navigator;
  if (nav.languages) for (let i = 0; i < nav.languages.length; i++) codes.push(nav.languages[i]);
  codes.push(nav.language);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (
      typeof code === 'string' &&
      /^[A-Za-z0-9_@.-]{1,128}$/.test(code) &&
      code.indexOf('..') < 0 &&
      ['__proto__', 'constructor', 'prototype'].indexOf(code) < 0
    ) {
      const base = code.toLowerCase().split(/[-_]/)[0];
      return base === 'fil' || base === 'tl' ? 'fil' : 'en';
    }
  }
  return 'en';
}

/**
 * On the home page the build's head script (routePreload in src/boot/build/vite-plugins.ts) leaves the app's JavaScript
 * for later as `window.__scamcheck.loadApp` (src/boot/globals.ts). This runs right after showPageShell (inlined the same way):
 * if the shell is showing, the app is requested once the browser has painted it, so a phone's first paint
 * does not share the connection and the main thread with the app's ~200 KB; otherwise at once.
 */
export function loadAppAfterShell(): void {
  const boot = window.__scamcheck || {};
  const load = boot.loadApp;
  // A results page's app waits for its answer instead (showResultsShell).
  if (!load || location.pathname !== '/') return;
  if (boot.shell && typeof window.requestAnimationFrame === 'function') {
    // requestAnimationFrame runs just before the frame is painted; the timeout lands just after it.
    window.requestAnimationFrame(() => window.setTimeout(load, 0));
  } else {
    load();
  }
}

/**
 * A results page opened by a signed-out visitor (index.html asked for its answer early, see
 * src/boot/early-search.ts): once the answer is in, shows the page with its one-line answer (the template
 * of the visitor's language and theme, src/boot/build/render-page-shells.tsx) and then lets the app's code load, which
 * routePreload holds back on these paths. Without an early answer, a template, or a usable answer, it
 * shows nothing and the app loads at once (or after 3 s when the answer is slow).
 *
 * Inlined into index.html with its helpers passed in (headlineFacts and identifierSegments from
 * src/lib/search-headline.ts, pageShellLanguage), so it stands alone like showPageShell. The headline's
 * words are the template's copy of the catalogue's `search.headline`, with plurals by Intl.PluralRules
 * as i18next chooses them.
 */
export function showResultsShell(
  facts: typeof headlineFacts,
  segments: typeof identifierSegments,
  languageOf: () => 'en' | 'fil',
): void {
  let loaded = false;
  const boot = (window.__scamcheck = window.__scamcheck || {});
  const load = () => {
    if (loaded) return;
    loaded = true;
    const loadApp = boot.loadApp;
    if (loadApp) loadApp();
  };
  try {
    const early = boot.earlySearch;
    if (!early) return load();
    const language = languageOf();
    const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light';
    const template = document.getElementById(
      `page-shell-results-${language}-${theme}`,
    ) as HTMLTemplateElement | null;
    if (!template) return load();
    // The longest the app's code waits for a slow answer.
    window.setTimeout(load, 3000);
    const paint = (answer: unknown) => {
      const root = document.getElementById('root');
      const body = answer as { count?: unknown; reports?: unknown } | null;
      if (!root || root.firstChild || !body || typeof body.count !== 'number' || !Array.isArray(body.reports))
        return;
      const headline = facts(body as Parameters<typeof facts>[0]);
      const page = template.content.cloneNode(true) as DocumentFragment;
      const data = page.querySelector('[data-shell-strings]');
      const strings = JSON.parse(data?.getAttribute('data-shell-strings') ?? '{}') as Record<string, string>;
      data?.remove();
      const kept = page.querySelector(`[data-shell-tone="${headline.tone}"]`);
      const sentence =
        strings[headline.key] ??
        strings[`${headline.key}_${new Intl.PluralRules(language).select(headline.count)}`] ??
        strings[`${headline.key}_other`];
      const text = kept?.querySelector('[data-headline-text]');
      const term = kept?.querySelector('[data-headline-term]');
      if (!kept || !kept.parentNode || !sentence || !text || !term) return;
      page.querySelectorAll('[data-shell-tone]').forEach((tone) => {
        if (tone !== kept) tone.remove();
      });
      while (kept.firstChild) kept.parentNode.insertBefore(kept.firstChild, kept);
      kept.remove();
      text.textContent = sentence.replace(
        /\{\{(count|verified|shown)\}\}/g,
        (_, name: 'count' | 'verified' | 'shown') => String(headline[name]),
      );
      // As IdentifierText (src/features/search/components/identifier-text.tsx) renders it.
      const pieces = segments(early.searchString);
      const longest = Math.max(...pieces.map((piece) => piece.length));
      const value = document.createElement('span');
      if (longest > 24) {
        value.className = 'font-mono';
        value.style.fontSize = `min(1em, calc(100cqi / ${(0.62 * longest).toFixed(1)}))`;
      }
      pieces.forEach((piece, i) => {
        if (i > 0) value.appendChild(document.createElement('wbr'));
        const span = document.createElement('span');
        span.className = 'whitespace-nowrap';
        span.textContent = piece;
        value.appendChild(span);
      });
      term.textContent = '';
      term.appendChild(value);
      const textarea = page.querySelector('textarea');
      if (textarea) textarea.value = textarea.textContent = early.searchString;
      root.appendChild(page);
      document.documentElement.lang = language;
      boot.shell = {
        language,
        theme,
        textarea: root.querySelector('textarea'),
        searchString: early.searchString,
      };
    };
    // The page's own copy of the answer; the app reads the original (takeEarlySearch).
    early.answer
      .then((response) => (response.ok ? response.clone().json() : null))
      .then(paint)
      .catch(() => undefined)
      .then(() => {
        // requestAnimationFrame runs just before the frame is painted; the timeout lands just after it.
        if (boot.shell && typeof window.requestAnimationFrame === 'function')
          window.requestAnimationFrame(() => window.setTimeout(load, 0));
        else load();
      });
  } catch {
    load();
  }
}

/** What the shell shows, if it does (main.tsx then waits for the route's code before rendering over it). */
export function pageShownByShell(): PageShownByShell | null {
  return bootState().shell ?? null;
}

export interface PageShellDraft {
  text: string;
  /** The caret or selection, when the shell's search box had the focus. */
  selection: [number, number] | null;
  /** The visitor asked for the search (Enter or the button) before the app took over. */
  submitted?: boolean;
}

/** The shell's search box each draft was taken from: it keeps its text and caret after React removed it. */
const draftSources = new WeakMap<PageShellDraft, HTMLTextAreaElement>();

/** The draft taken, and the shell's box it came from, while React has not yet replaced the shell. */
let taken: { from: HTMLTextAreaElement; draft: PageShellDraft | null } | null = null;

/**
 * A visitor may type into the shell's search box before the app takes over. The app's search box starts
 * with that text (and the focus and caret) instead of dropping it; for the first search box rendered.
 * React may render that box more than once before it replaces the shell (a transition render that an
 * update interrupts starts over, state initialisers included): until the shell's box leaves the page,
 * every call returns the same draft; after that, nothing.
 */
export function takePageShellDraft(): PageShellDraft | null {
  if (taken?.from.isConnected) return taken.draft;
  const shown = pageShownByShell();
  const textarea = shown?.textarea;
  if (!shown || !textarea) return null;
  shown.textarea = null;
  const focused = document.activeElement === textarea;
  const submitted = shown.submitted === true;
  const draft: PageShellDraft | null =
    textarea.value || focused || submitted
      ? {
          text: textarea.value,
          selection: focused ? [textarea.selectionStart, textarea.selectionEnd] : null,
          ...(submitted ? { submitted } : {}),
        }
      : null;
  if (draft) draftSources.set(draft, textarea);
  taken = { from: textarea, draft };
  return draft;
}

/**
 * Gives the app's search box what the visitor typed into the shell's box, with its focus and caret (a ref
 * callback; see takePageShellDraft). React renders the page before it replaces the shell, and typing
 * goes on in between: the text and caret are read again here, when the app's box is in the page, and
 * `onText` hands a text that grew meanwhile to the form's state.
 */
export function restorePageShellFocus(draft: PageShellDraft | null, onText?: (text: string) => void) {
  let done = false;
  return (textarea: HTMLTextAreaElement | null) => {
    if (!textarea || !draft || done) return;
    done = true;
    const source = draftSources.get(draft);
    const text = source ? source.value : draft.text;
    const selection: [number, number] | null =
      source && draft.selection ? [source.selectionStart, source.selectionEnd] : draft.selection;
    if (text !== draft.text) {
      textarea.value = text;
      onText?.(text);
    }
    if (!selection) return;
    textarea.focus();
    textarea.setSelectionRange(...selection);
  };
}
