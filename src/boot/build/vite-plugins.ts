/**
 * The first load's build machinery (docs/architecture.md, "The first load"): what the dev server and the
 * build do to index.html so that a phone paints the page before the app's JavaScript has run. Each
 * script it writes into index.html is a function of src/boot, inlined by its source text, so the code
 * that runs before the app is typed, tested (src/boot/*.test.ts, tests/page-shell.test.ts) and in one
 * room with the app's side of the hand-over (src/boot/globals.ts):
 * - bootScripts (dev and build): the stored theme, before the first paint, and a signed-out visitor's
 *   early search on a results page (src/boot/early-search.ts);
 * - routePreload (build): the home and results routes' chunks preloaded with the entry, and the entry
 *   held back until the page shell has painted;
 * - pageShell (build): the stylesheet inlined and the page shells' templates with their scripts
 *   (src/boot/page-shell.ts).
 */
import path from 'node:path';
import { runnerImport, type AliasOptions, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { headlineFacts, identifierSegments } from '../../lib/search-headline.ts';
import { startEarlySearch } from '../early-search.ts';
import { loadAppAfterShell, pageShellLanguage, showPageShell, showResultsShell } from '../page-shell.ts';
import { isSessionKey, maySignIn } from '../session.ts';
import { applyStoredTheme } from '../theme.ts';

/**
 * maySignIn as an inlined script calls it: with isSessionKey passed in (its default would name a function
 * the page does not have).
 */
const inlinedMaySignIn = `function(){return(${maySignIn.toString()})(${isSessionKey.toString()})}`;

/** The first load's plugins, for vite.config.ts: `root` is the project's folder, `alias` the app's. */
export function firstLoad(root: string, alias: AliasOptions): Plugin[] {
  return [bootScripts(), routePreload(root), pageShell(root, alias)];
}

/**
 * The head's scripts that run in the dev server and the build alike, right after <title>: the stored
 * theme (before the first paint) and the early search, with the project's address and anon key.
 */
function bootScripts(): Plugin {
  let env: Record<string, string | undefined> = {};
  return {
    name: 'scamcheck-boot-scripts',
    configResolved(config) {
      env = config.env;
    },
    transformIndexHtml(html) {
      const title = /<\/title>\n/;
      if (!title.test(html)) throw new Error('boot scripts: index.html has no </title>');
      const url = JSON.stringify(env.VITE_SUPABASE_URL ?? '');
      const key = JSON.stringify(env.VITE_SUPABASE_ANON_KEY ?? '');
      const scripts =
        `    <script>(${applyStoredTheme.toString()})()</script>\n` +
        `    <script>(${startEarlySearch.toString()})(${url},${key},${inlinedMaySignIn})</script>\n`;
      return html.replace(title, (m) => m + scripts);
    },
  };
}

/**
 * The pages people open from outside most (home, and a shared results page) are lazy route chunks, so
 * the browser would learn of them only after the entry chunk ran: one more round trip before the page
 * can paint. In a build, index.html gets a small script that, on those paths, adds modulepreload links
 * for the route's chunks at once, so they download alongside the entry (Lighthouse, docs/performance.md).
 */
/** A results page's address, as index.html's early search recognises it. */
const RESULTS_PATH = '^/search/[^/]+/?$';

const PRELOADED_ROUTES = [
  { module: 'src/app/routes/home.tsx', path: '^/$' },
  { module: 'src/app/routes/search.tsx', path: RESULTS_PATH },
];

function routePreload(root: string): Plugin {
  let base = '/';
  return {
    name: 'scamcheck-route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (start: Rolldown.OutputChunk, into = new Set<string>()) => {
          if (!into.has(start.fileName)) {
            into.add(start.fileName);
            for (const name of start.imports) {
              const next = byName.get(name);
              if (next) closure(next, into);
            }
          }
          return into;
        };
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) return html;
        const initial = closure(entry);
        const routes = PRELOADED_ROUTES.map(({ module, path: pattern }) => {
          const chunk = chunks.find((c) => c.facadeModuleId === path.resolve(root, module));
          if (!chunk) throw new Error(`route preload: no chunk for ${module}`);
          return [pattern, [...closure(chunk)].filter((f) => !initial.has(f)).map((f) => base + f)];
        });
        // Vite's own tags for the entry: the module script and its modulepreload links. They move into the
        // script below, which adds them at once, except on the home page and a results page: there the
        // page shell paints first and then calls window.__scamcheck.loadApp (see pageShell; a results page
        // paints once its early answer is in), so a phone's first paint does not share the connection with
        // ~200 KB of JavaScript, nor wait for it (Lighthouse, docs/performance.md).
        const entryTag = new RegExp(
          `<script type="module" crossorigin src="${base}${entry.fileName}"></script>\\n?\\s*`,
        );
        if (!entryTag.test(html))
          throw new Error(`route preload: no <script> for ${entry.fileName} in index.html`);
        html = html.replace(entryTag, '');
        const preloads: string[] = [];
        html = html.replace(
          /<link rel="modulepreload" crossorigin href="([^"]+)">\n?\s*/g,
          (_, href: string) => {
            preloads.push(href);
            return '';
          },
        );
        const script =
          `(function(){var b=window.__scamcheck=window.__scamcheck||{},r=${JSON.stringify(routes)},p=${JSON.stringify(preloads)},e=${JSON.stringify(base + entry.fileName)};` +
          `function add(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l)}` +
          `for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(location.pathname)){p=p.concat(r[i][1]);break}` +
          `function load(){b.loadApp=null;p.forEach(add);var s=document.createElement('script');` +
          `s.type='module';s.crossOrigin='';s.src=e;document.head.appendChild(s)}` +
          `if(location.pathname==='/'||new RegExp(${JSON.stringify(RESULTS_PATH)}).test(location.pathname))b.loadApp=load;else load()})()`;
        // Right after <meta charset> (which must stay in the first 1024 bytes) and before the stylesheet:
        // an inline script after a stylesheet waits for it to download.
        const charset = /<meta charset="UTF-8" \/>\n/;
        if (!charset.test(html)) throw new Error('route preload: index.html has no <meta charset="UTF-8" />');
        return html.replace(charset, (m) => `${m}    <script>${script}</script>\n`);
      },
    },
  };
}

/**
 * A phone's first paint of the home page (issue 12, mobile Lighthouse), in a build:
 * - the page shell (src/boot/page-shell.ts): the home page, rendered with the app's own components in
 *   both languages and themes (src/boot/build/render-page-shells.tsx, run in Node through Vite's module runner), goes
 *   into index.html as templates, with the script that shows the right one before the app's code runs;
 * - the stylesheet is inlined, so the first paint waits for nothing once the HTML is in.
 */
function pageShell(root: string, alias: AliasOptions): Plugin {
  let base = '/';
  let define: Record<string, string> = {};
  return {
    name: 'scamcheck-page-shell',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      // The app's constants (its checked settings, vite.config.ts's appEnv), for the shells' render too.
      define = config.define ?? {};
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        let inlined = 0;
        html = html.replace(/<link rel="stylesheet" crossorigin href="([^"]+)">/g, (_, href: string) => {
          const asset = bundle[href.slice(base.length)];
          if (asset?.type !== 'asset') throw new Error(`page shell: no stylesheet ${href} in the build`);
          const css =
            typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          if (css.includes('</style')) throw new Error(`page shell: ${href} cannot be inlined`);
          inlined++;
          // The disabled <link> is never fetched; it is there for Vite's preload helper, which otherwise
          // fetches and applies the same stylesheet again before every lazy chunk that shares a module
          // with the entry (it looks for a stylesheet <link> with this href): 12 KB and a style
          // recalculation of the whole page after the first paint (Lighthouse, docs/performance.md).
          return `<style>${css}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`;
        });
        if (!inlined) throw new Error('page shell: index.html links no stylesheet to inline');

        const { module } = await runnerImport<{ renderPageShells: () => Promise<Record<string, string>> }>(
          '/src/boot/build/render-page-shells.tsx',
          {
            root,
            configFile: false,
            logLevel: 'error',
            define,
            plugins: [react()],
            // The functions' shared code reaches packages through `npm:` aliases, which the runner
            // inlines instead of leaving to Node: it runs ES modules inline, not CommonJS, so tldts (whose
            // `main` is CommonJS and which has no `exports`) is pointed at its ES module build.
            resolve: {
              alias: [
                {
                  find: /^npm:tldts@[^/]+$/,
                  replacement: path.resolve(root, 'node_modules/tldts/dist/es6/index.js'),
                },
                ...(Array.isArray(alias) ? alias : []),
              ],
              dedupe: ['react', 'react-dom'],
            },
          },
        );
        const shells = await module.renderPageShells();
        const templates = Object.entries(shells).map(
          ([id, markup]) => `<template id="${id}">${markup}</template>`,
        );
        const rootDiv = '<div id="root"></div>';
        if (!html.includes(rootDiv)) throw new Error(`page shell: index.html has no ${rootDiv}`);
        return html.replace(
          rootDiv,
          `${rootDiv}\n    ${templates.join('\n    ')}\n    <script>(${showPageShell.toString()})(${pageShellLanguage.toString()},${inlinedMaySignIn});` +
            `(${loadAppAfterShell.toString()})();` +
            `(${showResultsShell.toString()})(${headlineFacts.toString()},${identifierSegments.toString()},${pageShellLanguage.toString()})</script>`,
        );
      },
    },
  };
}
