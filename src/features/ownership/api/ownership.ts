import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import type { Database, Tables } from '@/types/database.types';
import { invokeFunction } from '@/lib/functions';
import { canonicalIdentifier } from '@/lib/canonical';
import { uploadImage } from '@/lib/image-file';

/**
 * Right of reply (issue 32, docs/right-of-reply.md): an owner proves control of an identifier, then
 * answers on the record, watches it and asks for a report's removal. The database functions and the
 * `ownership` edge function do the work; these hooks only call them.
 */
export const ownershipKeys = {
  all: ['ownership'] as const,
  proofs: (userId: string | undefined) => [...ownershipKeys.all, 'proofs', userId] as const,
  statements: (userId: string | undefined) => [...ownershipKeys.all, 'statements', userId] as const,
  watched: (userId: string | undefined) => [...ownershipKeys.all, 'watched', userId] as const,
  reports: (identifier: string) => [...ownershipKeys.all, 'reports', identifier] as const,
  evidence: (userId: string | undefined) => [...ownershipKeys.all, 'evidence', userId] as const,
};

export type ProofMethod = Database['public']['Enums']['ownership_method'];

/** An ownership proof as the caller reads it (RLS: their own; never a code's hash). */
export type Proof = Pick<
  Tables<'ownership_proofs'>,
  | 'id'
  | 'identifier_kind'
  | 'identifier_canonical'
  | 'method'
  | 'challenge'
  | 'code_sent_at'
  | 'created_at'
  | 'verified_at'
  | 'expires_at'
  | 'withdrawn_at'
>;

export type ProofState = 'live' | 'waiting' | 'withdrawn' | 'expired';

export function proofState(p: Proof, now = Date.now()): ProofState {
  if (p.withdrawn_at) return 'withdrawn';
  if (!p.verified_at) return 'waiting';
  return p.expires_at && Date.parse(p.expires_at) > now ? 'live' : 'expired';
}

/** The caller's proofs, newest first (RLS: their own; never a code's hash). */
export function useProofs(userId: string | undefined) {
  return useQuery({
    queryKey: ownershipKeys.proofs(userId),
    enabled: !!userId,
    queryFn: async (): Promise<Proof[]> => {
      const { data, error } = await supabase
        .from('ownership_proofs')
        .select(
          'id, identifier_kind, identifier_canonical, method, challenge, code_sent_at, created_at, verified_at, expires_at, withdrawn_at',
        )
        .order('created_at', { ascending: false })
        .limit(100);
      if (error) throw error;
      return data;
    },
  });
}

export type MyStatement = Pick<
  Tables<'owner_statements'>,
  'id' | 'identifier_canonical' | 'body' | 'updated_at' | 'hidden_at' | 'hidden_reason'
>;

export function useMyStatements(userId: string | undefined) {
  return useQuery({
    queryKey: ownershipKeys.statements(userId),
    enabled: !!userId,
    queryFn: async (): Promise<MyStatement[]> => {
      const { data, error } = await supabase
        .from('owner_statements')
        .select('id, identifier_canonical, body, updated_at, hidden_at, hidden_reason')
        .eq('user_id', userId!)
        .limit(200);
      if (error) throw error;
      return data;
    },
  });
}

/** The canonical identifiers the caller watches (Notify Me). */
export function useWatched(userId: string | undefined) {
  return useQuery({
    queryKey: ownershipKeys.watched(userId),
    enabled: !!userId,
    queryFn: async (): Promise<Set<string>> => {
      const { data, error } = await supabase
        .from('notify_registrations')
        .select('identifier_canonical')
        .eq('user_id', userId!)
        .limit(1000);
      if (error) throw error;
      return new Set(data.map((r) => r.identifier_canonical));
    },
  });
}

function useInvalidating<TVars, TResult>(fn: (v: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownershipKeys.all }),
  });
}

async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await (
    supabase.rpc as unknown as (
      n: string,
      a: Record<string, unknown>,
    ) => Promise<{ data: unknown; error: { message: string } | null }>
  )(name, args);
  if (error) throw error;
  return data as T;
}

/** The number in the E.164 form Auth and the proofs use, or null when it is no mobile number. */
export function phoneE164(value: string): string | null {
  const c = canonicalIdentifier('mobile', value);
  return c && /^\+\d{8,15}$/.test(c) ? c : null;
}

/** SMS: Auth texts a code to the number (updateUser({ phone })), as GoTrue's phone change does. */
export function useSendSmsCode() {
  return useMutation({
    mutationFn: async (phone: string) => {
      const { error } = await supabase.auth.updateUser({ phone });
      if (error) throw error;
    },
  });
}

/** SMS: the code confirms the number (phone_change), then the proof is recorded for the identifier. */
export function useConfirmSmsCode() {
  return useInvalidating(async (v: { phone: string; token: string; kind: 'mobile' | 'ewallet' }) => {
    const { error } = await supabase.auth.verifyOtp({ phone: v.phone, token: v.token, type: 'phone_change' });
    if (error) throw error;
    return rpc<unknown>('claim_phone_ownership', { kind: v.kind, value: v.phone });
  });
}

export function useStartEmailProof() {
  return useInvalidating((email: string) =>
    invokeFunction<{ proof: { id: string } }>('ownership', { action: 'email', email }),
  );
}

export function useResendEmailCode() {
  return useInvalidating((proof: string) => invokeFunction('ownership', { action: 'email', proof }));
}

export function useVerifyEmailCode() {
  return useInvalidating(async (v: { proof: string; code: string }) => {
    const answer = await rpc<{ error?: string }>('verify_ownership_code', {
      proof_id: v.proof,
      code: v.code,
    });
    if (answer.error === 'wrong_code') throw new Error('ownership.errors.wrongCode');
    return answer;
  });
}

export function useStartWebsiteProof() {
  return useInvalidating((v: { website: string; method: 'dns' | 'wellknown' }) =>
    invokeFunction<{ proof: { id: string } }>('ownership', { action: 'website', ...v }),
  );
}

export function useCheckWebsite() {
  return useInvalidating((proof: string) =>
    invokeFunction<{ ok: boolean; detail: string }>('ownership', { action: 'check', proof }),
  );
}

/** A social or chat account: a code for its public bio (then "Check now", or evidence for review). */
export function useStartSocialProof() {
  return useInvalidating((account: string) =>
    invokeFunction<{ proof: { id: string }; automatic: boolean }>('ownership', { action: 'social', account }),
  );
}

/** The owner's evidence for an admin's review, newest first (RLS: their own). */
export type MyEvidence = Pick<
  Tables<'ownership_evidence'>,
  'id' | 'proof_id' | 'created_at' | 'decision' | 'decided_at' | 'reason'
>;

export function useMyEvidence(userId: string | undefined) {
  return useQuery({
    queryKey: ownershipKeys.evidence(userId),
    enabled: !!userId,
    queryFn: async (): Promise<MyEvidence[]> => {
      const { data, error } = await supabase
        .from('ownership_evidence')
        .select('id, proof_id, created_at, decision, decided_at, reason')
        .eq('user_id', userId!)
        .order('created_at', { ascending: false })
        .limit(200);
      if (error) throw error;
      return data;
    },
  });
}

export const NOTE_MAX = 1000;

/** Evidence: a link to the account itself (the database checks it names the account), a screenshot, a note. */
export const evidenceSchema = z.object({
  profileUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/\S+$/i, { message: 'ownership.social.errors.link' })
    .max(500, { message: 'ownership.social.errors.link' }),
  note: z.string().trim().max(NOTE_MAX, { message: 'ownership.social.errors.noteLong' }),
});
export type EvidenceInput = z.infer<typeof evidenceSchema>;

/** Uploads the screenshot (if any) through upload-image, then sends the evidence for review. */
export function useSubmitEvidence() {
  return useInvalidating(async (v: EvidenceInput & { proof: string; screenshot: File | null }) => {
    const imagePath = v.screenshot ? await uploadImage('evidence', v.screenshot) : null;
    return rpc('submit_ownership_evidence', {
      proof_id: v.proof,
      profile_url: v.profileUrl.trim(),
      image_path: imagePath,
      note: v.note.trim() || null,
    });
  });
}

export function useWithdrawProof() {
  return useInvalidating((proof: string) => rpc('withdraw_ownership_proof', { proof_id: proof }));
}

/** Statements: 1 to 500 characters and no links (public.set_owner_statement's own rules). */
export const STATEMENT_MAX = 500;
const LINK =
  /([a-z][a-z0-9+.-]*:\/\/|www[.]|[^\s@]+@[^\s@]+[.][a-z]|[\p{L}\p{N}-][.](com|net|org|ph|io|co|info|biz|xyz|me|app|site|online|shop|top|link|ly|gl|to|cc|us|uk|asia|gov|edu|dev|page)([^\p{L}]|$))/iu;

export function hasLink(text: string): boolean {
  return LINK.test(text);
}

export const statementSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, { message: 'ownership.statement.errors.empty' })
    .max(STATEMENT_MAX, { message: 'ownership.statement.errors.long' })
    .refine((v) => !hasLink(v), { message: 'ownership.statement.errors.link' }),
});
export type StatementInput = z.infer<typeof statementSchema>;

export function useSetStatement() {
  return useInvalidating((v: { identifier: string; body: string }) =>
    rpc('set_owner_statement', { identifier: v.identifier, body: v.body.trim() }),
  );
}

export function useWatchOwned() {
  return useInvalidating((identifier: string) => rpc('watch_owned_identifier', { identifier }));
}

/** A report on an owned identifier, as public.owned_identifier_reports lists it (jsonb of report columns). */
export type OwnedReport = Pick<Tables<'reports'>, 'id' | 'incident_type' | 'status' | 'created_at'>;

export function useOwnedReports(identifier: string, enabled: boolean) {
  return useQuery({
    queryKey: ownershipKeys.reports(identifier),
    enabled,
    queryFn: () => rpc<OwnedReport[]>('owned_identifier_reports', { identifier }),
  });
}

export const ownerRemovalSchema = z.object({
  reportId: z.string().uuid({ message: 'removal.form.chooseReport' }),
  reason: z
    .string()
    .trim()
    .min(10, { message: 'removal.form.reasonShort' })
    .max(5000, { message: 'removal.form.reasonLong' }),
});
export type OwnerRemovalInput = z.infer<typeof ownerRemovalSchema>;

export function useOwnerRemoval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: OwnerRemovalInput) =>
      rpc<string>('owner_request_removal', { report_id: v.reportId, reason: v.reason.trim() }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['removal-requests'] }),
  });
}
