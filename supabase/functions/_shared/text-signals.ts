/**
 * Text signals of the message check (issue 30): what the words of a message say, read as named rules
 * with their phrases in tables (English, Filipino and Taglish), not a black box. Each rule that fires is
 * shown in the verdict with the words that triggered it. The tables are written from the public
 * advisories' descriptions of each scam type (prize and raffle, task jobs, loans, account suspension,
 * OTP/PIN requests, pressure and secrecy, "new number", wrong-send refunds, parcel fees, investment
 * returns, moves to chat apps) and measured on supabase/tests/check-message-heldout.ts
 * (docs/message-check.md).
 *
 * A phrase is a regular expression source over the message as folded by foldText (lowercase, accents
 * dropped, white space collapsed, curly quotes straight); it matches as whole words. The phrases use only
 * literal words, alternations and bounded gaps, so matching stays linear in the text.
 *
 * Pure TypeScript (no Deno or Node APIs).
 */

export type TextSignalCode =
  | 'prize'
  | 'job-offer'
  | 'loan-offer'
  | 'advance-fee'
  | 'account-threat'
  | 'credentials-request'
  | 'pressure'
  | 'secrecy'
  | 'new-number'
  | 'family-emergency'
  | 'wrong-send'
  | 'parcel-fee'
  | 'investment-returns'
  | 'move-to-chat'
  | 'legal-threat';

export interface TextRule {
  code: TextSignalCode;
  severity: 'high' | 'medium';
  /** A short explanation in plain words (English; the app words it in the reader's language). */
  message: string;
  phrases: string[];
  /** When set, a match preceded by a negation ("never", "do not", "huwag") does not count. */
  negatable?: boolean;
  /** When set, the rule counts only if this other rule's phrases are found too (both are shown). */
  requires?: { name: string; phrases: string[] };
}

/** Words before a phrase that turn it into advice ("Never share your OTP", "Huwag ibigay ang PIN"). */
const NEGATION =
  /(never|do not|don't|dont|will not|won't|not|no one|huwag|wag|hindi|kailanman|bawal)\b[^.!?\n]{0,24}$/;

const MONEY_REQUEST = [
  'send',
  'pa ?send',
  'paki ?send',
  'paki-send',
  'padala',
  'pakipadala',
  'ipadala',
  'transfer',
  'gcash ko',
  'maya ko',
  'pahiram',
  'makahiram',
  'hiram',
  'pautang',
  'load',
  'pa-load',
  'pasaload',
  'bayad',
  'money',
  'pera',
  'padalhan',
  'humiram',
  'gcash me',
];

export const TEXT_RULES: TextRule[] = [
  {
    code: 'credentials-request',
    severity: 'high',
    message:
      'The message asks for a one-time code, PIN, password or card details. Banks, e-wallets and agencies never ask for these.',
    negatable: true,
    phrases: [
      '(send|give|share|provide|reply with|enter|input|type|confirm|forward|ilagay|ibigay|i-?send|isend|i-?reply|i-?type|i-?forward|i-?text|itext)( (us|me|to us|the|your|ang|mo|iyong|yung|sa amin|po|na))*( [a-z0-9-]+){0,3} (otp|one[- ]time (pin|password|code)|mpin|pin|password|passcode|[0-9]-digit code|verification code|code we sent|code na (na)?tanggap|cvv|card expiry|expiry date|card number)',
      '(otp|mpin|pin|password|cvv)( [a-z]+){0,3} (to|sa) (us|me|this number|numerong ito|agent)',
      '(need|needs|require|requires|kailangan)( [a-z0-9-]+){0,4} (otp|mpin|pin|password|passcode|[0-9]-digit code|verification code|code sent|cvv)',
      'reply with (it|the code)',
    ],
  },
  {
    code: 'prize',
    severity: 'medium',
    message:
      'It says you won a prize or were picked for a reward. Real raffles do not ask winners to pay or message an agent.',
    phrases: [
      'you (have )?won',
      "you've won",
      'winner',
      'won (p|php)',
      'nanalo( ka)?',
      'napili ka',
      'ikaw ay napili',
      'selected as',
      'raffle',
      'grand prize',
      '[0-9a-z]+ prize',
      'premyo',
      'unclaimed (reward|prize)',
      'claim your (prize|reward|voucher)',
      'to claim',
      'para (ma-?claim|makuha)',
      'i-?claim',
      'voucher worth',
      'chosen for a',
      'giveaway',
      'reward points',
      'napanalunan',
    ],
  },
  {
    code: 'job-offer',
    severity: 'medium',
    message:
      'It offers easy work for big pay (tasks, likes, order boosting). Such "jobs" end with you paying to withdraw.',
    phrases: [
      'part[- ]time( online)? job',
      'online job',
      'work from home',
      'like and follow',
      'order boost(er|ers|ing)',
      'commission per task',
      'per task',
      'task(s)? (job|online)',
      'daily (income|payout|salary|sahod)',
      'payout daily',
      'no experience needed',
      'walang experience',
      '(p|php)? ?[0-9,]+ ?(-|to) ?(p|php)? ?[0-9,]+ (daily|a day|per day)',
      '(p|php) ?[0-9,]+ ?(/|per |a )(day|hr|hour|araw)',
      'kumita ng',
      'kikita ng',
      'kumikita ako',
      'hiring kami',
      'we are hiring',
      'is hiring',
    ],
  },
  {
    code: 'loan-offer',
    severity: 'medium',
    message:
      'It offers a loan you did not ask for, or one that needs a fee first. Lenders do not collect fees before the loan.',
    phrases: [
      'loan (is )?approved',
      'approved (for a )?loan',
      'aprubado na ang (iyong )?loan',
      'pre-?approved',
      'instant loan',
      'cash loan',
      '(walang|no|without) collateral',
      'loan na (p|php)',
      'para sa (p|php) ?[0-9,]+ loan',
      '(p|php) ?[0-9,]+ loan',
      'loan application',
      'limit increase',
      'pautang',
      'utang agad',
      'loan approval',
      '(walang|no) requirements',
    ],
  },
  {
    code: 'advance-fee',
    severity: 'medium',
    message:
      'It asks for a fee before you get money, a job or a service (processing, release, reservation fee).',
    negatable: true,
    phrases: [
      '(processing|release|reservation|activation|clearance|rebooking|insurance|membership|placement) fee',
      'customs fee',
      'withdrawal fee',
      '(tax|fee|bayad) (para|bago|before|to) (ma-?withdraw|withdraw|makuha)',
      '(para|bago|before|to) (ma-?withdraw|withdraw)( [a-z,]+){0,4} (tax|fee|bayad|kailangan)',
      'settle (p|php) ?[0-9,]+',
      'pay the (p|php) ?[0-9,]+',
      'magbayad (lang )?ng (p|php)? ?[0-9,]*',
    ],
  },
  {
    code: 'account-threat',
    severity: 'medium',
    message:
      'It says your account, card, SIM or service will be locked, suspended or cut off unless you act. Check in the official app instead.',
    phrases: [
      '(account|card|access|line|sim|iaccess|service|wallet)( [a-z]+){0,4} (has been|was|is|will be) (temporarily )?(suspended|deactivated|blocked|locked|restricted|disabled|closed|terminated|cancelled|on hold)',
      '(suspended|deactivated|blocked|locked|restricted) (due to|because)',
      'permanent suspension',
      'to avoid (suspension|deactivation|interruption|disconnection)',
      'na-?hold ang account',
      'naka-?hold',
      'ma-?(lock|block|deactivate|suspend)',
      'mapuputol',
      'maputulan',
      'disconnection notice',
      'will expire today',
      'expire(s|d)? today',
      'expired na',
      're-?verification',
      'incomplete verification',
      'unusual (activity|login)',
      'verify (now|your account|your identity)',
      'i-?verify (agad|na|ang)',
      'mag-?verify',
      'update your (details|information|billing)',
      'update now',
      'record is incomplete',
      'will be (forfeited|banned)',
      'failed logins',
      'unsettled',
      'flagged for',
      'payment failed',
      'needs re-?verification',
      'to restore',
      'restore (it|access)',
      'reactivate',
      'will be (deleted|removed|disabled)',
      'violated our (policies|community standards|terms)',
    ],
  },
  {
    code: 'pressure',
    severity: 'medium',
    message: 'It rushes you (a deadline of hours, "today only", "immediately") so you act before checking.',
    phrases: [
      'within [0-9]+ ?(hours|hrs|minutes|mins)',
      'today only',
      'ngayong araw (lang|na)?',
      'ngayon din',
      'immediately',
      'right away',
      'agad',
      'asap',
      'urgent',
      'last chance',
      'slots are limited',
      'limited slots',
      'limited stocks',
      'before (midnight|friday|it expires|they expire)',
      'bago mag-?midnight',
      'hanggang mamaya',
      'mamayang [0-9]+',
      'expire(s)? today',
      'before [0-9:]+ ?(am|pm)',
      'until tonight',
      'act now',
    ],
  },
  {
    code: 'secrecy',
    severity: 'medium',
    message: 'It asks you to keep it secret. Scammers do this so no one can warn you.',
    phrases: [
      'keep this (confidential|secret|between us)',
      "(don't|do not) tell (anyone|anybody|your)",
      'between us',
      '(huwag|wag)( mo)?( munang| mong)? (sabihin|ipaalam|tawagan)',
      'atin-?atin lang',
      'secret lang',
      'sikreto',
    ],
  },
  {
    code: 'new-number',
    severity: 'medium',
    message:
      'Someone says this is their new number and asks for money. Call the old number or meet them before you send anything.',
    phrases: [
      'new number',
      'bagong number',
      'bago kong (number|numero)',
      'bagong numero',
      'nasira (yung|ang) phone',
      'lost my (phone|sim)',
      'changed my number',
      'nawala (yung|ang) (phone|sim)',
    ],
    requires: { name: 'asks for money', phrases: MONEY_REQUEST },
  },
  {
    code: 'family-emergency',
    severity: 'medium',
    message:
      'Someone close to you is said to be in an emergency and needs money now. Call them or another relative on a number you already know first.',
    phrases: [
      'emergency',
      'nasa ospital',
      'na-?ospital',
      'in the hospital',
      'naaksidente',
      'had an accident',
      'naiwan ko (ang|yung) wallet',
      'nakulong',
      'hinuli',
      'kidnap',
    ],
    requires: { name: 'asks for money', phrases: MONEY_REQUEST },
  },
  {
    code: 'wrong-send',
    severity: 'medium',
    message:
      'Someone says they sent you money by mistake and asks for it back. Check your own balance in the app; refunds go through the e-wallet, not to a number they give.',
    phrases: [
      'sent( you)?( p| php)?( ?[0-9,]+)?( to your [a-z]+)? by mistake',
      'wrong (send|sent|transfer)',
      'napadala ko',
      'nagkamali (ako )?(ng|sa) (send|padala)',
      'mali (ang|yung) napadala',
      'send it back',
      'pakibalik',
      'ibalik (mo|nyo|niyo)',
      'return the money',
      'refund it',
    ],
  },
  {
    code: 'parcel-fee',
    severity: 'medium',
    message:
      'It says a parcel is held until you pay a fee. Couriers show fees in their own app or at the door.',
    phrases: [
      '(redelivery|re-delivery|customs|shipping|delivery|storage) fee',
      'held (at|in|by) customs',
      'package is held',
      '(naka-?hold|held) (ang )?(package|parcel)',
      'parcel could not be delivered',
      'incomplete address',
      'pay (p|php) ?[0-9,]+ shipping',
      'sa customs',
      'confirm delivery',
    ],
  },
  {
    code: 'investment-returns',
    severity: 'medium',
    message: 'It promises large or guaranteed returns. Real investments never guarantee profit.',
    phrases: [
      'guaranteed (returns|profit|income)',
      'sure profit',
      '100% legit',
      'double your',
      '[0-9]+% (monthly|daily|weekly)',
      '(monthly|daily) returns',
      '(invest|mag-?invest)( ng)? (p|php|usdt|\\$) ?[0-9,]+',
      'earn (p|php|usdt|\\$) ?[0-9,]+ in',
      'trading bot',
      'mining pool',
      'invest in our',
      'turn (p|php|\\$|usdt) ?[0-9,]+ into',
      '[0-9]+x (ang balik|return|returns|profit|your money)',
      'paluwagan',
      'receive( [0-9.]+)?( [a-z]+){0,2} back',
      'proof of payouts?',
      'passive income',
      'crypto trading',
      'easy money',
      '(kikita|kita) ng (p|php) ?[0-9,]+ sa loob',
      'withdraw anytime',
      'vip group',
    ],
  },
  {
    code: 'move-to-chat',
    severity: 'medium',
    message:
      'It moves you to a private chat (Telegram, WhatsApp, Viber), where no one can warn you and chats disappear.',
    phrases: [
      '(message|chat|contact|add|pm|dm|text|reach|i-?message|imessage|mag-?message|i-?chat)( [a-z@.]+){0,4} (on|sa|via|thru|through) (telegram|whatsapp|viber|signal)',
      '(telegram|whatsapp|viber) (@|\\+|t\\.me|wa\\.me)',
      '(chat|add) (me|us|with [a-z]+) on',
      'message (our|my) (agent|coach|hr|admin)',
      'on telegram t\\.me',
      'wa\\.me/',
      'join our (vip )?(group|channel)',
      'join na',
    ],
  },
  {
    code: 'legal-threat',
    severity: 'medium',
    message: 'It threatens arrest, a case or a penalty. Agencies do not settle cases by text or e-wallet.',
    phrases: [
      'warrant',
      'arrest',
      'tax evasion',
      '(file|filed|filing) (a )?case',
      'kaso(ng)?',
      'penalty',
      'multa',
      'violation',
      'cybercrime unit',
    ],
  },
];

/** The message as rules read it: lowercase, accents dropped, curly quotes straight, white space collapsed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ');
}

export interface TextSignal {
  code: TextSignalCode;
  severity: 'high' | 'medium';
  message: string;
  /** The words that triggered it, as found in the (folded) message. */
  matched: string[];
}

/**
 * The folded message with every letter or digit outside ASCII written as 'a' (one per UTF-16 unit, so
 * indexes stay those of the folded text). Phrases are ASCII and their edges are checked against
 * [a-z0-9] here, so no rule needs a Unicode property class: V8 compiles a \p{L} lookbehind slowly, and
 * some 240 of them took 200-400 ms on a page's first check (the main thread's longest task).
 */
function asciiMask(folded: string): string {
  return folded.replace(/[\p{L}\p{N}]/gu, (c) => (c < '\u0080' ? c : 'a'.repeat(c.length)));
}

const compiled = new Map<string, RegExp>();
function phraseRegExp(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    re = new RegExp(`(?<![a-z0-9])(?:${source})(?![a-z0-9])`, 'g');
    compiled.set(source, re);
  }
  re.lastIndex = 0;
  return re;
}

function findPhrases(folded: string, mask: string, phrases: string[], negatable: boolean): string[] {
  const found: string[] = [];
  for (const source of phrases) {
    for (const m of mask.matchAll(phraseRegExp(source))) {
      if (negatable && NEGATION.test(folded.slice(Math.max(0, m.index - 40), m.index))) continue;
      const words = folded.slice(m.index, m.index + m[0].length);
      if (!found.includes(words)) found.push(words);
      break;
    }
    if (found.length >= 3) break;
  }
  return found;
}

/** Every text rule the message triggers, each with the words that triggered it. */
export function textSignals(text: string, rules: TextRule[] = TEXT_RULES): TextSignal[] {
  const folded = foldText(typeof text === 'string' ? text : '');
  const mask = asciiMask(folded);
  const out: TextSignal[] = [];
  for (const rule of rules) {
    const matched = findPhrases(folded, mask, rule.phrases, rule.negatable ?? false);
    if (matched.length === 0) continue;
    if (rule.requires) {
      const also = findPhrases(folded, mask, rule.requires.phrases, false);
      if (also.length === 0) continue;
      matched.push(...also.filter((w) => !matched.includes(w)));
    }
    out.push({ code: rule.code, severity: rule.severity, message: rule.message, matched });
  }
  return out;
}
