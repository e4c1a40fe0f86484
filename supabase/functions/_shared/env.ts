/** Environment variables the functions need; a missing one is a deployment error, named clearly. */
export function requireEnv(name: string): string {
  const v = Deno.env.get(name);
  if (!v) throw new Error(`${name} is not set in the function's environment`);
  return v;
}

/** Where links in e-mails point: the app's public address (SITE_URL), without a trailing slash. */
export function siteUrl(): string {
  return (Deno.env.get('SITE_URL') ?? 'http://localhost:5173').replace(/\/+$/, '');
}
