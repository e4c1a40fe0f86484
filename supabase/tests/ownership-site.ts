/**
 * The website a `.well-known` ownership proof is checked against in tests (issue 32). The test stack's
 * `ownership` function fetches a `.test` host's file from http://127.0.0.1:<ownershipTestPort>
 * (OWNERSHIP_TEST_ORIGIN, docs/right-of-reply.md) with `?host=<host>`; this server answers each host as
 * the test registered it, 404 otherwise. The same function fetches a Telegram account's public page
 * (a bio proof) from `<origin>/bio/telegram/<name>`: `pages` answers each as the test registered it
 * (keyed `telegram/<name>`).
 *
 * Test files run in parallel and the port is one: a file that finds it taken waits until the file
 * holding it closes its server (trying again every 100 ms, at most `waitMs`), so no two servers race.
 */
import http from 'node:http';
import { ownershipTestPort } from '../project/index.ts';

export const WELL_KNOWN_PATH = '/.well-known/scamcheck-verification.txt';

export type SiteAnswer = (res: http.ServerResponse) => void;

export interface OwnershipSite {
  /** What each `.test` host serves at WELL_KNOWN_PATH. */
  sites: Map<string, SiteAnswer>;
  /** What each platform page serves, keyed `<platform>/<path>` (e.g. `telegram/nenastore`). */
  pages: Map<string, SiteAnswer>;
  close(): Promise<void>;
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (e: Error) => {
      server.off('listening', listening);
      reject(e);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, '127.0.0.1');
  });
}

export async function startOwnershipSite({ waitMs = 120_000 } = {}): Promise<OwnershipSite> {
  const port = ownershipTestPort();
  const sites = new Map<string, SiteAnswer>();
  const pages = new Map<string, SiteAnswer>();
  const answer: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/bio/')) {
      const page = pages.get(decodeURIComponent(url.pathname.slice('/bio/'.length)));
      if (page) page(res);
      else res.writeHead(404).end('not found');
      return;
    }
    const site = sites.get(url.searchParams.get('host') ?? '');
    if (url.pathname !== WELL_KNOWN_PATH || !site) {
      res.writeHead(404).end('not found');
      return;
    }
    site(res);
  };
  const deadline = Date.now() + waitMs;
  let server: http.Server;
  for (;;) {
    // A fresh server per try: one whose listen failed is not reused.
    server = http.createServer(answer);
    try {
      await listen(server, port);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    sites,
    pages,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
