/**
 * Text signals of the message check (issue 30): what the words of a message say, read as named rules
 * with their phrases in tables (English, Filipino and Taglish), not a black box. Each rule that fires is
 * shown in the verdict with the words that triggered it. The tables are written from the public
 * advisories' descriptions of each scam type (prize and raffle, task jobs, loans, account suspension,
 * OTP/PIN requests, pressure and secrecy, "new number", wrong-send refunds, parcel fees, investment
 * returns, moves to chat apps, fake government aid, romance) and measured on the development corpora
 * and, once, on the held-out corpus supabase/tests/check-message-heldout.ts (docs/message-check.md).
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
  | 'legal-threat'
  | 'government-aid'
  | 'romance';

/** Phrases that count only together with others: every set named must be found too (all are shown). */
export interface Requirement {
  name: string;
  phrases: string[];
  /** When set, a match preceded by a negation does not count ("Never pay placement fees"). */
  negatable?: boolean;
}

export interface TextRule {
  code: TextSignalCode;
  severity: 'high' | 'medium';
  /** A short explanation in plain words (English; the app words it in the reader's language). */
  message: string;
  /** Phrases that fire the rule on their own (unless `requires` is set). */
  phrases: string[];
  /** When set, a match preceded by a negation ("never", "do not", "huwag") does not count. */
  negatable?: boolean;
  /** When set, the rule counts only if each of these sets of phrases is found too (all are shown). */
  requires?: Requirement[];
  /** Phrases too common alone that fire the rule with each of `with`'s sets ("delivery failed" + a fee). */
  weak?: { phrases: string[]; with: Requirement[] };
  /**
   * An amplifier (pressure, secrecy): a deadline or "don't tell anyone" is a scam's tool but also an
   * ordinary message's (a bank's "call us immediately", a surprise party), so the rule is shown only
   * beside another text rule, or alone when each of `alone`'s sets is found too.
   */
  amplifier?: { alone: Requirement[] };
}

/**
 * A loan verb with the Filipino affixes Taglish puts on it: mag-/nag-/i-/ma-/na-/pa-/paki-/maka-
 * with or without the hyphen and the reduplicated syllable of the future ("ise-send", "mave-verify",
 * "made-deactivate"), and -in/-hin/-an ("i-verify", "verify-hin"). `roots` is an alternation.
 */
export function affixed(roots: string): string {
  return `(?:(?:mag|nag|pag|i|ipa|ma|na|mai|nai|pa|paki|maka|naka|mapa|napa)-?(?:[a-z]{1,3}-?)?)?(?:${roots})(?:-?h?(?:in|an))?`;
}

/** Words before a phrase that turn it into advice ("Never share your OTP", "Huwag ibigay ang PIN"). */
const NEGATION =
  /(never|do not|don't|dont|will not|won't|not|no one|huwag|wag|hindi|kailanman|bawal)\b[^.!?\n]{0,24}$/;

/** Someone asks for money: send it, lend it, load it (English, Filipino, Taglish). */
const MONEY_REQUEST: Requirement = {
  name: 'asks for money',
  phrases: [
    affixed('send|padala|transfer|gcash|maya|load|remit|hiram|utang|bayad'),
    'padalhan',
    'pahiram',
    'makahiram',
    'humiram',
    'pautang',
    'pasaload',
    'money',
    'pera',
    'cash',
    'gcash (ko|me|mo)',
    'maya ko',
    'kailangan (ko|namin|niya|nya) (po )?(ng|ang|yung)( [a-z]+)? ((p|php) ?[0-9][0-9,]*|pera|pambayad|pang-?[a-z]+)',
    'need ((p|php) ?[0-9][0-9,]*|money|cash|[0-9,]+)',
    'pang-?(areglo|piyansa|bail|hospital|ospital|pamasahe|gamot|bayad)',
    'pamasahe',
    'pambayad',
    'piyansa',
    'bail',
    '(western union|palawan|cebuana|mlhuillier)',
  ],
};

/** Asking to borrow: the relative who "needs it back tomorrow" and asks you to keep it quiet. */
const BORROWING: Requirement = {
  name: 'asks to borrow',
  phrases: [
    affixed('hiram|utang'),
    'pahiram',
    'makahiram',
    'humiram',
    'pautang',
    'borrow',
    'lend me',
    'ibabalik ko',
    "(i'll|i will) (pay|give) (you )?(it )?back",
  ],
};

/** Asking to send or pay an amount: "send P100", "magbayad ng P500", "i-GCash ang 1,000". */
const MONEY_ASK: Requirement = {
  name: 'asks for an amount',
  phrases: [
    `(send|pay|transfer|deposit|settle|${affixed('send|bayad|padala|gcash|maya|transfer|deposit')}|bayaran|ipadala)( [a-z]+){0,3} (p|php|\\u20b1) ?[0-9][0-9,.]*`,
    'pay now',
  ],
};

/** An amount of money or a wallet: what a refund or a fee is about. */
const MONEY_CONTEXT: Requirement = {
  name: 'money',
  phrases: [
    '(p|php|\\u20b1) ?[0-9][0-9,.]*',
    '[0-9][0-9,.]* ?(pesos|php)',
    'pera',
    'money',
    'gcash',
    'maya',
    'e-?wallet',
    'balance',
    'load',
    'bank account',
  ],
};

/** Paying something: a fee, duties, "magbayad". */
const PAYMENT: Requirement = {
  name: 'a payment',
  phrases: [
    'pay',
    'paying',
    'payment',
    'fee',
    'fees',
    'duties',
    'charges?',
    affixed('bayad|bayaran'),
    'babayaran',
    'settle',
  ],
};

/** Acting on the message: registering, tapping a link, sending details. */
const ACTION: Requirement = {
  name: 'asks you to act',
  phrases: [
    affixed('register|click|claim|apply|fill ?(up|out)|update|verify|submit'),
    'register (at|here|now|sa|online|through|thru)',
    'click',
    'pindutin',
    'ilagay',
    'sagutan',
    'send (your|us|the)',
    'ipadala (ang|mo|nyo|niyo)',
    'pay',
    'magbayad',
    'message (us|me|our)',
    'chat (us|me|with)',
  ],
};

const CREDENTIAL_OBJECTS =
  '(otp|one[- ]time (pin|password|passcode|code)|mpin|pin( code)?|password|passcode|[0-9]-digit (code|pin)|(verification|authentication|security|login|confirmation|activation) code|code (we|you|na|that|sent|received|natanggap|dumating|matatanggap|napadala|pinadala|sinend|na-?receive)|cvv|cvc|card expiry|expiry date|card (number|details)|online banking (details|credentials|username)|login (details|credentials)|username and password|seed phrase|recovery phrase|private key)';

export const TEXT_RULES: TextRule[] = [
  {
    code: 'credentials-request',
    severity: 'high',
    message:
      'The message asks for a one-time code, PIN, password or card details. Banks, e-wallets and agencies never ask for these.',
    negatable: true,
    phrases: [
      `(send|give|giving|share|sharing|provide|providing|reply with|replying with|enter|entering|input|type|confirm|forward|tell|read|screenshot|${affixed('send|reply|type|forward|text|share|screenshot|bigay|lagay|pasa|sabi|basa|padala|provide|confirm|enter|input')}|ilagay|ibigay|ibinigay|sabihin|basahin|ipasa|ipadala)( (us|me|to us|the|your|ang|mo|nyo|niyo|iyong|inyong|yung|sa amin|po|na|lang|naman|ng))*( [a-z0-9-]+){0,3} ${CREDENTIAL_OBJECTS}`,
      '(otp|mpin|pin|password|cvv|code)( [a-z]+){0,3} (to|sa) (us|me|this number|numerong ito|agent|our agent|aming agent)',
      `(need|needs|require|requires|required|kailangan)( [a-z0-9-]+){0,4} ${CREDENTIAL_OBJECTS}`,
      'reply with (it|the code)',
      'code (by mistake|nang mali|na mali)',
      '(send|forward|ibalik|pabalik|back)( [a-z]+){0,2} (yung|ang|the) (code|otp)',
      '(ano|what) (po )?(is |ang |yung |ung |was )?(the |your )?(otp|mpin|code na (dumating|natanggap|pinadala|napadala|sinend|na-?receive))',
    ],
  },
  {
    code: 'prize',
    severity: 'medium',
    message:
      'It says you won a prize, were picked for a reward or have money waiting. Real raffles and refunds do not ask you to pay, message an agent or give details.',
    phrases: [
      'you (have )?won',
      "you've won",
      'winner',
      'won (p|php) ?[0-9][0-9,.]*',
      'winnings',
      '(number|sim|account) (has )?won',
      'claims? officer',
      'nanalo',
      'napanalunan',
      'pinalad',
      '(maswerte|masuwerte|swerte|suwerte)(ng)? (winner|nanalo|napili|customer|subscriber)',
      'napili ka',
      'ikaw ay napili',
      '(you|account|number|sim)( [a-z]+)? (are|is|was|were|have been|has been) (selected|chosen|picked)',
      'selected as',
      'chosen for a',
      'chosen as (a|the|our) (winner|recipient|beneficiary)',
      'lucky (winner|winners|customer|customers|shopper|shoppers|subscriber|subscribers|participant|user|users)',
      'raffle',
      'grand prize',
      '[0-9a-z]+ prize',
      'spin (the wheel|and win|to win)',
      'premyo',
      'cash (reward|prize|gift)',
      'unclaimed (reward|rewards|prize|refund|benefits?|funds|balance)',
      'claim your (prize|reward|voucher|gift|refund|cash)',
      'to claim',
      'para (ma-?claim|makuha|ma-?redeem)',
      'i-?claim',
      'voucher worth',
      'giveaway',
      'reward points',
      'points (worth|equivalent|convertible)',
      'convert (your )?points',
      'points (to|into) cash',
      '(unused|unredeemed|expiring) (points|rewards|vouchers)',
      '(free|complimentary) (iphone|gift|cellphone|laptop|motorcycle|upgrade)',
      'brand new (iphone|car|motorcycle|laptop|cellphone)',
      'overpayment',
      'excess payment',
    ],
  },
  {
    code: 'job-offer',
    severity: 'medium',
    message:
      'It offers easy work for big pay (tasks, likes, order boosting) or a job abroad through a chat or a fee. Such "jobs" end with you paying.',
    phrases: [
      'part[- ]time( online)? job',
      'online job',
      'work from home',
      'like and follow',
      'order boost(er|ers|ing)',
      'commission per task',
      'per task',
      'task(s)? (job|online)',
      'app task',
      '(simple|easy) (tasks|orders|missions|jobs)',
      'complete( [a-z]+){0,2} (tasks|orders|missions)',
      '[0-9.]+% commission',
      'commission (each|per|daily)',
      'daily (income|payout|salary|sahod)',
      'payout daily',
      'no experience needed',
      'walang experience',
      'walang puhunan',
      '(p|php)? ?[0-9,]+ ?(-|to) ?(p|php)? ?[0-9,]+ (daily|a day|per day)',
      '(p|php) ?[0-9,]+ ?(/|per |a )(day|hr|hour|araw|week|video|like|task)',
      '(paying|pays|earn|earning) (p|php) ?[0-9,]+ (for|per|every|daily|weekly|a day|a week)',
      'for every [0-9]+ (videos|likes|posts|reviews|tasks)',
      '(kumita|kikita|kumikita) ng',
      'kumikita ako',
      'we are hiring',
      'is hiring',
      'pwede (kahit|ang) (estudyante|student)',
    ],
    weak: {
      // A job abroad is an ordinary hope (and the DMW's own advisories speak of it): it counts when the
      // offer comes with a fee or a private chat.
      phrases: [
        '(job|jobs|work|trabaho) (abroad|overseas|sa abroad|sa ibang bansa)',
        '(seaman|seafarer|caregiver|factory worker|farm worker|hotel staff|hiring|vacancy|vacancies)s? (job|jobs|work|position|vacancy|vacancies|sa|in|for) (abroad|canada|japan|australia|new zealand|taiwan|korea|dubai|saudi|qatar|uk|usa|europe|poland|germany)',
        '(seaman|seafarer|caregiver|factory worker|farm worker)s? (job|jobs|position|vacancy|vacancies)',
        'direct hire',
        'visa (processing|assistance|sponsorship)',
        'we can process your',
        'hiring kami',
      ],
      with: [
        {
          name: 'a fee or a private chat',
          negatable: true,
          phrases: [
            '(processing|placement|reservation|medical|visa|training|booking) fees?',
            'just pay',
            'pay (p|php) ?[0-9][0-9,.]*',
            '(p|php) ?[0-9,]+ (for|para sa) (the )?(processing|medical|visa|papers|documents|slot)',
            '(telegram|whatsapp|viber|wechat)',
            'gcash',
          ],
        },
      ],
    },
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
      '(instant|fast|quick|easy) (loan|cash)',
      'cash loan',
      'need (cash|money)( fast| now| agad)?\\?',
      'no credit check',
      'low interest',
      'mababang interes',
      '(walang|no|without) collateral',
      'loan na (p|php) ?[0-9][0-9,.]*',
      'para sa (p|php) ?[0-9,]+ loan',
      '(p|php) ?[0-9,]+ loan',
      'up to (p|php) ?[0-9,]+( [a-z]+)? (loan|cash)',
      'loan (app|offer)',
      'loanable amount',
      'limit increase',
      'pautang',
      'utang agad',
      'loan approval',
      '(walang|no) requirements',
      'mabilis na (loan|pautang|cash)',
    ],
  },
  {
    code: 'advance-fee',
    severity: 'medium',
    message:
      'It asks for a fee before you get money, a job or a service (processing, release, reservation fee).',
    negatable: true,
    phrases: [
      '(processing|release|reservation|activation|clearance|rebooking|insurance|membership|placement|handling|verification|documentation|unlocking) fee',
      'customs fee',
      'withdrawal fee',
      '(tax|fee|bayad) (para|bago|before|to) (ma-?withdraw|withdraw|makuha)',
      '(para|bago|before|to) (ma-?withdraw|withdraw)( [a-z,]+){0,4} (tax|fee|bayad|kailangan)',
      'settle (p|php) ?[0-9,]+',
      'pay the (p|php) ?[0-9,]+',
      'just pay',
      'magbayad (lang |muna )?ng (p|php)? ?[0-9,]*',
      '(magbayad|bayaran|magbigay) muna',
      '(fee|bayad) muna',
      // Fake sellers: pay before the item ships, no cash on delivery.
      '(down ?payment|full payment|payment|bayad) (first|muna|before (shipping|delivery|we ship))',
      'pay first',
      '(no|walang|hindi( pwede)?( ang)?) cod',
      'cod (is )?not available',
      '(gcash|maya|bank transfer) only',
      '(para|to) (ma-?reserve|reserve)( [a-z]+){0,2} (slot|item|unit|order|tickets?)',
    ],
  },
  {
    code: 'account-threat',
    severity: 'medium',
    message:
      'It says your account, card, SIM or service will be locked, suspended or cut off, or must be verified, unless you act. Check in the official app instead.',
    phrases: [
      '(account|card|access|line|sim|iaccess|service|wallet|profile|license|registration|number|benefits|pension|subscription|membership|id)( [a-z]+){0,4} (has been|was|is|are|will be|would be|is being|is now|ay) (temporarily |permanently |automatically )?(suspended|deactivated|blocked|locked|restricted|disabled|closed|terminated|cancelled|revoked|frozen|on hold|forfeited|deleted)',
      '(suspended|deactivated|blocked|locked|restricted) (due to|because)',
      'permanent (suspension|deactivation)',
      'to avoid (suspension|deactivation|interruption|disconnection|blocking|being blocked|account closure|penalties|revocation)',
      'na-?hold ang account',
      'naka-?hold',
      `${affixed('lock|block|deactivate|suspend|freeze|disable|terminate|revoke')} (ang|yung|ng|na|po|ang iyong|ang inyong) (account|card|sim|wallet|number|linya|line|profile)`,
      'ma-?(lock|block|deactivate|suspend|freeze)',
      '(mabablock|mabo-?block|made-?deactivate|masususpend|malo-?lock|mala-?lock|ide-?deactivate|iba-?block|ila-?lock)',
      '(isasara|masasara|sususpindihin|puputulin|mapuputol|mapuputulan|maputulan)',
      'hindi (mo |nyo |niyo )?na (magagamit|ma-?access)',
      'disconnection notice',
      'will expire today',
      'expire(s|d)? today',
      'expired na',
      're-?verification',
      'incomplete verification',
      'unusual (activity|login)',
      'verify (now|your (account|identity|details|information|sim|number|wallet))',
      '(complete|update)( your)? (kyc|e-?kyc|verification)',
      'kyc',
      'know your customer',
      'i-?verify (agad|na|ang|mo|nyo|niyo)',
      'mag-?verify',
      'update your (details|information|billing|account|records)',
      'i-?update (ang|yung) (iyong |inyong )?(account|details|impormasyon|information)',
      'update now',
      'record is incomplete',
      'will be (forfeited|banned)',
      'failed logins?',
      'multiple failed',
      'unsettled',
      'flagged for',
      'payment failed',
      'needs re-?verification',
      'to restore',
      'restore (it|access|your)',
      'reactivate',
      'will be (deleted|removed|disabled|revoked|deactivated)',
      'violated our (policies|community standards|terms)',
      'unregistered sim',
      're-?register (your |ang )?(sim|number)',
      'sim re-?registration',
    ],
  },
  {
    code: 'pressure',
    severity: 'medium',
    message: 'It rushes you (a deadline of hours, "today only", "immediately") so you act before checking.',
    amplifier: { alone: [MONEY_ASK] },
    phrases: [
      'within (the )?(next )?[0-9]+ ?(hours|hrs|minutes|mins|days|h)',
      'in 24 ?(hours|hrs)',
      'sa loob ng [0-9]+ ?(oras|araw|minuto)',
      'today only',
      'ngayong araw (lang|na)?',
      'ngayon (din|na|mismo)',
      'immediately',
      'right away',
      'agad',
      'agad-?agad',
      'asap',
      'urgent',
      'hurry',
      'bilisan',
      'last chance',
      'final (notice|warning|reminder)',
      'huling (paalala|babala|abiso)',
      'slots are limited',
      'limited (slots|stocks|time)',
      'before (midnight|friday|it expires|they expire)',
      'bago (mag-?)?(midnight|hatinggabi)',
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
    amplifier: { alone: [BORROWING] },
    phrases: [
      'keep (this|it) (confidential|secret|a secret|quiet|between us|to yourself)',
      "(don't|do not|never) (tell|inform|call) (anyone|anybody|your|the bank|mom|dad|mama|papa)",
      'between us',
      '(huwag|wag)( mo| nyo| niyo| mong| nyong| po| na| muna| munang)* (sabihin|sasabihin|ipaalam|ipapaalam|ipagsabi|ipagsasabi|sabihan|tawagan|tatawagan|malaman)',
      '(atin|satin)-?(atin|satin) lang',
      'sa ating dalawa lang',
      'tayong dalawa lang',
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
      'new (number|no\\.?|sim)',
      'bagong (number|numero|no\\.?|sim)',
      'bago kong (number|numero|sim)',
      '(nasira|nawala|nanakaw|na-?snatch)( na)? (yung|ang|po ang|po yung) (phone|cellphone|cp|sim)',
      '(lost|broke|broken) my (phone|sim)',
      'changed my number',
      'ito na (number|numero) ko',
    ],
    requires: [MONEY_REQUEST],
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
      '(naaksidente|nabangga|nadisgrasya)',
      '(had|got into|was in) an accident',
      'naiwan ko (ang|yung) wallet',
      '(nakulong|hinuli|nahuli|presinto|police station|pulis)',
      'areglo',
      'piyansa',
      'kidnap',
    ],
    requires: [MONEY_REQUEST],
  },
  {
    code: 'wrong-send',
    severity: 'medium',
    message:
      'Someone says they sent you money by mistake and asks for it back. Check your own balance in the app; refunds go through the e-wallet, not to a number they give.',
    phrases: [
      'sent( you)?( p| php)?( ?[0-9,]+)?( to your [a-z]+)? by mistake',
      '(accidentally|mistakenly|wrongly) (sent|transferred|send|transfer|loaded)',
      'wrong (send|sent|transfer|number|account)',
      'napadala ko',
      'nagkamali (ako )?(ng|sa) (send|padala|transfer|number|numero)',
      'mali (ang|yung) (napadala|na-?send|number|numero|account)',
      'maling (number|numero|account)',
      'napa-?send ko',
      'naipadala ko',
    ],
    weak: {
      phrases: [
        'send it back',
        'pakibalik',
        'ibalik (mo|nyo|niyo|po|na lang)',
        'return (it|the money|the amount)',
        'refund it',
        'paki-?refund',
      ],
      with: [MONEY_CONTEXT],
    },
  },
  {
    code: 'parcel-fee',
    severity: 'medium',
    message:
      'It says a parcel is held until you pay a fee. Couriers show fees in their own app or at the door.',
    phrases: [
      '(redelivery|re-delivery|customs|storage|handling|clearance) (fee|fees|charge|charges)',
      '(shipping|delivery) fee (to|para) (release|receive|ma-?release|makuha)',
      'held (at|in|by) customs',
      'package is held',
      '(naka-?hold|held) (ang )?(package|parcel)',
      'parcel could not be delivered',
      'incomplete address',
      'pay (p|php) ?[0-9,.]+ (shipping|duties|duty|handling|customs|redelivery|storage)',
      'sa customs',
      'customs office',
      'confirm delivery',
    ],
    weak: {
      phrases: [
        '(delivery|shipment) (failed|unsuccessful|attempt failed)',
        'failed delivery',
        '(returned|return) to (the )?sender',
        '(parcel|package|shipment|padala|item)( [a-z]+){0,3} (is|are|was|has been|ay)( [a-z]+)? (held|on hold|naka-?hold|stuck|pending)',
        '(shipping|delivery) fee',
        'duties',
      ],
      with: [PAYMENT],
    },
  },
  {
    code: 'investment-returns',
    severity: 'medium',
    message: 'It promises large or guaranteed returns. Real investments never guarantee profit.',
    phrases: [
      'guaranteed (returns|profit|income|kita)',
      '(profit|returns|income) (is )?guaranteed',
      '(siguradong|sigurado(ng)?|garantisadong) (kita|tubo|balik|profit)',
      'sure profit',
      '100% legit',
      'double your',
      '(dodoble|titriple|ma-?doble)',
      '[0-9.]+% (monthly|daily|weekly|a day|a week|per day|per week|every day)',
      '(monthly|daily|weekly) returns',
      '(invest|mag-?invest)( ka| kayo| po| lang)*( ng)? (p|php|usdt|\\$) ?[0-9,]+',
      'babalik( sa (iyo|inyo|yo|iyo ang))?( ng| ang)? (p|php) ?[0-9][0-9,.]*',
      '(sumali|sali|join)( ka| kayo| na| po)* (sa|in) (our|aming|investment)( [a-z]+)? (investment|group)',
      '(invest|investing) in (our|this|my)',
      'investment (group|opportunity|package|plan|program)',
      'forex',
      'minimum (deposit|investment|capital|of)? ?(p|php|usdt|\\$)? ?[0-9,]+ ?(usdt)?',
      'deposit (at least|a minimum of)',
      'earn (p|php|usdt|\\$) ?[0-9,]+ in',
      'earn (p|php|usdt|\\$) ?[0-9,]+ (daily|weekly|monthly|a day|a week)',
      'trading bot',
      'mining (pool|opportunity|investment)',
      'crypto mining',
      'turn (p|php|\\$|usdt) ?[0-9,]+ into',
      '[0-9]+x (ang balik|return|returns|profit|your money)',
      'paluwagan',
      'receive( [0-9.]+)?( [a-z]+){0,2} back',
      'makatanggap ng (p|php) ?[0-9,]+ (pagkatapos|after|sa loob)',
      'proof of payouts?',
      'passive income',
      'crypto trading',
      'easy money',
      '(kikita|kita) ng (p|php) ?[0-9,]+ sa loob',
      'kita agad',
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
      `(message|chat|contact|add|pm|dm|text|reach|apply|talk|${affixed('message|chat|pm|dm|contact|apply')}|kontakin|makipag-?ugnayan)( [a-z@.'-]+){0,5} (on|sa|via|thru|through|using|in) (telegram|whatsapp|viber|signal|wechat)`,
      '(telegram|whatsapp|viber) (@|\\+|t\\.me|wa\\.me)',
      '(chat|add) (me|us|with [a-z]+) on',
      '(message|contact|chat with) (our|my|the) (agent|coach|hr|admin|manager|mentor|recruiter|assistant)',
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
      'isasampa',
      'sampahan',
      'demanda',
      '(ipapakulong|makukulong|ipahuhuli)',
      'subpoena',
      'hold departure',
      'blacklist(ed)?',
      'penalty',
      'multa',
      'violation',
      'cybercrime unit',
    ],
  },
  {
    code: 'government-aid',
    severity: 'medium',
    message:
      'It offers government aid (ayuda, cash assistance) if you register, pay or give details through the message. Agencies announce aid on their own pages and pay out through the barangay or their offices.',
    phrases: [
      'ayuda',
      'cash (aid|assistance|grant|subsidy)',
      'financial (aid|assistance|grant)',
      'educational assistance',
      '(ikaw|kayo) ay (kwalipikado|qualified|eligible)',
      '(kwalipikado|qualified|eligible) (ka|kayo|po kayo)',
      '(qualified|eligible) (for|to receive)( [a-z]+){0,2} (aid|assistance|ayuda|subsidy|grant|benefits?)',
      'benepisyaryo',
      'beneficiary',
      '(4ps|tupad|akap|sap|aics|pantawid)',
    ],
    requires: [ACTION],
  },
  {
    code: 'romance',
    severity: 'medium',
    message:
      'Someone who speaks of love asks for money for a ticket, visa, customs or a gift package. Romance scammers do this after weeks of chatting; do not send money to someone you have not met.',
    phrases: [
      'my love',
      'i love you',
      'mahal kita',
      'mahal ko',
      'babe',
      'baby ko',
      'honey',
      'sweetheart',
      'darling',
      'my dear',
      'my heart',
    ],
    requires: [
      MONEY_REQUEST,
      {
        name: 'a journey or a gift',
        phrases: [
          '(plane|flight|air) ?ticket',
          'airport',
          'customs',
          'visa',
          'clearance',
          '(gift|gifts|package|box)',
          'come to you',
          '(visit|meet) you',
          'makapunta (dyan|diyan|sa (pilipinas|philippines))',
          'inheritance',
          'diplomat',
          'oil rig',
        ],
      },
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

/**
 * One regular expression per table (its phrases as one alternation, whole words): a few hundred
 * phrases read as some 25 scans instead of one each, which keeps a page's first check short.
 */
const compiled = new WeakMap<string[], RegExp>();
function tableRegExp(phrases: string[]): RegExp {
  let re = compiled.get(phrases);
  if (!re) {
    re = new RegExp(`(?<![a-z0-9])(?:${phrases.join('|')})(?![a-z0-9])`, 'g');
    compiled.set(phrases, re);
  }
  re.lastIndex = 0;
  return re;
}

/** The words of up to three matches of a table's phrases, skipping those a negation turns into advice. */
function findPhrases(folded: string, mask: string, phrases: string[], negatable: boolean): string[] {
  const found: string[] = [];
  if (phrases.length === 0) return found;
  for (const m of mask.matchAll(tableRegExp(phrases))) {
    if (negatable && NEGATION.test(folded.slice(Math.max(0, m.index - 40), m.index))) continue;
    const words = folded.slice(m.index, m.index + m[0].length);
    if (!found.includes(words)) found.push(words);
    if (found.length >= 3) break;
  }
  return found;
}

/** Every text rule the message triggers, each with the words that triggered it. */
export function textSignals(text: string, rules: TextRule[] = TEXT_RULES): TextSignal[] {
  const folded = foldText(typeof text === 'string' ? text : '');
  const mask = asciiMask(folded);
  const found = (phrases: string[], negatable = false) => findPhrases(folded, mask, phrases, negatable);
  /** The words of every set, or null when one set is not found. */
  const all = (sets: Requirement[]): string[] | null => {
    const words: string[] = [];
    for (const set of sets) {
      const w = found(set.phrases, set.negatable ?? false);
      if (w.length === 0) return null;
      words.push(...w);
    }
    return words;
  };
  const out: TextSignal[] = [];
  for (const rule of rules) {
    let matched = found(rule.phrases, rule.negatable ?? false);
    if (matched.length > 0 && rule.requires) {
      const also = all(rule.requires);
      matched = also ? [...matched, ...also] : [];
    }
    if (matched.length === 0 && rule.weak) {
      const weak = found(rule.weak.phrases, rule.negatable ?? false);
      const also = weak.length > 0 ? all(rule.weak.with) : null;
      if (also) matched = [...weak, ...also];
    }
    if (matched.length === 0) continue;
    matched = matched.filter((w, i) => matched.indexOf(w) === i);
    out.push({ code: rule.code, severity: rule.severity, message: rule.message, matched });
  }
  // Amplifiers (a deadline, "don't tell anyone") count beside another rule, or with their own company.
  const amplifier = new Map(rules.map((r) => [r.code, r.amplifier]));
  if (out.some((s) => !amplifier.get(s.code))) return out;
  return out.flatMap((s) => {
    const also = all(amplifier.get(s.code)?.alone ?? []);
    return also ? [{ ...s, matched: [...s.matched, ...also.filter((w) => !s.matched.includes(w))] }] : [];
  });
}
