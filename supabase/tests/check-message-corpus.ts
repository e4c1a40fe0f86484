/**
 * Realistic messages (scam and legitimate; English, Filipino and Taglish) with the canonical form of
 * every identifier each must yield and the hosts whose look-alike of a brand must be flagged. Names,
 * numbers and domains are made up (the numbers use ranges that look real); the brands are the seeded
 * ones of public.brands. Run by check-message-corpus.test.ts, which prints recall and precision.
 */
export interface CorpusMessage {
  lang: 'en' | 'fil' | 'taglish';
  scam: boolean;
  text: string;
  /** Canonical forms of every identifier the message holds. */
  identifiers: string[];
  /** Hosts (canonical) that imitate a brand and must carry lookalike-brand. */
  lookalikes: string[];
}

const EVM_VALID = '0x52908400098527886E0F7030069857D2E4169EE7';
const EVM_BAD = '0x52908400098527886e0F7030069857D2E4169EE7';
const BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const BTC_P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const BTC_BAD = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3';
const BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TAPROOT = 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297';
const TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

export const CORPUS: CorpusMessage[] = [
  // ---- Bank and e-wallet phishing ----
  {
    lang: 'en',
    scam: true,
    text: 'GCash: Your account has been temporarily locked due to unusual activity. Verify now at https://gcash-verify-ph.com/login to avoid permanent suspension.',
    identifiers: ['gcash-verify-ph.com'],
    lookalikes: ['gcash-verify-ph.com'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'BPI Advisory: We detected a login from a new device. If this was not you, secure your account at bpi.com.ph.secure-login.ru within 24 hours.',
    identifiers: ['bpi.com.ph.secure-login.ru'],
    lookalikes: ['bpi.com.ph.secure-login.ru'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Dear BPI client, your Online Banking will expire today. Update your details at http://bpl.com.ph/update to continue using your account.',
    identifiers: ['bpl.com.ph'],
    lookalikes: ['bpl.com.ph'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Your GCash wallet received PHP 5,000.00 cashback. Claim it at gcásh.com/claim before 11:59 PM.',
    identifiers: ['xn--gcsh-6na.com'],
    lookalikes: ['xn--gcsh-6na.com'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'BDO: Na-hold ang account mo dahil sa suspicious transaction. I-verify agad sa hxxps://bdo-online-verify[.]top para hindi ma-deactivate.',
    identifiers: ['bdo-online-verify.top'],
    lookalikes: ['bdo-online-verify.top'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Metrobank: Your credit card has an unpaid balance of P12,450.75. Pay now via metrobank-paycard.com or call our agent at 0917 845 2210.',
    identifiers: ['metrobank-paycard.com', '+639178452210'],
    lookalikes: ['metrobank-paycard.com'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'Maya: Congrats! Ikaw ay napili para sa P10,000 loan. Mag-apply na sa maya-loans.online at i-text ang code sa 09998887766.',
    identifiers: ['maya-loans.online', '+639998887766'],
    lookalikes: ['maya-loans.online'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'LandBank: Your ATM card will be blocked. Reactivate via https://landbank-reactivation.xyz/ph and enter the OTP we send you.',
    identifiers: ['landbank-reactivation.xyz'],
    lookalikes: ['landbank-reactivation.xyz'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'UnionBank alert: A transfer of PHP 28,000 is pending. Cancel it at unionbamk.com/cancel if you did not authorize it.',
    identifiers: ['unionbamk.com'],
    lookalikes: ['unionbamk.com'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Security Bank: your account needs re-verification. Visit securitybank.com.verify-id.info now.',
    identifiers: ['securitybank.com.verify-id.info'],
    lookalikes: ['securitybank.com.verify-id.info'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'RCBC Bankard: You have unclaimed reward points worth P3,500. Redeem at rcbc-rewards.site before they expire on 12/31.',
    identifiers: ['rcbc-rewards.site'],
    lookalikes: ['rcbc-rewards.site'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'PNB: May pending transfer ka na P15,000. Para i-cancel, mag-login sa pnb.com.ph-secure.net o tumawag sa +63 (918) 555-0142.',
    identifiers: ['pnb.com.ph-secure.net', '+639185550142'],
    lookalikes: ['pnb.com.ph-secure.net'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'GCash: your GScore qualified you for GLoan. Activate at g-cash.app.link.verify-now.click and reply YES to 639271112233.',
    identifiers: ['g-cash.app.link.verify-now.click', '+639271112233'],
    lookalikes: ['g-cash.app.link.verify-now.click'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Your PayMaya account is limited. Restore access: https://paymaya.com-restore.support/login',
    identifiers: ['paymaya.com-restore.support'],
    lookalikes: ['paymaya.com-restore.support'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'China Bank: Your OTP is 482910. If you did not request this, cancel at chinabank-ph.help and contact 0916 223 4455.',
    identifiers: ['chinabank-ph.help', '+639162234455'],
    lookalikes: ['chinabank-ph.help'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'E-mail from: security@gcash-support.net — Subject: Action required. Please confirm your MPIN by replying to this e-mail.',
    identifiers: ['security@gcash-support.net'],
    lookalikes: ['gcash-support.net'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'From: BDO Unibank <noreply@bdo-unibank-alerts.com>\nYour debit card was used in a transaction of PHP 9,870.00 on 11/20/2026 at 10:42 PM. Not you? Click https://bit.ly/3BdOcard',
    identifiers: ['noreply@bdo-unibank-alerts.com', 'bit.ly/3BdOcard'],
    lookalikes: ['bdo-unibank-alerts.com'],
  },
  // ---- Government ----
  {
    lang: 'en',
    scam: true,
    text: 'SSS: You are eligible for a P8,000 calamity loan. Apply at sss-calamity-loan.com and send your UMID to 09354448899.',
    identifiers: ['sss-calamity-loan.com', '+639354448899'],
    lookalikes: ['sss-calamity-loan.com'],
  },
  {
    lang: 'fil',
    scam: true,
    text: 'PhilHealth: May refund ka na P4,200. Kunin ito sa philhealth-refund.ph.gov-claims.xyz bago mag-Biyernes.',
    identifiers: ['philhealth-refund.ph.gov-claims.xyz'],
    lookalikes: ['philhealth-refund.ph.gov-claims.xyz'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'Pag-IBIG Fund: Ang iyong MP2 dividend ay handa na. I-claim sa pagibig-mp2.online o i-text ang PAGIBIG sa 0977 321 6540.',
    identifiers: ['pagibig-mp2.online', '+639773216540'],
    lookalikes: ['pagibig-mp2.online'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'BIR: You have an unpaid tax penalty of P25,300. Settle it at bir-ereg.com.ph.tax-pay.site to avoid legal action.',
    identifiers: ['bir-ereg.com.ph.tax-pay.site'],
    lookalikes: ['bir-ereg.com.ph.tax-pay.site'],
  },
  {
    lang: 'en',
    scam: true,
    text: "LTO: Your driver's license has 3 unsettled violations. Pay online at lto-gov-ph.top/pay within 48 hours or your license will be suspended.",
    identifiers: ['lto-gov-ph.top'],
    lookalikes: ['lto-gov-ph.top'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'DFA Passport: Your appointment on 2026-12-03 was cancelled. Rebook at dfa-appointment.online and pay the P950 fee.',
    identifiers: ['dfa-appointment.online'],
    lookalikes: ['dfa-appointment.online'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'PhilPost: Your parcel PH7829301123 is on hold due to incomplete address. Update here: phlpost-redelivery.com',
    identifiers: ['phlpost-redelivery.com'],
    lookalikes: ['phlpost-redelivery.com'],
  },
  // ---- Couriers ----
  {
    lang: 'en',
    scam: true,
    text: 'LBC: We tried to deliver your package (tracking 192837465011). Pay the P45 redelivery fee at lbc-express-ph.com',
    identifiers: ['lbc-express-ph.com'],
    lookalikes: ['lbc-express-ph.com'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'J&T Express: Hindi ma-deliver ang parcel mo. I-confirm ang address sa jtexpress-ph.delivery-fix.com o i-message ang rider sa 0966 712 3340.',
    identifiers: ['jtexpress-ph.delivery-fix.com', '+639667123340'],
    lookalikes: ['jtexpress-ph.delivery-fix.com'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Ninja Van: Your shipment is pending customs duty of PHP 120. Pay at ninjavan-ph.cyou/pay',
    identifiers: ['ninjavan-ph.cyou'],
    lookalikes: ['ninjavan-ph.cyou'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Flash Express: Your COD parcel is waiting. Settle at flash-express.ph-track.com. Tracking no. TH0123456789A.',
    identifiers: ['flash-express.ph-track.com'],
    lookalikes: ['flash-express.ph-track.com'],
  },
  // ---- Shops and jobs ----
  {
    lang: 'taglish',
    scam: true,
    text: 'Hi! From Shopee HR po kami. Part-time job, P500-P3000 per day, like lang ng products. Interested? Add us on Telegram or text 09451234987. Details: shopee-jobs.vip',
    identifiers: ['+639451234987', 'shopee-jobs.vip'],
    lookalikes: ['shopee-jobs.vip'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Lazada 11.11 raffle: You won an iPhone 17! Claim at lazada-raffle.com.ph.claims.live with code LZD-88213.',
    identifiers: ['lazada-raffle.com.ph.claims.live'],
    lookalikes: ['lazada-raffle.com.ph.claims.live'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: "TikTok Shop affiliate ka na! Mag-register sa tiktokshop-affiliate.xyz at kumita ng P2,000 kada araw. Message mo si Ma'am Joy sa +63 915 678 1234.",
    identifiers: ['tiktokshop-affiliate.xyz', '+639156781234'],
    lookalikes: ['tiktokshop-affiliate.xyz'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Work from home! Earn $50/day rating hotels. Contact our manager on WhatsApp +1 (415) 555-2671 or e-mail hr.recruit.ph@gmail.com',
    identifiers: ['+14155552671', 'hr.recruit.ph@gmail.com'],
    lookalikes: [],
  },
  // ---- Telcos ----
  {
    lang: 'en',
    scam: true,
    text: 'Globe: Your 12,500 Globe Rewards points expire today! Redeem at globe-rewards.com.ph-redeem.icu',
    identifiers: ['globe-rewards.com.ph-redeem.icu'],
    lookalikes: ['globe-rewards.com.ph-redeem.icu'],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'Smart: Congrats! Nanalo ka ng P50,000 sa Smart Raffle. I-claim sa smart-raffle.club at ipadala ang P500 processing fee sa GCash 0917-555-0188.',
    identifiers: ['smart-raffle.club', '+639175550188'],
    lookalikes: ['smart-raffle.club'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'DITO SIM registration incomplete. Register at dito-simreg.com or your SIM will be deactivated.',
    identifiers: ['dito-simreg.com'],
    lookalikes: ['dito-simreg.com'],
  },
  // ---- Crypto and investment ----
  {
    lang: 'en',
    scam: true,
    text: `Double your crypto in 24 hours! Send USDT (TRC20) to ${TRON} or ETH to ${EVM_VALID}. Guaranteed returns.`,
    identifiers: [TRON, EVM_VALID.toLowerCase()],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: true,
    text: `Sir, para ma-withdraw ang profit niyo, kailangan muna ng 10% tax. Send BTC to ${BTC} o kaya ${BECH32}. Salamat po.`,
    identifiers: [BTC, BECH32],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: `Airdrop live! Connect your wallet at solana-airdrop.xyz and send 0.5 SOL to ${SOL} to verify.`,
    identifiers: ['solana-airdrop.xyz', SOL],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: `Invest in our mining pool: deposit to ${BTC_P2SH} or ${TAPROOT}. Telegram support: +44 7911 123456.`,
    identifiers: [BTC_P2SH, TAPROOT, '+447911123456'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: `Payment address updated, please use ${BTC_BAD} from now on and ignore the old one.`,
    identifiers: [BTC_BAD],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: `Send the ETH here: ${EVM_BAD}`,
    identifiers: [EVM_BAD.toLowerCase()],
    lookalikes: [],
  },
  // ---- Chat, love and family scams ----
  {
    lang: 'fil',
    scam: true,
    text: 'Ma, ako ito si Jun. Nawala ang cellphone ko, ito na bagong number ko 0905 111 2233. Padalhan mo ako ng load, emergency lang.',
    identifiers: ['+639051112233'],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'Hi beh, stuck ako sa customs, kailangan ko ng $500 para sa clearance. Send mo sa GCash ko 09267778899 or sa bank ko. Love you!',
    identifiers: ['+639267778899'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Your Facebook page violated our policies and will be deleted. Appeal at meta-support-appeal.com/case/884120 within 24h.',
    identifiers: ['meta-support-appeal.com'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Pay your outstanding invoice here: http://103.21.244.15/invoice/pay?id=8812',
    identifiers: ['103.21.244.15'],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: true,
    text: 'GCash Rewards: Nanalo ka! Para ma-claim, i-reply mo ang MPIN mo sa 0936 445 7812 o tumawag sa +639364457812. Ref No. 5001234567891.',
    identifiers: ['+639364457812'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: 'BDO: For account concerns, reply to our officer Ms. Santos at 0918-222-3344 (Viber).',
    identifiers: ['+639182223344'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Track your parcel: tinyurl.com/lbc-parcel-88 (LBC). Questions? lbc.customercare@yahoo.com',
    identifiers: ['tinyurl.com/lbc-parcel-88', 'lbc.customercare@yahoo.com'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Claim your SSS pension bonus at sss.gov.ph.pension-bonus.com today. Defanged copy: sss[.]gov[.]ph[.]pension-bonus[.]com',
    identifiers: ['sss.gov.ph.pension-bonus.com'],
    lookalikes: ['sss.gov.ph.pension-bonus.com'],
  },
  {
    lang: 'en',
    scam: true,
    text: 'Shopee: your order is on hold. Verify payment at shopee(.)ph-orders(.)com or email billing@shoppee-ph.com',
    identifiers: ['shopee.ph-orders.com', 'billing@shoppee-ph.com'],
    lookalikes: ['shopee.ph-orders.com', 'shoppee-ph.com'],
  },
  // ---- Legitimate messages ----
  {
    lang: 'en',
    scam: false,
    text: 'Your GCash OTP is 123456. Never share it with anyone, including GCash employees. Visit www.gcash.com/help for support.',
    identifiers: ['gcash.com'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'BPI: You sent PHP 1,500.00 to JUAN DELA CRUZ on 11/22/2026 10:15 AM. Ref No. 9171234567. Not you? Call (02) 889-10000 or visit https://www.bpi.com.ph',
    identifiers: ['0288910000', 'bpi.com.ph'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Your Shopee order #2411220QWERTY has shipped via J&T Express. Track it in the app or at https://shopee.ph/user/purchase',
    identifiers: ['shopee.ph'],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: false,
    text: 'Uy, kita tayo mamaya 7:30 PM sa SM North. Text mo ako sa 0917 123 4567 pag nandun ka na.',
    identifiers: ['+639171234567'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Meeting moved to 2026-11-25 at 14:00. Agenda at https://docs.example.org/agenda and call-in +63 2 8888 1234.',
    identifiers: ['docs.example.org', '+63288881234'],
    lookalikes: [],
  },
  {
    lang: 'fil',
    scam: false,
    text: 'Salamat sa pagbabayad ng iyong Meralco bill na P2,345.60. Ang iyong reference number ay 0012345678.',
    identifiers: [],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Your SSS contribution for October 2026 has been posted. Check My.SSS at https://member.sss.gov.ph',
    identifiers: ['member.sss.gov.ph'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'LBC: Your package 1234-5678-9012 is out for delivery today. Track at https://www.lbcexpress.com/track',
    identifiers: ['lbcexpress.com'],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: false,
    text: 'Mam, na-send ko na po yung bayad sa Maya, P1,250 po. Ref 4455 6677 8899. Pa-confirm na lang po. Salamat!',
    identifiers: [],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Hi team, the report is at https://github.com/example/report and the slides are on drive. E-mail me at ana.reyes@company.com.ph if you have questions.',
    identifiers: ['github.com', 'ana.reyes@company.com.ph'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Globe: Your GoSURF50 promo is now active until 11/29/2026 11:59 PM. Balance inquiry: dial *143#. More at globe.com.ph',
    identifiers: ['globe.com.ph'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'PhilHealth reminder: update your member data at https://www.philhealth.gov.ph/members/ or visit the nearest Local Health Insurance Office.',
    identifiers: ['philhealth.gov.ph'],
    lookalikes: [],
  },
  {
    lang: 'fil',
    scam: false,
    text: 'Anak, nakauwi na kami ng tatay mo. Ang bagong number ni Lola ay 0998 765 4321. Ingat ka palagi.',
    identifiers: ['+639987654321'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Version 2.3.1 of the app fixes login on Android 14. Read the notes in README.md and release-notes.txt.',
    identifiers: [],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'Lazada: Order 4020187736451 delivered on Nov 21. Rate your purchase in the Lazada app or at https://www.lazada.com.ph.',
    identifiers: ['lazada.com.ph'],
    lookalikes: [],
  },
  {
    lang: 'en',
    scam: false,
    text: 'UnionBank: Login to https://online.unionbankph.com was successful at 08:12 AM. If this was not you, call +63 2 8841 8600.',
    identifiers: ['online.unionbankph.com', '+63288418600'],
    lookalikes: [],
  },
  {
    lang: 'taglish',
    scam: false,
    text: 'Pre, eto yung link ng resort: https://www.booking.com/hotel/ph/la-union-surf.html, P3,500 per night daw. G ka ba sa Dec 27-29?',
    identifiers: ['booking.com'],
    lookalikes: [],
  },
];
