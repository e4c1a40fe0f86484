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
    this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), keys, handler });
    return this;
  }

  async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.startsWith(this.prefix) ? url.pathname.slice(this.prefix.length) : null;
    if (path === null)
      throw new HttpError(404, `No route for ${url.pathname}; the API lives under ${this.prefix}`);
    let pathMatched = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path || '/');
      if (!m) continue;
      pathMatched = true;
      if (route.method !== req.method && !(route.method === 'GET' && req.method === 'HEAD')) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => {
        try {
          params[k] = decodeURIComponent(m[i + 1]);
        } catch {
          throw new HttpError(400, `The ${k} in the address is not valid`);
        }
      });
      return await route.handler({ req, url, params });
    }
    if (pathMatched) throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}`);
    throw new HttpError(404, `No route for ${req.method} ${url.pathname}`);
  }
}
