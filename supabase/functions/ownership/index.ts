/**
 * Proof of control of a reported identifier (issue 32, docs/right-of-reply.md), for signed-in owners:
 *
 * - `POST { action: "email", email }`: starts an e-mail proof and mails a 6-digit code to that address
 *   (the owner then calls the RPC `verify_ownership_code`); `{ action: "email", proof }` sends a new code.
 * - `POST { action: "website", website, method: "wellknown" | "dns" }`: starts a website proof and answers
 *   its challenge, to publish at `/.well-known/scamcheck-verification.txt` or as a TXT record at
 *   `_scamcheck.<host>`.
 * - `POST { action: "check", proof }`: checks a website proof now (public-fetch.ts: public addresses only,
 *   3 redirects, 8 KiB, 5 s); the check and its outcome are logged either way.
 *
 * - `POST { action: "social", account }`: starts a proof of a social media or chat account (any link to
 *   it) and answers the code to place in its public bio, and whether `check` can see that bio
 *   (`automatic`: Telegram, social-bio-platforms.ts); otherwise the owner sends evidence for an admin's
 *   review (the RPC `submit_ownership_evidence`).
 * - `{ action: "check", proof }` on a social proof fetches the account's public page and looks for the
 *   code in its bio (social-bio.ts), under the same rules and limits as a website check.
 *
 * Mobile numbers and e-wallets are proved through Supabase Auth (updateUser({ phone }) and a
 * phone_change code), then the RPC `claim_phone_ownership`: no function is needed.
 */
import { preflight } from '../_shared/cors.ts';
import { errorCodeOf, HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { readFields } from '../_shared/body.ts';
import { clientFor, requireUser } from '../_shared/supabase.ts';
import { serviceClient } from '../_shared/service.ts';
import { escapeHtml, sendMail } from '../_shared/mail.ts';
import { checkWebsiteProof, TXT_PREFIX, WELL_KNOWN_PATH } from '../_shared/ownership-check.ts';
import { checkBioProof } from '../_shared/social-bio.ts';
import { bioPageUrl, type BioPageBases } from '../_shared/social-bio-platforms.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHECKS_PER_HOUR = 20;

interface Proof {
  id: string;
  identifier: string;
  method: string;
  challenge: string | null;
  live: boolean;
}

/**
 * The local test stack's one exception to "public addresses only": OWNERSHIP_TEST_ORIGIN (for example
 * http://127.0.0.1:25330) is where a website proof of a host under the reserved `.test` name (RFC 6761,
 * never a real site) is fetched, and only that origin's address and port count as public. It comes from
 * the function's environment, which no caller sets, and is honoured only while SUPABASE_URL itself is a
 * loopback address (a local stack): on hosted Supabase it does nothing even if set by mistake.
 */
function testOrigin(): URL | null {
  const origin = Deno.env.get('OWNERSHIP_TEST_ORIGIN');
  if (!origin) return null;
  const own = new URL(Deno.env.get('SUPABASE_URL') ?? 'https://invalid.example');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(own.hostname)) return null;
  return new URL(origin);
}

/**
 * Where the bio pages are fetched: the platforms' own sites, or on the local test stack (the same
 * OWNERSHIP_TEST_ORIGIN and guard) `<origin>/bio/<platform>/`, served by the test's server.
 */
function bioBases(test: URL | null): BioPageBases | undefined {
  return test ? { telegram: new URL('/bio/telegram/', test).href } : undefined;
}

function allowed(test: URL | null): Set<string> {
  return new Set(test ? [`${test.hostname.replace(/^\[|\]$/g, '')}:${test.port || 80}`] : []);
}

/** The ownership limits of the database (hours and minutes per address or user): 429, not 400. */
const TOO_MANY = new Set([
  'ownership_proofs_too_many',
  'ownership_code_too_soon',
  'ownership_codes_too_many',
]);

/** A database refusal as this function's answer: its English message, its code and the right status. */
function refusal(error: { message: string; hint?: string | null }): HttpError {
  const coded = errorCodeOf(error);
  return new HttpError('code' in coded && TOO_MANY.has(coded.code) ? 429 : 400, error.message, coded);
}

function mailFor(language: string, code: string, address: string) {
  const fil = language === 'fil';
  const subject = fil ? 'Ang iyong ScamCheck code ng pagmamay-ari' : 'Your ScamCheck ownership code';
  const lead = fil
    ? `May humiling na patunayang pag-aari niya ang ${address} sa ScamCheck. Ilagay ang code na ito sa ScamCheck:`
    : `Someone asked to prove on ScamCheck that they own ${address}. Enter this code on ScamCheck:`;
  const tail = fil
    ? 'Mawawalang-bisa ito sa loob ng 15 minuto. Kung hindi ikaw, balewalain ang e-mail na ito.'
    : 'It expires in 15 minutes. If this was not you, ignore this e-mail.';
  return {
    subject,
    text: `${lead}\n\n${code}\n\n${tail}\n`,
    html: `<p>${escapeHtml(lead)}</p><p style="font-size:24px;letter-spacing:4px"><span>${code}</span></p><p>${escapeHtml(tail)}</p>`,
  };
}

async function sendCode(proofId: string): Promise<void> {
  const { data, error } = await serviceClient().rpc('issue_ownership_code', { proof_id: proofId });
  if (error) throw refusal(error);
  const issued = (data as { address: string; code: string; language: string }[])[0];
  const mail = mailFor(issued.language, issued.code, issued.address);
  await sendMail({ to: issued.address, ...mail });
}

async function ownProof(caller: Parameters<typeof clientFor>[0], id: unknown): Promise<Proof> {
  if (typeof id !== 'string' || !UUID.test(id)) throw new HttpError(400, 'proof must be a proof id');
  const { data, error } = await clientFor(caller)
    .from('ownership_proofs')
    .select('id, identifier:identifier_canonical, method, challenge, verified_at, withdrawn_at')
    .eq('id', id)
    .maybeSingle();
  if (error)
    throw new HttpError(502, 'Could not read your proof right now, please try again', {
      code: 'unavailable',
    });
  // Someone else's proof reads as none (RLS), as a withdrawn one of theirs does in the database.
  if (!data) throw new HttpError(404, 'No such proof', { code: 'ownership_proof_missing' });
  return { ...data, live: false } as Proof;
}

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req);
    const fields = await readFields(req, 10_000);
    const asCaller = clientFor(caller);
    switch (fields.action) {
      case 'email': {
        if (fields.proof !== undefined) {
          const proof = await ownProof(caller, fields.proof);
          await sendCode(proof.id);
          return json({ proof: proof.id, sent: true });
        }
        if (typeof fields.email !== 'string') throw new HttpError(400, 'email is required');
        const { data, error } = await asCaller.rpc('start_ownership_proof', {
          kind: 'email',
          value: fields.email,
          method: 'email',
        });
        if (error) throw refusal(error);
        const proof = data as unknown as Proof;
        await sendCode(proof.id);
        return json({ proof, sent: true }, 201);
      }
      case 'website': {
        if (typeof fields.website !== 'string') throw new HttpError(400, 'website is required');
        if (fields.method !== 'wellknown' && fields.method !== 'dns')
          throw new HttpError(400, 'method must be wellknown or dns');
        const { data, error } = await asCaller.rpc('start_ownership_proof', {
          kind: 'website',
          value: fields.website,
          method: fields.method,
        });
        if (error) throw refusal(error);
        const proof = data as unknown as Proof;
        return json(
          {
            proof,
            publish:
              fields.method === 'dns'
                ? { type: 'TXT', name: `${TXT_PREFIX}${proof.identifier}`, value: proof.challenge }
                : { url: `https://${proof.identifier}${WELL_KNOWN_PATH}`, content: proof.challenge },
          },
          201,
        );
      }
      case 'social': {
        if (typeof fields.account !== 'string') throw new HttpError(400, 'account is required');
        const { data, error } = await asCaller.rpc('start_social_proof', { value: fields.account });
        if (error) throw refusal(error);
        const proof = data as unknown as Proof;
        const page = bioPageUrl(proof.identifier);
        return json({ proof, code: proof.challenge, automatic: page !== null, page }, 201);
      }
      case 'check': {
        const proof = await ownProof(caller, fields.proof);
        if (proof.method !== 'wellknown' && proof.method !== 'dns' && proof.method !== 'bio')
          throw new HttpError(400, 'Only website and social account proofs are checked here', {
            code: 'ownership_method_invalid',
          });
        const { count } = await serviceClient()
          .from('ownership_proof_log')
          .select('id', { count: 'exact', head: true })
          .eq('proof_id', proof.id)
          .eq('event', 'checked')
          .gt('created_at', new Date(Date.now() - 3_600_000).toISOString());
        if ((count ?? 0) >= CHECKS_PER_HOUR)
          throw new HttpError(429, 'Too many checks of this proof; try again in an hour', {
            code: 'ownership_checks_too_many',
          });
        if (proof.method === 'bio') {
          const test = testOrigin();
          const bio = await checkBioProof(proof, { bases: bioBases(test), allow: allowed(test) });
          if (!bio.automatic)
            throw new HttpError(
              400,
              "This platform's public page does not show the bio without signing in; send evidence for review",
              { code: 'bio_not_public' },
            );
          const { data, error } = await serviceClient().rpc('record_bio_check', {
            proof_id: proof.id,
            ok: bio.ok,
            detail: bio.detail,
          });
          if (error)
            throw new HttpError(502, 'Could not record the check, please try again', { code: 'unavailable' });
          return json({ ok: bio.ok, detail: bio.detail, proof: data });
        }
        const { ok, detail } = await checkWebsiteProof(proof, { testOrigin: testOrigin() });
        const { data, error } = await serviceClient().rpc('record_ownership_check', {
          proof_id: proof.id,
          ok,
          detail,
        });
        if (error)
          throw new HttpError(502, 'Could not record the check, please try again', { code: 'unavailable' });
        return json({ ok, detail, proof: data });
      }
      default:
        throw new HttpError(400, 'action must be email, website, social or check');
    }
  } catch (e) {
    return toErrorResponse(e);
  }
});
