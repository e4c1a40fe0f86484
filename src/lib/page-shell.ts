/**
 * The page shell (issue 12): index.html holds the home page, rendered by the build with the app's own
 * components (src/app/page-shell.tsx) in English and Filipino, light and dark. Before the app's
 * JavaScript has run, `showPageShell` (inlined into index.html by vite.config.ts) puts the one that fits
 * the visitor into #root, so a phone's first paint is the page itself, not a blank screen for the ~2 s
 * the entry chunk takes to download and run. React then renders the same page over it in one commit
 * (main.tsx waits for the route's code first).
 *
 * Only the home page has a shell: a results page's largest paint is its result count, which needs the
 * app anyway, and measured with a shell it scored lower (docs/benchmarks.md).
 */

export const PAGE_SHELL_LANGUAGES = ['en', 'fil'] as const;
export const PAGE_SHELL_THEMES = ['light', 'dark'] as const;
export type PageShellTheme = (typeof PAGE_SHELL_THEMES)[number];

/** The id of the template holding the home page in one language and theme. */
export const pageShellTemplateId = (language: string, theme: PageShellTheme) =>
  `page-shell-home-${language}-${theme}`;

/** What the shell showed, for the app to take over (see takePageShellDraft). */
export interface PageShownByShell {
  language: 'en' | 'fil';
  theme: PageShellTheme;
  textarea: HTMLTextAreaElement | null;
}

declare global {
  interface Window {
    __scamcheckPageShell?: PageShownByShell;
    /** The build's loader of the app's JavaScript, while it waits for the shell (see loadAppAfterShell). */
    __scamcheckLoadApp?: (() => void) | null;
  }
}

/**
 * Shows the page shell, if one fits. This function's source is inlined into index.html, so it must stand
 * alone: no imports, nothing from outside its body, syntax every supported browser parses unbundled.
 *
 * The shell is the page as a signed-out visitor sees it, so it is left out whenever the app might start
 * signed in (a stored session or a sign-in callback in the address, the test src/lib/load-supabase.ts
 * makes). Its language is the app's (src/i18n): the stored choice, else the browser's first language,
 * as i18next's detector reads them (codes it would refuse are skipped); Filipino for fil/tl, else
 * English. Its theme is the one index.html's earlier script has set (<html class="dark">): the colours
 * follow from that class, and that theme's template has the matching theme switch.
 */
export function showPageShell(): void {
  try {
    if (location.pathname !== '/') return;
    if (/[?#&](access_token|code|error_description)=/.test(location.search + location.hash)) return;
    const storage = window.localStorage;
    for (let i = 0; i < storage.length; i++) {
      if (/^sb-.*-auth-token$/.test(storage.key(i) ?? '')) return;
    }
    const codes: (string | null)[] = [storage.getItem('language')];
    const nav = window.navigator;
    if (nav.languages) for (let i = 0; i < nav.languages.length; i++) codes.push(nav.languages[i]);
    codes.push(nav.language);
    let language: 'en' | 'fil' = 'en';
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (
        typeof code === 'string' &&
        /^[A-Za-z0-9_@.-]{1,128}$/.test(code) &&
        code.indexOf('..') < 0 &&
        ['__proto__', 'constructor', 'prototype'].indexOf(code) < 0
      ) {
        const base = code.toLowerCase().split(/[-_]/)[0];
        language = base === 'fil' || base === 'tl' ? 'fil' : 'en';
        break;
      }
    }
    const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light';
    const template = document.getElementById(
      `page-shell-home-${language}-${theme}`,
    ) as HTMLTemplateElement | null;
    const root = document.getElementById('root');
    if (!template || !root || root.firstChild) return;
    root.appendChild(template.content.cloneNode(true));
    document.documentElement.lang = language;
    window.__scamcheckPageShell = { language, theme, textarea: root.querySelector('textarea') };
  } catch {
    // No storage or an old browser: the app renders the page as before.
  }
}

/**
 * On the home page the build's head script (routePreload in vite.config.ts) leaves the app's JavaScript
 * for later as `window.__scamcheckLoadApp`. This runs right after showPageShell (inlined the same way):
 * if the shell is showing, the app is requested once the browser has painted it, so a phone's first paint
 * does not share the connection and the main thread with the app's ~200 KB; otherwise at once.
 */
export function loadAppAfterShell(): void {
  const load = window.__scamcheckLoadApp;
  if (!load) return;
  if (window.__scamcheckPageShell && typeof window.requestAnimationFrame === 'function') {
    // requestAnimationFrame runs just before the frame is painted; the timeout lands just after it.
    window.requestAnimationFrame(() => window.setTimeout(load, 0));
  } else {
    load();
  }
}

/** What the shell shows, if it does (main.tsx then waits for the route's code before rendering over it). */
export function pageShownByShell(): PageShownByShell | null {
  return (typeof window !== 'undefined' && window.__scamcheckPageShell) || null;
}

export interface PageShellDraft {
  text: string;
  /** The caret or selection, when the shell's search box had the focus. */
  selection: [number, number] | null;
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
  const draft: PageShellDraft | null =
    textarea.value || focused
      ? { text: textarea.value, selection: focused ? [textarea.selectionStart, textarea.selectionEnd] : null }
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
