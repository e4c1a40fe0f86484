/**
 * The Auth service of the local stack (`/auth/v1`), standing in for GoTrue (supabase/auth) as supabase-js
 * v2 calls it. Settings come from `[auth]` in supabase/config.toml, data lives in the `auth` schema as GoTrue
 * stores it, e-mails go to the stack's mail sink, and answers and errors have GoTrue's shape.
 */
import type { ServiceContext, ServiceHandler } from '../gateway.ts';
import { sendJson } from '../http.ts';
import { createUser, deleteUserById, generateLink, getUserById, listUsers, updateUserById } from './admin.ts';
import { createAuth, parseRequest, requireAdmin, type Auth, type Rq } from './context.ts';
import { AuthError, OAuthError, notFound, sendAuthError } from './errors.ts';
import { callSendEmailHook } from './hook.ts';
import {
  getUser,
  invite,
  otp,
  reauthenticate,
  recover,
  resend,
  settingsEndpoint,
  signOut,
  signup,
  token,
  updateUserSelf,
  verifyGet,
  verifyPost,
} from './flows.ts';
import { loadAuthSettings, type AuthSettings } from './settings.ts';
import { authTx, type Db } from './store.ts';

type Handler = (
  auth: Auth,
  rq: Rq,
  tx: <T>(fn: (db: Db) => Promise<T>) => Promise<T>,
  ...params: string[]
) => Promise<void> | void;

const routes: [method: string, pattern: RegExp, handler: Handler, admin?: boolean][] = [
  [
    'GET',
    /^\/health$/,
    (_a, rq) =>
      sendJson(rq.res, 200, {
        version: 'local',
        name: 'GoTrue',
        description: 'GoTrue is a user registration and authentication API',
      }),
  ],
  ['GET', /^\/settings$/, settingsEndpoint],
  // Access tokens are signed with the shared HS256 secret, so there is no public key to publish.
  ['GET', /^\/\.well-known\/jwks\.json$/, (_a, rq) => sendJson(rq.res, 200, { keys: [] })],
  ['POST', /^\/signup$/, signup],
  ['POST', /^\/token$/, token],
  ['GET', /^\/verify$/, verifyGet],
  ['POST', /^\/verify$/, verifyPost],
  ['POST', /^\/otp$/, otp],
  ['POST', /^\/magiclink$/, otp],
  ['POST', /^\/recover$/, recover],
  ['POST', /^\/resend$/, resend],
  ['GET', /^\/user$/, getUser],
  ['PUT', /^\/user$/, updateUserSelf],
  ['POST', /^\/logout$/, signOut],
  ['GET', /^\/reauthenticate$/, reauthenticate],
  ['POST', /^\/invite$/, invite, true],
  ['GET', /^\/admin\/users$/, listUsers, true],
  ['POST', /^\/admin\/users$/, createUser, true],
  ['GET', /^\/admin\/users\/([^/]+)$/, getUserById, true],
  ['PUT', /^\/admin\/users\/([^/]+)$/, updateUserById, true],
  ['DELETE', /^\/admin\/users\/([^/]+)$/, deleteUserById, true],
  ['POST', /^\/admin\/generate_link$/, generateLink, true],
];

/** Builds the service; `settings` replaces config.toml's `[auth]` (tests use it to try other settings). */
export function createAuthService(
  ctx: ServiceContext,
  settings: AuthSettings = loadAuthSettings(ctx.config),
): ServiceHandler {
  const auth = createAuth(ctx, settings);
  return async (req, res, subPath) => {
    const url = new URL(subPath, 'http://auth.local');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    let rq: Rq | undefined;
    try {
      rq = await parseRequest(req, res, url, ctx.config.trustedProxies);
      const matches = routes.filter(([, pattern]) => pattern.test(path));
      const route = matches.find(([method]) => method === req.method);
      if (!route) {
        if (matches.length) throw new AuthError(405, 'validation_failed', 'Method Not Allowed');
        throw notFound('not_found', 'Not Found');
      }
      const [, pattern, handler, admin] = route;
      if (admin) rq.adminRole = (await requireAdmin(rq)).role;
      const params = pattern.exec(path)!.slice(1).map(decodeURIComponent);
      const mails = rq.mails;
      const texts = rq.sms;
      const hooks = rq.hooks;
      const sendEmailHook = auth.settings.sendEmailHook;
      // E-mails queued in a transaction leave once it has committed (so a code works when it arrives) and
      // before the answer; a transaction that fails takes its e-mails with it.
      const tx = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
        let result: T;
        try {
          result = await authTx(auth.pool, async (db) => {
            const out = await fn(db);
            // GoTrue calls the Send Email hook inside the transaction: a refusal rolls the change back.
            for (const call of hooks.splice(0)) await callSendEmailHook(sendEmailHook!, call);
            return out;
          });
        } catch (e) {
          mails.length = 0;
          texts.length = 0;
          hooks.length = 0;
          throw e;
        }
        for (const text of texts.splice(0)) {
          await (ctx.sendSms ?? (() => Promise.reject(new Error('no SMS sink'))))(text).catch((e: Error) =>
            ctx.log(`[auth] sending SMS to ${text.to} failed: ${e.message}`),
          );
        }
        for (const mail of mails.splice(0)) {
          await ctx
            .sendMail(mail)
            .catch((e: Error) => ctx.log(`[auth] sending e-mail to ${mail.to} failed: ${e.message}`));
        }
        return result;
      };
      await handler(auth, rq, tx, ...params);
    } catch (e) {
      if (res.headersSent) return void res.end();
      if (e instanceof AuthError && e.status >= 500 && e.cause)
        ctx.log(`[auth] ${req.method} ${subPath}: ${e.message}: ${String(e.cause)}`);
      if (e instanceof AuthError || e instanceof OAuthError) return sendAuthError(req, res, e);
      ctx.log(`[auth] ${req.method} ${subPath}: ${(e as Error).stack ?? e}`);
      sendAuthError(
        req,
        res,
        new AuthError(
          500,
          'unexpected_failure',
          'Unexpected failure, please check server logs for more information',
        ),
      );
    }
  };
}
