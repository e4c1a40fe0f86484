/**
 * The message check's text rules (issue 30), family by family: each fires on its English, Filipino
 * and Taglish wordings (with the affixed forms Taglish puts on loan verbs) and names the words that
 * triggered it; advice ("never share your OTP"), amplifiers alone (a deadline, a surprise kept secret)
 * and ordinary notices do not fire. The corpora measure the rules as a whole
 * (check-message-heldout.test.ts); this pins the behaviour of each.
 */
import { describe, expect, it } from 'vitest';
import { affixed, textSignals, type TextSignalCode } from '../../supabase/functions/_shared/text-signals.ts';

const codes = (text: string) => textSignals(text).map((s) => s.code);

describe('text rules', () => {
  const fires: [TextSignalCode, string][] = [
    ['credentials-request', 'Pakisend po ng 6-digit code na natanggap niyo para ma-fix namin.'],
    ['credentials-request', 'I-forward mo lang yung OTP sa akin, ako na bahala.'],
    ['credentials-request', 'Confirm by replying with your card number and expiry date.'],
    ['credentials-request', 'Ano po yung OTP na dumating sa inyo?'],
    ['prize', 'Nanalo po kayo ng P20,000 sa aming raffle!'],
    ['prize', 'Your 1,850 points worth P1,850 will expire. Convert your points to cash.'],
    ['job-offer', 'Complete simple orders and earn 12% commission each.'],
    ['job-offer', 'Hiring kami ng factory workers sa Japan, reservation fee P8,000 lang.'],
    ['loan-offer', 'Need cash fast? Instant loan, no credit check, walang collateral.'],
    ['advance-fee', 'Reserve mo na, down payment muna bago i-ship, no COD.'],
    ['account-threat', 'Ang iyong SIM ay made-deactivate ngayong araw.'],
    ['account-threat', 'Your online banking profile will be locked in 24 hours.'],
    ['account-threat', 'Complete your e-KYC today to keep using your wallet.'],
    ['new-number', 'Tita, bagong number ko po to. Pahiram po ng P1,000.'],
    ['family-emergency', 'Nasa presinto ako, kailangan ko ng P10,000 pang-areglo, i-GCash mo.'],
    ['wrong-send', 'I accidentally transferred P3,000 to your Maya account, please return it.'],
    ['wrong-send', 'Nagkamali ako ng send ng P2,000, pakibalik na lang po.'],
    ['parcel-fee', 'Delivery failed. Pay the P65 handling fee or it returns to sender.'],
    ['investment-returns', 'Mag-invest ka ng P5,000, babalik sa iyo P15,000 sa loob ng isang linggo.'],
    ['investment-returns', 'Deposit at least 100 USDT and earn 5% daily, profit guaranteed.'],
    ['move-to-chat', "Message mo lang si Ma'am Joy sa Telegram."],
    ['legal-threat', 'Sasampahan kayo ng kaso kapag hindi nagbayad.'],
    ['government-aid', 'Kwalipikado ka sa ayuda na P7,000. Mag-register sa link.'],
    ['romance', 'My love, customs is holding my gift box for you. Please send $300 for the clearance.'],
    ['secrecy', 'Pahiram muna ng P1,500, ibabalik ko bukas. Wag mong sasabihin kay ate.'],
    ['pressure', 'Send P100 to this number today only to get P300 load.'],
  ];
  it.each(fires)('%s fires on "%s" and names its words', (code, text) => {
    const signal = textSignals(text).find((s) => s.code === code);
    expect(signal, codes(text).join(', ')).toBeDefined();
    for (const words of signal!.matched) expect(text.toLowerCase()).toContain(words.split(' ')[0]);
  });

  const quiet = [
    'BDO: 218844 is your One-Time PIN. If you did not request this, call us immediately. Never share your OTP.',
    'Huwag ibigay ang inyong PIN o OTP kaninuman.',
    'Globe Rewards: You have 350 points expiring on Dec 31. Redeem them in the GlobeOne app.',
    'Tita, surprise party natin kay Tito! Wag mong sasabihin sa kanya. Send mo na lang sa GCash ko.',
    'Mam, na-send ko na po yung bayad sa Maya, P1,250 po.',
    'J&T Express: Delivery attempt failed, no one was home. Our rider will try again tomorrow.',
    'DMW advisory: Planning to work abroad? Never pay placement fees to individuals.',
    'DSWD: The AKAP payout in your barangay is on Nov 30. Bring a valid ID.',
    'SSS: Your calamity loan application was received.',
    'Pakibalik na lang yung payong ko bukas.',
  ];
  it.each(quiet)('no rule fires on "%s"', (text) => {
    expect(codes(text)).toEqual([]);
  });

  it('affixed loan verbs read the Filipino forms', () => {
    const re = new RegExp(`^${affixed('send|verify')}$`);
    for (const w of [
      'send',
      'i-send',
      'isend',
      'ise-send',
      'pakisend',
      'pa-send',
      'i-verify',
      'mave-verify',
      'verify-hin',
    ])
      expect(w).toMatch(re);
    expect('resend').not.toMatch(re);
  });
});
