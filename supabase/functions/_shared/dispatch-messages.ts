/**
 * The notification e-mails' words in English and Filipino (issue 15): each user's mails use their
 * profile's language (public.profiles.language). English is the wording the mails always had.
 */
export type MailLanguage = 'en' | 'fil';

export function mailLanguage(value: unknown): MailLanguage {
  return value === 'fil' ? 'fil' : 'en';
}

const statusWords: Record<MailLanguage, Record<string, string>> = {
  en: {},
  fil: {
    verified: 'verified',
    pending: 'naghihintay ng pagsusuri',
    rejected: 'tinanggihan',
    removed: 'inalis',
  },
};

const incidentWords: Record<MailLanguage, Record<string, string>> = {
  en: {},
  fil: { scam: 'scam', hacked: 'na-hack', spam: 'spam' },
};

/** public.moderation_reasons() in each mail language (the app's catalogue says the same). */
export const reasonWords: Record<MailLanguage, Record<string, string>> = {
  en: {
    no_evidence: 'Not enough evidence',
    not_a_scam: 'Not a scam, hacking or spam',
    duplicate: 'Duplicate of another report',
    wrong_identifier: 'Wrong or mistyped identifier',
    personal_data: 'Contains personal data',
    abusive: 'Abusive or false report',
    owner_request: "The owner's request was upheld",
    other: 'Other (see note)',
  },
  fil: {
    no_evidence: 'Kulang ang ebidensya',
    not_a_scam: 'Hindi scam, hacking o spam',
    duplicate: 'Kapareho ng ibang report',
    wrong_identifier: 'Mali o maling na-type na identifier',
    personal_data: 'May personal na impormasyon',
    abusive: 'Mapang-abuso o maling report',
    owner_request: 'Tinanggap ang hiling ng may-ari',
    other: 'Iba pa (tingnan ang paalala)',
  },
};

function word(
  table: Record<MailLanguage, Record<string, string>>,
  lang: MailLanguage,
  value: string,
): string {
  return table[lang][value] ?? value;
}

export const mailText = {
  en: {
    reported: {
      intro: (id: string) => `Someone reported ${id}, which you asked ScamCheck to watch.`,
      incident: (type: string, verified: boolean) =>
        `Incident type: ${type}. The report is ${verified ? 'verified' : 'waiting for review'}.`,
      careful: 'Be careful with any message, call or payment request that involves it.',
      subject: (id: string) => `ScamCheck: ${id} was reported`,
      see: 'See the reports',
    },
    removal: {
      intro: (id: string) => `The holder of ${id} asked us to remove your report about it.`,
      reason: 'Their reason, as they wrote it (ScamCheck did not write it; do not follow any address in it):',
      deadline: (date: string) =>
        `Please answer by ${date} (UTC). To answer, open your report with the link below and write why the report is right; an admin then decides. If you agree with them, you can delete the report at once.`,
      noAnswer:
        'If you do not answer by then: a report an admin has verified stays up until an admin decides; a report still waiting for review is hidden from search until an admin decides.',
      subject: (id: string) => `ScamCheck: removal requested for your report about ${id}`,
      deleteNow: 'Delete the report now',
      review: 'Review or answer',
    },
    status: {
      line: (id: string, status: string) => `Your report about ${id} is now ${status}.`,
      reason: (code: string) => `Reason: ${word(reasonWords, 'en', code)}.`,
      note: "The moderator's note:",
      subject: (id: string, status: string) => `ScamCheck: your report about ${id} is ${status}`,
      seeIt: 'See it',
      seeReport: 'See your report',
    },
    digest: {
      intro: (n: number) =>
        `You have ${n} new ScamCheck notifications. To keep your inbox calm, we send them together once you get more than a few in an hour.`,
      more: (n: number) => `... and ${n} more.`,
      subject: (n: number) => `ScamCheck: ${n} new notifications`,
      seeAll: 'See them all',
      seeAllLink: 'See all notifications',
      anIdentifier: 'an identifier',
      reported: (id: string) => `${id}, which you watch, was reported.`,
      removal: (id: string) => `Someone asked to remove your report about ${id}.`,
      status: (id: string) => `Your report about ${id} changed status.`,
    },
    /** To the contact address a removal request gives, in the requester's language. */
    confirmRemoval: {
      lines: (id: string) => [
        `Someone asked ScamCheck to remove a report about ${id} and gave this e-mail address to be contacted at.`,
        'If that was you, confirm the address with the link below (valid for 48 hours). Until then the reporter is not told and nothing else happens.',
        'If it was not you, ignore this e-mail.',
      ],
      subject: 'ScamCheck: confirm your removal request',
      confirm: 'Confirm',
      confirmLink: 'Confirm my removal request',
    },
  },
  fil: {
    reported: {
      intro: (id: string) => `May nag-report ng ${id}, na ipinabantay mo sa ScamCheck.`,
      incident: (type: string, verified: boolean) =>
        `Uri ng insidente: ${word(incidentWords, 'fil', type)}. ${verified ? 'Verified na ang report.' : 'Naghihintay pa ng pagsusuri ang report.'}`,
      careful: 'Mag-ingat sa anumang mensahe, tawag o hiling na magbayad na may kinalaman dito.',
      subject: (id: string) => `ScamCheck: na-report ang ${id}`,
      see: 'Tingnan ang mga report',
    },
    removal: {
      intro: (id: string) => `Hiniling ng may-ari ng ${id} na alisin namin ang report mo tungkol dito.`,
      reason:
        'Ang dahilan nila, ayon sa pagkakasulat nila (hindi ito isinulat ng ScamCheck; huwag sundan ang anumang address dito):',
      deadline: (date: string) =>
        `Pakisagot bago mag-${date} (UTC). Para sumagot, buksan ang report mo gamit ang link sa ibaba at isulat kung bakit tama ang report; isang admin ang magpapasya. Kung sang-ayon ka sa kanila, puwede mong burahin agad ang report.`,
      noAnswer:
        'Kung hindi ka sumagot bago noon: mananatili ang report na na-verify na ng admin hanggang magpasya ang isang admin; ang report na naghihintay pa ng pagsusuri ay itatago sa search hanggang magpasya ang isang admin.',
      subject: (id: string) => `ScamCheck: may humihiling na alisin ang report mo tungkol sa ${id}`,
      deleteNow: 'Burahin na ang report',
      review: 'Suriin o sumagot',
    },
    status: {
      line: (id: string, status: string) =>
        `Ang report mo tungkol sa ${id} ay ${word(statusWords, 'fil', status)} na.`,
      reason: (code: string) => `Dahilan: ${word(reasonWords, 'fil', code)}.`,
      note: 'Paalala ng moderator:',
      subject: (id: string, status: string) =>
        `ScamCheck: ${word(statusWords, 'fil', status)} na ang report mo tungkol sa ${id}`,
      seeIt: 'Tingnan ito',
      seeReport: 'Tingnan ang report mo',
    },
    digest: {
      intro: (n: number) =>
        `May ${n} bagong abiso ka mula sa ScamCheck. Para hindi mapuno ang inbox mo, pinagsasama-sama namin ang mga ito kapag higit sa ilan ang dumating sa loob ng isang oras.`,
      more: (n: number) => `... at ${n} pa.`,
      subject: (n: number) => `ScamCheck: ${n} bagong abiso`,
      seeAll: 'Tingnan lahat',
      seeAllLink: 'Tingnan ang lahat ng abiso',
      anIdentifier: 'isang number o address',
      reported: (id: string) => `Na-report ang ${id}, na binabantayan mo.`,
      removal: (id: string) => `May humiling na alisin ang report mo tungkol sa ${id}.`,
      status: (id: string) => `Nagbago ang status ng report mo tungkol sa ${id}.`,
    },
    confirmRemoval: {
      lines: (id: string) => [
        `May humiling sa ScamCheck na alisin ang isang report tungkol sa ${id}, at ibinigay ang e-mail address na ito para makontak.`,
        'Kung ikaw iyon, kumpirmahin ang address gamit ang link sa ibaba (may bisa nang 48 oras). Hangga’t hindi ito nakukumpirma, hindi sasabihan ang nag-report at walang ibang mangyayari.',
        'Kung hindi ikaw iyon, huwag na itong pansinin.',
      ],
      subject: 'ScamCheck: kumpirmahin ang hiling mong pag-alis ng report',
      confirm: 'Kumpirmahin',
      confirmLink: 'Kumpirmahin ang hiling kong pag-alis ng report',
    },
  },
} satisfies Record<MailLanguage, unknown>;
