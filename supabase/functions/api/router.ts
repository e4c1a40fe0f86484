/**
 * A small router for the legacy API: routes are `METHOD /path/:param` under /api/v1. Unknown paths
 * answer 404 and known paths with another method 405, both as JSON with `msg`.
 */
import { HttpError } from '../_shared/http.ts';

export interface RouteContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
}

export type RouteHandler = (ctx: RouteContext) => Promise<Response>;

interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  keys: string[];
  handler: RouteHandler;
}

export class Router {
  private routes: Route[] = [];

  constructor(private prefix: string) {}

  on(method: string, path: string, handler: RouteHandler): this {
    const keys: string[] = [];
    const source = path
      .split('/')
      .map((part) => {
        if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        keys.push(part.slice(1));
        return '([^/]+)';
      })
      .join('/');
    this.routes.push({ method, path, pattern: new RegExp(`^${source}/?$`), keys, handler });
    return this;
  }

  /** The routes served, as registered: method and path with its :params. */
  list(): { method: string; path: string }[] {
    return this.routes.map((r) => ({ method: r.method, path: r.path }));
  }

  /** The first route that answers `method` on `path` (below the prefix), as handle() picks it. */
  private find(
    method: string,
    path: string,
  ): { route: Route; match: RegExpExecArray } | 'other-method' | null {
    let pathMatched = false;
    for (const route of this.routes) {
      const match = route.pattern.exec(path || '/');
      if (!match) continue;
      pathMatched = true;
      if (route.method === method || (route.method === 'GET' && method === 'HEAD')) return { route, match };
    }
    return pathMatched ? 'other-method' : null;
  }

  /** Which registered route (`METHOD /path/:param`) serves a call, or null when none does. */
  servedBy(method: string, path: string): string | null {
    const found = this.find(method, path);
    return typeof found === 'object' && found ? `${found.route.method} ${found.route.path}` : null;
  }

  async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.startsWith(this.prefix) ? url.pathname.slice(this.prefix.length) : null;
    if (path === null)
      throw new HttpError(404, `No route for ${url.pathname}; the API lives under ${this.prefix}`);
    const found = this.find(req.method, path);
    if (found && found !== 'other-method') {
      const params: Record<string, string> = {};
      found.route.keys.forEach((k, i) => {
        try {
          params[k] = decodeURIComponent(found.match[i + 1]);
        } catch {
          throw new HttpError(400, `The ${k} in the address is not valid`);
        }
      });
      return await found.route.handler({ req, url, params });
    }
    if (found === 'other-method') throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}`);
    throw new HttpError(404, `No route for ${req.method} ${url.pathname}`);
  }
}
