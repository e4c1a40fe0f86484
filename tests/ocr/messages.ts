/**
 * The screenshot test set's messages (issue 35): written for this test, not taken from any corpus the
 * message check was tuned on. Scams and ordinary messages, in English, Filipino and Taglish, as they
 * arrive by SMS, chat apps, Facebook and e-mail. `from` is what the app's header shows (a name or a
 * number: it is on the screenshot too, so it is part of the text the image is compared with).
 */
export type Layout = 'sms' | 'messenger' | 'viber' | 'telegram' | 'facebook' | 'email';

export interface TestMessage {
  id: string;
  layout: Layout;
  from: string;
  /** One entry per bubble (or the post / e-mail body's paragraphs). */
  bubbles: { text: string; mine?: boolean }[];
}

export const MESSAGES: TestMessage[] = [
  {
    id: 'gcash-suspend',
    layout: 'sms',
    from: 'GCash',
    bubbles: [
      {
        text: 'GCash: Your account will be suspended within 24 hours. Verify your details at https://gcash-verify-ph.com/login to keep your balance.',
      },
    ],
  },
  {
    id: 'bdo-otp',
    layout: 'sms',
    from: '+63 917 805 2241',
    bubbles: [
      {
        text: 'BDO ALERT: Unusual login detected. Reply with the OTP we sent or call our officer at 0917 805 2241 to stop the transfer.',
      },
    ],
  },
  {
    id: 'parcel-fee',
    layout: 'sms',
    from: '0998 221 4410',
    bubbles: [
      {
        text: 'LBC: Ang parcel mo ay naka-hold dahil sa kulang na address. Magbayad ng P45 sa lbc-ph-delivery.top/pay bago mag 6PM.',
      },
    ],
  },
  {
    id: 'job-task',
    layout: 'messenger',
    from: 'Shopee Hiring PH',
    bubbles: [
      { text: 'Hi! Part-time job po, 500-3000 per day, like at follow lang ng shops.' },
      { text: 'Interested po ako, paano?', mine: true },
      {
        text: 'Add mo si Ma\u2019am Joy sa Telegram t.me/shopeetaskjoy or text 0966 301 7788 para sa first task.',
      },
    ],
  },
  {
    id: 'maya-refund',
    layout: 'messenger',
    from: 'Maya Support',
    bubbles: [
      { text: 'Good day! You have a pending refund of P2,350. Confirm your Maya number so we can send it.' },
      { text: 'My Maya is 09175550142', mine: true },
      { text: 'Thank you. Please log in at maya-refund-center.com and enter the 6-digit code.' },
    ],
  },
  {
    id: 'wrong-send',
    layout: 'sms',
    from: '0927 664 1023',
    bubbles: [
      {
        text: 'Hello po, napadala ko sa inyo yung 1,500 na load by mistake. Pwede nyo po ibalik sa 0927 664 1023? Salamat po, God bless.',
      },
    ],
  },
  {
    id: 'loan-approved',
    layout: 'sms',
    from: 'CASHXPRESS',
    bubbles: [
      {
        text: 'Congrats! Your loan of P30,000 is APPROVED. No collateral. Claim via bit.ly/cashx-claim24 or WhatsApp wa.me/639451230987',
      },
    ],
  },
  {
    id: 'crypto-invest',
    layout: 'telegram',
    from: 'Crypto Kuya Mark',
    bubbles: [
      { text: 'Guaranteed 30% weekly returns po sa USDT investment namin. Minimum 5,000 lang.' },
      { text: 'Send to TRC20 wallet TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE then message me proof.' },
    ],
  },
  {
    id: 'sss-pension',
    layout: 'facebook',
    from: 'SSS Pension Updates 2026',
    bubbles: [
      {
        text: 'ATTENTION PENSIONERS! May dagdag na P5,000 ayuda mula sa SSS. Mag-register lang sa sss-ayuda-online.com bago matapos ang buwan. Para sa tanong, text 0908 771 2390.',
      },
    ],
  },
  {
    id: 'netflix-mail',
    layout: 'email',
    from: 'Netflix <billing@netflix-account-help.com>',
    bubbles: [
      { text: 'Your payment was declined.' },
      {
        text: 'Update your card within 48 hours at https://netflix-account-help.com/update or your membership will be cancelled. Questions: support@netflix-account-help.com',
      },
    ],
  },
  {
    id: 'globe-points',
    layout: 'sms',
    from: 'GlobeRewards',
    bubbles: [
      {
        text: 'Your 8,540 Globe Rewards points expire today! Redeem a Samsung phone at globe-rewards-ph.xyz/claim now.',
      },
    ],
  },
  {
    id: 'marketplace-seller',
    layout: 'messenger',
    from: 'Jen Santos',
    bubbles: [
      { text: 'Available pa po yung iPhone 13? Magkano last price?', mine: true },
      {
        text: 'Yes po 18k na lang. Reserve mo na, send 50% down sa GCash 0915 402 8876 then i-ship ko agad.',
      },
      { text: 'Pwede meet up?', mine: true },
      { text: 'Hindi po pwede, Cebu ako. Send ka na lang po sa 0915 402 8876 para sure.' },
    ],
  },
  {
    id: 'pagibig-loan',
    layout: 'facebook',
    from: 'PAG-IBIG Fund Loans Assistance',
    bubbles: [
      {
        text: 'Calamity loan approval in 1 day! Processing fee lang P1,200. PM us or e-mail pagibig.loans.assist@gmail.com with your MID number.',
      },
    ],
  },
  {
    id: 'bank-lookalike',
    layout: 'email',
    from: 'BPI <alerts@bpi-secure-online.com>',
    bubbles: [
      { text: 'Dear customer,' },
      {
        text: 'We noticed a sign-in from a new device. If this was not you, secure your account at https://bpi-secure-online.com/verify within 12 hours.',
      },
    ],
  },
  {
    id: 'raffle-dswd',
    layout: 'viber',
    from: 'DSWD Raffle Team',
    bubbles: [
      {
        text: 'Congratulations! Nanalo ka ng P50,000 sa DSWD raffle. Para ma-claim, magbayad ng P800 processing fee sa Maya 0961 227 5510.',
      },
      { text: 'Totoo po ba ito?', mine: true },
      { text: 'Opo Ma\u2019am, legit po. Deadline po mamayang 5PM.' },
    ],
  },
  {
    id: 'new-number',
    layout: 'viber',
    from: '+63 956 332 1087',
    bubbles: [
      {
        text: 'Hi Ma, bagong number ko ito. Nasira phone ko. Pwede pa-send muna 3,000 sa GCash 0956 332 1087? Emergency lang po.',
      },
    ],
  },
  {
    id: 'meralco-disconnect',
    layout: 'sms',
    from: 'MERALCO-PH',
    bubbles: [
      {
        text: 'MERALCO: Your electricity will be disconnected tonight due to unpaid bill. Pay now at meralco-billpay.online or call 0977 812 3345.',
      },
    ],
  },
  {
    id: 'lazada-voucher',
    layout: 'telegram',
    from: 'Lazada Voucher Drop',
    bubbles: [
      { text: 'FREE 1,000 Lazada voucher for the first 100! Claim: https://lazada-voucher-ph.shop/free' },
      { text: 'Then join our group for more: t.me/lazvoucherdrops' },
    ],
  },
  {
    id: 'dhl-customs',
    layout: 'email',
    from: 'DHL Express <noreply@dhl-customs-ph.com>',
    bubbles: [
      {
        text: 'Your shipment is held at customs. Pay the PHP 1,250 duty at dhl-customs-ph.com/pay to release it. Tracking number 4821937765.',
      },
    ],
  },
  {
    id: 'romance-crypto',
    layout: 'messenger',
    from: 'David Chen',
    bubbles: [
      { text: 'My dear, I made a good profit today. I want you to try too.' },
      {
        text: 'Open an account at globalcoin-trade.vip and deposit to 0x8b3f2a4E1c9D7e5F6a0B1c2D3e4F5a6B7c8D9e0F, I will guide you.',
      },
    ],
  },
  {
    id: 'tiktok-promo',
    layout: 'facebook',
    from: 'TikTok Shop Giveaway PH',
    bubbles: [
      {
        text: 'Sali na sa giveaway! Comment DONE at i-message ang @tiktokshop.giveaway.ph para sa code. Or visit tiktok-giveaway.ph-claim.com',
      },
    ],
  },
  {
    id: 'telco-sim',
    layout: 'sms',
    from: 'SMART',
    bubbles: [
      {
        text: 'SMART: Your SIM will be deactivated. Re-register now at smart-simreg-update.com using your valid ID and OTP.',
      },
    ],
  },
  {
    id: 'scholarship',
    layout: 'facebook',
    from: 'CHED Scholarship 2026',
    bubbles: [
      {
        text: 'Libreng scholarship para sa college students! I-fill up ang form: forms.gle/ChEdScholar2026 at i-send ang P300 sa 0995 118 2204 para sa processing.',
      },
    ],
  },
  {
    id: 'unionbank-link',
    layout: 'sms',
    from: 'UnionBank',
    bubbles: [
      {
        text: 'UnionBank: Your account is locked. Unlock it at https://unionbank-unlock-ph.com/account?ref=77812 within 2 hours.',
      },
    ],
  },
  // Ordinary messages (some with identifiers that are simply not reported).
  {
    id: 'gcash-receipt',
    layout: 'sms',
    from: 'GCash',
    bubbles: [
      {
        text: 'You have received PHP 500.00 of GCash from JU** DE* C. 09171234567. Your new balance is PHP 1,240.50. Ref. No. 9012 345 678901.',
      },
    ],
  },
  {
    id: 'bank-otp',
    layout: 'sms',
    from: 'BPI',
    bubbles: [
      {
        text: 'Your BPI OTP is 482913. Never share this with anyone, including BPI staff. Valid for 5 minutes.',
      },
    ],
  },
  {
    id: 'family-chat',
    layout: 'messenger',
    from: 'Tita Baby',
    bubbles: [
      { text: 'Anak, nakauwi ka na ba? Bukas ng 7 ang misa.' },
      { text: 'Opo Tita, sunduin ko po kayo ng 6:30.', mine: true },
      { text: 'Sige, salamat! Ingat sa daan.' },
    ],
  },
  {
    id: 'courier-update',
    layout: 'sms',
    from: 'J&T Express',
    bubbles: [
      {
        text: 'J&T: Your parcel 820011934455 is out for delivery today. Rider: Mark, 0917 223 0456. Track at jtexpress.ph',
      },
    ],
  },
  {
    id: 'office-mail',
    layout: 'email',
    from: 'Ana Reyes <ana.reyes@example.com>',
    bubbles: [
      { text: 'Hi team,' },
      {
        text: 'The meeting moves to 3 PM tomorrow. The slides are at https://docs.example.com/q4-plan. Call me at 0918 765 4321 if you cannot join.',
      },
    ],
  },
  {
    id: 'telco-promo',
    layout: 'sms',
    from: 'Globe',
    bubbles: [
      {
        text: 'Enjoy GoSURF50 with 3GB for 3 days! Dial *143# or visit globe.com.ph/go to register. Reply STOP to unsubscribe.',
      },
    ],
  },
  {
    id: 'barkada-plan',
    layout: 'viber',
    from: 'Barkada Outing',
    bubbles: [
      { text: 'G na ba sa Sabado? Beach tayo sa Batangas!' },
      { text: 'G! Ako na sa baon. Ambagan tayo 500 each sa GCash ko 0926 118 4477', mine: true },
      { text: 'Sige sige, send ko mamaya.' },
    ],
  },
  {
    id: 'doctor-appointment',
    layout: 'sms',
    from: 'St. Luke\u2019s',
    bubbles: [
      {
        text: 'Reminder: Your appointment with Dr. Cruz is on Dec 3, 10:00 AM. To reschedule call (02) 8789 7700 or visit stlukes.com.ph',
      },
    ],
  },
  {
    id: 'school-notice',
    layout: 'facebook',
    from: 'San Roque Elementary School',
    bubbles: [
      {
        text: 'Walang pasok bukas, Nobyembre 28, dahil sa bagyo. Mag-ingat po tayong lahat. Para sa tanong, e-mail sanroque.es@deped.gov.ph',
      },
    ],
  },
  {
    id: 'seller-legit',
    layout: 'messenger',
    from: 'Ate Lorna Kakanin',
    bubbles: [
      { text: 'Order ko po 2 bilao ng puto, Sabado pick up.', mine: true },
      { text: 'Noted po! 700 total. Bayad pagkuha na lang po. Address: 12 Mabini St.' },
    ],
  },
  {
    id: 'shopee-order',
    layout: 'email',
    from: 'Shopee <info@mail.shopee.ph>',
    bubbles: [
      { text: 'Your order 2611270AB4CD has been shipped.' },
      { text: 'Track it in the Shopee app or at shopee.ph/user/purchase. Thank you for shopping with us!' },
    ],
  },
  {
    id: 'landlord',
    layout: 'telegram',
    from: 'Mang Ben (landlord)',
    bubbles: [
      { text: 'Good morning, due na ang upa sa Dec 5. Pwede bank transfer or cash.' },
      { text: 'Sige po Mang Ben, transfer ko sa Dec 4.', mine: true },
    ],
  },
  {
    id: 'church-group',
    layout: 'viber',
    from: 'Youth Ministry',
    bubbles: [
      { text: 'Practice for Simbang Gabi: Monday 7PM sa chapel. Bring your own water.' },
      { text: 'Details at youthministry-sanjose.org/schedule' },
    ],
  },
  {
    id: 'pldt-bill',
    layout: 'email',
    from: 'PLDT Home <billing@pldthome.com>',
    bubbles: [
      {
        text: 'Your November bill of PHP 1,699.00 is due on Dec 10. Pay through the PLDT Home app or at pldthome.com/paybill.',
      },
    ],
  },
  {
    id: 'grab-driver',
    layout: 'sms',
    from: '0919 334 5521',
    bubbles: [{ text: 'Grab driver here, nasa labas na po ako ng gate. White Vios, plate NBC 1234.' }],
  },
  {
    id: 'scam-taglish-otp',
    layout: 'telegram',
    from: 'GCash Customer Care',
    bubbles: [
      {
        text: 'Sir, para ma-cancel yung unauthorized transaction, i-send nyo lang po yung 6-digit OTP na natanggap nyo. Wag nyo po sabihin kahit kanino.',
      },
      { text: 'Or call our hotline 0962 441 9980.' },
    ],
  },
  {
    id: 'scam-investment-fb',
    layout: 'facebook',
    from: 'Pera Padala Investment',
    bubbles: [
      {
        text: 'Invest 1,000 get 10,000 in 7 days! 100% legit, many members paid already. Message us at m.me/perapadalainvest or 0935 778 2210.',
      },
    ],
  },
];

/** The text of a message as the image shows it (header, then each bubble). */
export function messageText(m: TestMessage): string {
  return [m.from, ...m.bubbles.map((b) => b.text)].join('\n');
}
