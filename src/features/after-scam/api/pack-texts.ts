/**
 * The complaint pack's words in English and Filipino. They live here rather than in the app's
 * catalogues because a pack is written in the language the victim chooses for it, whatever language the
 * app is shown in, and both must be at hand on the device without loading the other catalogue.
 * Official numbers and addresses are the ones in public.after_scam_steps (see its migration's sources).
 */
import type { IdentifierKind } from '@/lib/canonical';

interface ScriptArgs {
  name: string;
  date: string;
  what: string;
  identifier: string;
  amount: string;
}

const en = {
  title: 'Complaint pack',
  canonical: 'canonical',
  kinds: {
    mobile: 'Mobile number',
    email: 'E-mail',
    website: 'Website',
    ewallet: 'E-wallet',
    crypto: 'Crypto address',
    social: 'Social media / chat account',
  } satisfies Record<IdentifierKind, string>,
  incidentTypes: { scam: 'Scam', hacked: 'Hacked account', spam: 'Spam' },
  reference: 'Reference no.',
  amount: 'Amount',
  when: 'Date and time',
  sentTo: 'Sent to',
  notGiven: 'not given',
  annex: 'Annex',
  name: 'Name',
  phone: 'Mobile number',
  email: 'E-mail',
  address: 'Address',
  victim: 'Complainant (victim)',
  incident: 'What happened',
  incidentDate: 'Date of the incident',
  incidentTypeLabel: 'Kind of incident',
  identifiers: "The scammer's numbers, accounts and links",
  money: 'Money lost',
  totalLost: 'Total lost',
  timeline: 'Timeline',
  evidenceHeading: 'Evidence',
  noEvidence: 'No images attached.',
  scamCheckReport: 'ScamCheck report',
  facts: {
    title: 'The facts',
    subtitle: 'Made on your device by ScamCheck. Check every line before you send or sign it.',
  },
  cicc: {
    title: 'CICC: hotline 1326 and eComplaint',
    subtitle:
      'Call 1326 (Inter-Agency Response Center, day and night) or file online at cicc.gov.ph / eGov PH app eReport.',
    script: 'What to say on the phone',
    scriptText: (a: ScriptArgs) =>
      `"My name is ${a.name}. On ${a.date} I was the victim of a ${a.what}. The scammer used ${a.identifier}. I lost ${a.amount}. I have the reference numbers and screenshots, and I have reported it to my bank or e-wallet. Please give me a reference number for this report."`,
    fields: 'eComplaint form, field by field',
    suspect: "Suspect's numbers, accounts or links",
    transactions: 'Transactions',
    narrative: 'Narrative',
    attachments: 'Attachments',
  },
  affidavit: {
    complainant: '1. Complainant',
    respondent: '2. Respondent',
    respondentText: 'A person whose name I do not know, who used the following:',
    facts: '3. Facts, in the order they happened',
    loss: '4. Loss',
    annexes: '5. Evidence attached',
    prayer: '6. What I ask',
    prayerText:
      'I ask that the persons behind these numbers and accounts be identified and charged under the Cybercrime Prevention Act (RA 10175) and the Anti-Financial Account Scamming Act (RA 12010), and that my money be recovered.',
    bring:
      'Bring: one valid ID, this outline, the printed evidence and receipts. The affidavit is signed and sworn before the officer who takes it.',
  },
  pnp: {
    title: 'PNP Anti-Cybercrime Group: complaint outline',
    subtitle:
      'File at a PNP-ACG office or regional unit (acg.pnp.gov.ph). The officer writes the complaint-affidavit with you from this outline.',
  },
  nbi: {
    title: 'NBI Cybercrime Division: complaint outline',
    subtitle:
      'File at the NBI Cybercrime Division or an NBI regional office (nbi.gov.ph), with the same outline.',
  },
  ntc: {
    title: 'NTC: scam text message',
    subtitle:
      'For scams that came by text. Send to the National Telecommunications Commission (ntc.gov.ph) and your network.',
    sender: "Sender's number",
    noSender: 'not a mobile number (see the facts page)',
    received: 'Date received',
    message: 'The message as received',
    screenshots: 'Screenshots',
    ask: 'I ask that the SIM registered to this number be traced and blocked under the SIM Registration Act (RA 11934).',
  },
  bank: {
    title: 'Letter to your bank or e-wallet: disputed transaction',
    subtitle:
      "Send through the bank's or e-wallet's official app, hotline or e-mail, today. Keep the reference number they give you.",
    yourInstitution: 'my bank or e-wallet',
    to: (institution: string) => `To: ${institution}, Fraud and Disputes team`,
    re: 'Re: Disputed transactions; request to hold the funds under RA 12010',
    opening: (name: string, account: string) =>
      `I, ${name}, holder of account ${account}, report that the transactions below were made because I was deceived by a scammer. I dispute them.`,
    facts: (date: string, amount: string) => `On ${date} I transferred a total of ${amount}:`,
    noTransactions: 'The reference numbers are on the receipts attached.',
    recipients: "The scammer's accounts and numbers:",
    requests: 'Under Republic Act No. 12010, the Anti-Financial Account Scamming Act, I ask you to:',
    requestItems: [
      'temporarily hold the disputed funds, in the receiving account and wherever they were sent, for up to 30 days as RA 12010 allows, while you verify the transactions;',
      'coordinate with the receiving bank or e-wallet to hold and return the funds;',
      'give me the reference number of this dispute and tell me in writing what you did and found.',
    ],
    evidence: (n: number) =>
      `I attach ${n} screenshot(s) and receipt(s), listed in the pack with their SHA-256 fingerprints.`,
    bsp: 'If this is not resolved, I will bring it to the Bangko Sentral ng Pilipinas through its Consumer Assistance Mechanism (BSP Online Buddy at bsp.gov.ph, consumeraffairs@bsp.gov.ph).',
    closing: 'Sincerely,',
  },
  evidencePage: {
    title: 'Evidence',
    subtitle:
      'Each image with the SHA-256 fingerprint of its file: a changed file would give a different fingerprint.',
  },
};

export type PackTexts = typeof en;

const fil: PackTexts = {
  title: 'Complaint pack',
  canonical: 'canonical',
  kinds: {
    mobile: 'Mobile number',
    email: 'E-mail',
    website: 'Website',
    ewallet: 'E-wallet',
    crypto: 'Crypto address',
    social: 'Account sa social media / chat',
  },
  incidentTypes: { scam: 'Scam', hacked: 'Na-hack na account', spam: 'Spam' },
  reference: 'Reference no.',
  amount: 'Halaga',
  when: 'Petsa at oras',
  sentTo: 'Ipinadala sa',
  notGiven: 'hindi ibinigay',
  annex: 'Annex',
  name: 'Pangalan',
  phone: 'Mobile number',
  email: 'E-mail',
  address: 'Tirahan',
  victim: 'Nagrereklamo (biktima)',
  incident: 'Ang nangyari',
  incidentDate: 'Petsa ng insidente',
  incidentTypeLabel: 'Uri ng insidente',
  identifiers: 'Mga numero, account at link ng scammer',
  money: 'Nawalang pera',
  totalLost: 'Kabuuang nawala',
  timeline: 'Pagkakasunod-sunod ng pangyayari',
  evidenceHeading: 'Ebidensya',
  noEvidence: 'Walang nakalakip na larawan.',
  scamCheckReport: 'Report sa ScamCheck',
  facts: {
    title: 'Ang mga detalye',
    subtitle: 'Ginawa sa iyong device ng ScamCheck. Suriin ang bawat linya bago ipadala o pirmahan.',
  },
  cicc: {
    title: 'CICC: hotline 1326 at eComplaint',
    subtitle:
      'Tumawag sa 1326 (Inter-Agency Response Center, araw at gabi) o mag-file online sa cicc.gov.ph / eReport ng eGov PH app.',
    script: 'Ang sasabihin sa telepono',
    scriptText: (a: ScriptArgs) =>
      `"Ako si ${a.name}. Noong ${a.date}, naging biktima ako ng ${a.what}. Ginamit ng scammer ang ${a.identifier}. Nawalan ako ng ${a.amount}. Nasa akin ang mga reference number at screenshot, at nai-report ko na ito sa aking bangko o e-wallet. Pakibigyan po ako ng reference number para sa report na ito."`,
    fields: 'eComplaint form, bawat field',
    suspect: 'Mga numero, account o link ng suspek',
    transactions: 'Mga transaksyon',
    narrative: 'Salaysay',
    attachments: 'Mga kalakip',
  },
  affidavit: {
    complainant: '1. Nagrereklamo',
    respondent: '2. Inirereklamo',
    respondentText: 'Isang taong hindi ko alam ang pangalan, na gumamit ng mga sumusunod:',
    facts: '3. Mga pangyayari, ayon sa pagkakasunod-sunod',
    loss: '4. Nawala',
    annexes: '5. Mga nakalakip na ebidensya',
    prayer: '6. Ang hinihiling ko',
    prayerText:
      'Hinihiling kong matukoy at makasuhan ang mga nasa likod ng mga numero at account na ito sa ilalim ng Cybercrime Prevention Act (RA 10175) at ng Anti-Financial Account Scamming Act (RA 12010), at mabawi ang aking pera.',
    bring:
      'Dalhin: isang valid ID, ang outline na ito, ang naka-print na ebidensya at mga resibo. Pipirmahan at susumpaan ang affidavit sa harap ng opisyal na tatanggap nito.',
  },
  pnp: {
    title: 'PNP Anti-Cybercrime Group: outline ng reklamo',
    subtitle:
      'Mag-file sa opisina o regional unit ng PNP-ACG (acg.pnp.gov.ph). Isusulat ng opisyal ang complaint-affidavit kasama mo mula sa outline na ito.',
  },
  nbi: {
    title: 'NBI Cybercrime Division: outline ng reklamo',
    subtitle:
      'Mag-file sa NBI Cybercrime Division o sa regional office ng NBI (nbi.gov.ph), gamit ang parehong outline.',
  },
  ntc: {
    title: 'NTC: scam na text message',
    subtitle:
      'Para sa scam na dumating sa text. Ipadala sa National Telecommunications Commission (ntc.gov.ph) at sa iyong network.',
    sender: 'Numero ng nagpadala',
    noSender: 'hindi mobile number (tingnan ang pahina ng mga detalye)',
    received: 'Petsa ng pagtanggap',
    message: 'Ang mensahe kung paano natanggap',
    screenshots: 'Mga screenshot',
    ask: 'Hinihiling kong ma-trace at ma-block ang SIM na nakarehistro sa numerong ito sa ilalim ng SIM Registration Act (RA 11934).',
  },
  bank: {
    title: 'Sulat sa iyong bangko o e-wallet: pinagtatalunang transaksyon',
    subtitle:
      'Ipadala ngayon sa opisyal na app, hotline o e-mail ng bangko o e-wallet. Itago ang reference number na ibibigay nila.',
    yourInstitution: 'aking bangko o e-wallet',
    to: (institution: string) => `Para sa: ${institution}, Fraud and Disputes team`,
    re: 'Tungkol sa: Pinagtatalunang transaksyon; hiling na i-hold ang pondo sa ilalim ng RA 12010',
    opening: (name: string, account: string) =>
      `Ako si ${name}, may-ari ng account ${account}. Iniuulat ko na ang mga transaksyon sa ibaba ay nagawa dahil nalinlang ako ng isang scammer. Tinututulan ko ang mga ito.`,
    facts: (date: string, amount: string) => `Noong ${date}, nagpadala ako ng kabuuang ${amount}:`,
    noTransactions: 'Nasa mga nakalakip na resibo ang mga reference number.',
    recipients: 'Ang mga account at numero ng scammer:',
    requests:
      'Sa ilalim ng Republic Act No. 12010, ang Anti-Financial Account Scamming Act, hinihiling ko na:',
    requestItems: [
      'pansamantalang i-hold ang pinagtatalunang pondo, sa tumanggap na account at saanman ito ipinadala, nang hanggang 30 araw gaya ng pinapayagan ng RA 12010, habang bine-verify ninyo ang mga transaksyon;',
      'makipag-ugnayan sa tumanggap na bangko o e-wallet para i-hold at ibalik ang pondo;',
      'bigyan ako ng reference number ng reklamong ito at ipaalam sa akin nang nakasulat ang inyong ginawa at natuklasan.',
    ],
    evidence: (n: number) =>
      `Kalakip ang ${n} screenshot at resibo, nakalista sa pack kasama ang kanilang SHA-256 fingerprint.`,
    bsp: 'Kung hindi ito maaayos, dadalhin ko ito sa Bangko Sentral ng Pilipinas sa pamamagitan ng Consumer Assistance Mechanism nito (BSP Online Buddy sa bsp.gov.ph, consumeraffairs@bsp.gov.ph).',
    closing: 'Lubos na gumagalang,',
  },
  evidencePage: {
    title: 'Ebidensya',
    subtitle:
      'Bawat larawan kasama ang SHA-256 fingerprint ng file nito: iba ang magiging fingerprint kapag binago ang file.',
  },
};

export const packTexts: Record<'en' | 'fil', PackTexts> = { en, fil };
