/**
 * Auth helpers for ScamCheck's tests (supabase-js clients, the e-mails and texts the stack's sinks
 * received): the stack's public test helpers, under the name the product's tests import.
 */
export {
  anonClient,
  authInstance,
  codeIn,
  confirmedUser,
  jwtPayload,
  latestMail,
  linkIn,
  mailsTo,
  serviceClient,
  shapeOf,
  smsCode,
  smsTo,
  uniqueEmail,
  type SentMail,
  type SentSms,
} from '@scamcheck/local-supabase/testing';
