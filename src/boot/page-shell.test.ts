/**
 * The page shell's choices, in jsdom (tests/page-shell.test.ts checks the built index.html in Chromium,
 * but cannot run per mutant): which template shows, when none does, and how the app takes over the text
 * typed into the shell's search box.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  pageShellTemplateId,
  pageShownByShell,
  restorePageShellFocus,
  pageShellLanguage,
  showPageShell as showPageShellWith,
  takePageShellDraft,
} from './page-shell';
import { maySignIn } from './session';

/** As index.html calls it: with the language and sign-in checks inlined beside it. */
const showPageShell = () => showPageShellWith(pageShellLanguage, maySignIn);

const TEMPLATES = ['en-light', 'en-dark', 'fil-light', 'fil-dark'];

function setLanguages(languages: string[] | undefined, language: string) {
  Object.defineProperty(window.navigator, 'languages', { value: languages, configurable: true });
  Object.defineProperty(window.navigator, 'language', { value: language, configurable: true });
}

/** The id of the template #root now shows, or null when it is empty. */
function shown(): string | null {
  return document.querySelector('#root [data-shell]')?.getAttribute('data-shell') ?? null;
}

beforeEach(() => {
  document.body.innerHTML =
    TEMPLATES.map(
      (t) =>
        `<template id="page-shell-home-${t}"><h1 data-shell="${t}">${t}</h1><textarea></textarea></template>`,
    ).join('') + '<div id="root"></div>';
  document.documentElement.className = '';
  document.documentElement.lang = '';
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  setLanguages(['en-US', 'en'], 'en-US');
});

afterEach(() => {
  delete window.__scamcheck;
  localStorage.clear();
});

describe('showPageShell', () => {
  it('shows the English light page to a signed-out visitor of the home page', () => {
    showPageShell();
    expect(shown()).toBe('en-light');
    expect(document.documentElement.lang).toBe('en');
    expect(pageShownByShell()).toEqual({
      language: 'en',
      theme: 'light',
      textarea: document.querySelector('#root textarea'),
    });
    expect(pageShownByShell()?.textarea).not.toBeNull();
  });

  it('follows the theme index.html set', () => {
    document.documentElement.classList.add('dark');
    showPageShell();
    expect(shown()).toBe('en-dark');
    expect(pageShownByShell()?.theme).toBe('dark');
  });

  it('shows Filipino for fil and tl, with or without a region', () => {
    for (const [languages, want] of [
      [['fil-PH'], 'fil'],
      [['tl'], 'fil'],
      [['TL_ph'], 'fil'],
      [['fil'], 'fil'],
      [['filipino'], 'en'],
      [['es-PH', 'fil'], 'en'],
    ] as const) {
      document.getElementById('root')!.replaceChildren();
      setLanguages([...languages], languages[0]);
      showPageShell();
      expect(shown(), languages.join()).toBe(`${want}-light`);
      expect(document.documentElement.lang).toBe(want);
    }
  });

  it('puts the stored choice before the browser languages', () => {
    localStorage.setItem('language', 'fil');
    showPageShell();
    expect(shown()).toBe('fil-light');
    localStorage.setItem('language', 'en');
    setLanguages(['fil-PH'], 'fil-PH');
    document.getElementById('root')!.replaceChildren();
    showPageShell();
    expect(shown()).toBe('en-light');
  });

  it('skips codes the language detector would refuse', () => {
    setLanguages(['fil'], 'fil');
    for (const bad of ['en US', 'en..x', '__proto__', 'constructor', 'prototype', 'x'.repeat(129), '']) {
      localStorage.setItem('language', bad);
      document.getElementById('root')!.replaceChildren();
      showPageShell();
      expect(shown(), bad).toBe('fil-light');
    }
    // 128 characters is still a code.
    localStorage.setItem('language', 'e'.repeat(128));
    document.getElementById('root')!.replaceChildren();
    showPageShell();
    expect(shown()).toBe('en-light');
  });

  it('falls back to navigator.language, then English', () => {
    setLanguages(undefined, 'tl-PH');
    showPageShell();
    expect(shown()).toBe('fil-light');
    setLanguages([], '');
    document.getElementById('root')!.replaceChildren();
    showPageShell();
    expect(shown()).toBe('en-light');
  });

  it('shows nothing off the home page or when the app may start signed in', () => {
    for (const url of [
      '/search?q=1',
      '/?code=abc',
      '/?x=1&code=abc',
      '/#access_token=t',
      '/?error_description=no',
    ]) {
      window.history.replaceState(null, '', url);
      showPageShell();
      expect(shown(), url).toBeNull();
    }
    // Only the exact names count: these are not sign-in callbacks.
    window.history.replaceState(null, '', '/?mycode=abc');
    showPageShell();
    expect(shown()).toBe('en-light');
  });

  it('shows nothing with a stored session, whatever its project', () => {
    localStorage.setItem('other', '1');
    localStorage.setItem('sb-abcdefgh-auth-token', '{}');
    showPageShell();
    expect(shown()).toBeNull();
    expect(pageShownByShell()).toBeNull();
    expect(document.documentElement.lang).toBe('');
    localStorage.clear();
    localStorage.setItem('sb-abcdefgh-auth-token-code-verifier', 'x');
    localStorage.setItem('my-sb-x-auth-token', 'x');
    showPageShell();
    expect(shown()).toBe('en-light');
  });

  it('leaves a root that already has content, and a missing template, alone', () => {
    document.getElementById('root')!.innerHTML = '<p>app</p>';
    showPageShell();
    expect(document.getElementById('root')!.innerHTML).toBe('<p>app</p>');
    expect(pageShownByShell()).toBeNull();
    document.getElementById('root')!.replaceChildren();
    document.getElementById('page-shell-home-en-light')!.remove();
    showPageShell();
    expect(shown()).toBeNull();
    expect(pageShownByShell()).toBeNull();
  });

  it('names the templates by language and theme', () => {
    expect(pageShellTemplateId('fil', 'dark')).toBe('page-shell-home-fil-dark');
  });
});

describe('the draft typed into the shell', () => {
  it('is nothing without a shell, or with an empty unfocused box', () => {
    expect(takePageShellDraft()).toBeNull();
    showPageShell();
    expect(takePageShellDraft()).toBeNull();
  });

  it('keeps the text, and the caret only when the box had the focus, until the shell is replaced', () => {
    showPageShell();
    const box = document.querySelector<HTMLTextAreaElement>('#root textarea')!;
    box.value = '0917 555';
    const draft = takePageShellDraft();
    expect(draft).toEqual({ text: '0917 555', selection: null });
    // A render that starts over gets the same draft while the shell is in the page; later boxes nothing.
    expect(takePageShellDraft()).toBe(draft);
    document.getElementById('root')!.replaceChildren();
    expect(takePageShellDraft()).toBeNull();

    document.getElementById('root')!.replaceChildren();
    showPageShell();
    const focused = document.querySelector<HTMLTextAreaElement>('#root textarea')!;
    focused.focus();
    expect(takePageShellDraft()).toEqual({ text: '', selection: [0, 0] });

    document.getElementById('root')!.replaceChildren();
    showPageShell();
    const typed = document.querySelector<HTMLTextAreaElement>('#root textarea')!;
    typed.value = 'scam text';
    typed.focus();
    typed.setSelectionRange(2, 6);
    expect(takePageShellDraft()).toEqual({ text: 'scam text', selection: [2, 6] });
  });

  it('gives the app box the focus and caret once', () => {
    const box = document.createElement('textarea');
    box.value = 'scam text';
    document.body.append(box);
    const restore = restorePageShellFocus({ text: 'scam text', selection: [1, 4] });
    restore(null);
    restore(box);
    expect(document.activeElement).toBe(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([1, 4]);
    box.setSelectionRange(0, 0);
    restore(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 0]);
  });

  it('takes what was typed into the shell after the draft was taken, up to the moment the app box is in', () => {
    showPageShell();
    const shell = document.querySelector<HTMLTextAreaElement>('#root textarea')!;
    shell.value = '0917 555';
    shell.focus();
    shell.setSelectionRange(8, 8);
    const draft = takePageShellDraft();
    expect(draft).toEqual({ text: '0917 555', selection: [8, 8] });
    // React renders with the draft; the visitor types on before it replaces the shell.
    shell.value = '0917 5550142';
    shell.setSelectionRange(12, 12);
    document.getElementById('root')!.replaceChildren();
    const box = document.createElement('textarea');
    box.value = draft!.text;
    document.body.append(box);
    const texts: string[] = [];
    restorePageShellFocus(draft, (text) => texts.push(text))(box);
    expect(texts).toEqual(['0917 5550142']);
    expect(box.value).toBe('0917 5550142');
    expect(document.activeElement).toBe(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([12, 12]);
  });

  it('leaves the focus alone without a caret to restore', () => {
    const box = document.createElement('textarea');
    document.body.append(box);
    restorePageShellFocus({ text: 'x', selection: null })(box);
    restorePageShellFocus(null)(box);
    expect(document.activeElement).not.toBe(box);
  });
});
