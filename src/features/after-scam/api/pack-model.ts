/**
 * The complaint pack's content (issue 33): one page of facts, then one page per recipient in the shape
 * that recipient asks for, then the evidence. Built on the device from PackInput; pack-text.ts writes it
 * as plain text and pack-pdf.ts as a PDF. Nothing here leaves the device.
 *
 * The recipients' requirements were written without internet access, from their published pages as
 * known at the time; each page's builder names its source. They are the shape of each complaint, not
 * legal advice, and should be checked against the sources when the pack is reviewed.
 */
import { canonicalIdentifier } from '@/lib/canonical';
import type { PackInput, PackLanguage } from './pack-input';
import { packTexts, type PackTexts } from './pack-texts';

export type PackBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'para'; text: string }
  | { kind: 'field'; label: string; value: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'mono'; text: string };

export interface PackPage {
  id: 'facts' | 'cicc' | 'pnp' | 'nbi' | 'ntc' | 'bank' | 'evidence';
  title: string;
  /** Who the page is for and how to send it, under the title. */
  subtitle: string;
  blocks: PackBlock[];
}

export interface PackDocument {
  language: PackLanguage;
  title: string;
  /** The word for an attached exhibit ('Annex'), which numbers the evidence. */
  annex: string;
  pages: PackPage[];
}

/** Pesos as the pack writes them: 'PHP 15,000.00' (the peso sign is not in the PDF's standard fonts). */
export function pesos(value: number): string {
  return `PHP ${new Intl.NumberFormat('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)}`;
}

/** Every identifier as the victim wrote it and in ScamCheck's canonical form (what search matches). */
export function identifierLines(input: PackInput, t: PackTexts): string[] {
  return input.identifiers.map(({ kind, written }) => {
    const canonical = canonicalIdentifier(kind, written);
    const shown = canonical && canonical !== written ? `${written}  (${t.canonical}: ${canonical})` : written;
    return `${t.kinds[kind]}: ${shown}`;
  });
}

function orDash(value: string): string {
  return value.trim() || '—';
}

function transactionLines(input: PackInput, t: PackTexts): string[] {
  return input.transactions.map((tx, i) =>
    [
      `${i + 1}. ${t.reference}: ${orDash(tx.reference)}`,
      `${t.amount}: ${orDash(tx.amount)}`,
      `${t.when}: ${orDash(tx.when)}`,
      `${t.sentTo}: ${orDash(tx.to)}`,
    ].join(' · '),
  );
}

function totalLost(input: PackInput, t: PackTexts): string {
  return input.amountLost == null ? t.notGiven : pesos(input.amountLost);
}

function timelineLines(input: PackInput, t: PackTexts): string[] {
  return [
    `${input.incidentDate}: ${t.incidentTypes[input.incidentType]}`,
    ...input.timeline.map((e) => `${orDash(e.when)}: ${orDash(e.what)}`),
  ];
}

function evidenceLines(input: PackInput, t: PackTexts): string[] {
  return input.evidence.map((e, i) => `${t.annex} ${i + 1}: ${e.name} (${e.bytes} bytes)`);
}

function victimFields(input: PackInput, t: PackTexts): PackBlock[] {
  return [
    { kind: 'field', label: t.name, value: orDash(input.victim.name) },
    { kind: 'field', label: t.phone, value: orDash(input.victim.phone) },
    { kind: 'field', label: t.email, value: orDash(input.victim.email) },
    { kind: 'field', label: t.address, value: orDash(input.victim.address) },
  ];
}

function facts(input: PackInput, t: PackTexts): PackPage {
  return {
    id: 'facts',
    title: t.facts.title,
    subtitle: t.facts.subtitle,
    blocks: [
      { kind: 'heading', text: t.victim },
      ...victimFields(input, t),
      { kind: 'heading', text: t.incident },
      { kind: 'field', label: t.incidentDate, value: input.incidentDate },
      { kind: 'field', label: t.incidentTypeLabel, value: t.incidentTypes[input.incidentType] },
      { kind: 'para', text: orDash(input.description) },
      { kind: 'heading', text: t.identifiers },
      { kind: 'list', items: identifierLines(input, t) },
      { kind: 'heading', text: t.money },
      { kind: 'field', label: t.totalLost, value: totalLost(input, t) },
      ...(input.transactions.length ? [{ kind: 'list' as const, items: transactionLines(input, t) }] : []),
      { kind: 'heading', text: t.timeline },
      { kind: 'list', items: timelineLines(input, t) },
      { kind: 'heading', text: t.evidenceHeading },
      input.evidence.length
        ? {
            kind: 'list',
            items: input.evidence.map((e, i) => `${t.annex} ${i + 1}: ${e.name}, SHA-256 ${e.sha256}`),
          }
        : { kind: 'para', text: t.noEvidence },
      ...(input.reportId
        ? [{ kind: 'field' as const, label: t.scamCheckReport, value: input.reportId }]
        : []),
    ],
  };
}

/**
 * CICC: the 1326 hotline (Inter-Agency Response Center) and the online eComplaint form.
 * Source: Cybercrime Investigation and Coordinating Center, https://cicc.gov.ph (1326 hotline and
 * "Report a cybercrime" / eComplaint: complainant's name and contact details, date and time of the
 * incident, kind of incident, platform or account used, the suspect's numbers/accounts/links, the amount,
 * a narrative and attachments), and eGov PH app eReport, https://e.gov.ph.
 */
function cicc(input: PackInput, t: PackTexts): PackPage {
  const first = input.identifiers[0];
  return {
    id: 'cicc',
    title: t.cicc.title,
    subtitle: t.cicc.subtitle,
    blocks: [
      { kind: 'heading', text: t.cicc.script },
      {
        kind: 'para',
        text: t.cicc.scriptText({
          name: orDash(input.victim.name),
          date: input.incidentDate,
          what: t.incidentTypes[input.incidentType].toLowerCase(),
          identifier: first ? `${t.kinds[first.kind].toLowerCase()} ${first.written}` : '—',
          amount: totalLost(input, t),
        }),
      },
      { kind: 'heading', text: t.cicc.fields },
      ...victimFields(input, t),
      { kind: 'field', label: t.incidentDate, value: input.incidentDate },
      { kind: 'field', label: t.incidentTypeLabel, value: t.incidentTypes[input.incidentType] },
      { kind: 'field', label: t.cicc.suspect, value: identifierLines(input, t).join('; ') || '—' },
      { kind: 'field', label: t.totalLost, value: totalLost(input, t) },
      { kind: 'field', label: t.cicc.transactions, value: transactionLines(input, t).join('; ') || '—' },
      { kind: 'field', label: t.cicc.narrative, value: orDash(input.description) },
      { kind: 'field', label: t.cicc.attachments, value: evidenceLines(input, t).join('; ') || '—' },
    ],
  };
}

/**
 * A complaint-affidavit's outline, as the PNP Anti-Cybercrime Group and the NBI Cybercrime Division take
 * a walk-in complaint: the complainant's personal circumstances, the respondent (here unknown, known by
 * the identifiers), the facts in the order they happened, the loss, the annexed evidence, and what is
 * asked. Sources: PNP-ACG, https://acg.pnp.gov.ph ("How to file a cybercrime complaint": valid ID,
 * complaint-affidavit, printed screenshots and receipts); NBI, https://nbi.gov.ph (Cybercrime Division,
 * complaint with sworn statement and evidence). The affidavit is sworn before the officer who takes it.
 */
function affidavit(id: 'pnp' | 'nbi', input: PackInput, t: PackTexts): PackPage {
  const office = id === 'pnp' ? t.pnp : t.nbi;
  return {
    id,
    title: office.title,
    subtitle: office.subtitle,
    blocks: [
      { kind: 'heading', text: t.affidavit.complainant },
      ...victimFields(input, t),
      { kind: 'heading', text: t.affidavit.respondent },
      { kind: 'para', text: t.affidavit.respondentText },
      { kind: 'list', items: identifierLines(input, t) },
      { kind: 'heading', text: t.affidavit.facts },
      { kind: 'list', items: timelineLines(input, t) },
      { kind: 'para', text: orDash(input.description) },
      { kind: 'heading', text: t.affidavit.loss },
      { kind: 'field', label: t.totalLost, value: totalLost(input, t) },
      ...(input.transactions.length ? [{ kind: 'list' as const, items: transactionLines(input, t) }] : []),
      { kind: 'heading', text: t.affidavit.annexes },
      input.evidence.length
        ? { kind: 'list', items: evidenceLines(input, t) }
        : { kind: 'para', text: t.noEvidence },
      { kind: 'heading', text: t.affidavit.prayer },
      { kind: 'para', text: t.affidavit.prayerText },
      { kind: 'para', text: t.affidavit.bring },
    ],
  };
}

/**
 * NTC, for scam texts: the sender's number, when it arrived, the message as received and a screenshot.
 * Source: National Telecommunications Commission, https://ntc.gov.ph (consumer complaints), and the SIM
 * Registration Act, RA 11934, which ties each SIM to a registered owner.
 */
function ntc(input: PackInput, t: PackTexts): PackPage {
  const senders = input.identifiers.filter((i) => i.kind === 'mobile');
  return {
    id: 'ntc',
    title: t.ntc.title,
    subtitle: t.ntc.subtitle,
    blocks: [
      ...victimFields(input, t),
      {
        kind: 'field',
        label: t.ntc.sender,
        value: senders.map((s) => s.written).join(', ') || t.ntc.noSender,
      },
      { kind: 'field', label: t.ntc.received, value: input.incidentDate },
      { kind: 'field', label: t.ntc.message, value: orDash(input.description) },
      { kind: 'field', label: t.ntc.screenshots, value: evidenceLines(input, t).join('; ') || '—' },
      { kind: 'para', text: t.ntc.ask },
    ],
  };
}

/**
 * The dispute letter to the victim's bank or e-wallet (GCash, Maya, a bank): the disputed transfers with
 * their reference numbers, and the request to hold the funds that RA 12010, the Anti-Financial Account
 * Scamming Act (2024), lets institutions hold for up to 30 days while a disputed transaction is
 * verified; then the Bangko Sentral's consumer channel as the next step.
 * Sources: RA 12010, https://lawphil.net/statutes/repacts/ra2024/ra_12010_2024.html (temporary holding
 * of funds subject of a disputed transaction); BSP Consumer Assistance Mechanism,
 * https://www.bsp.gov.ph/SitePages/ConsumerProtection.aspx (BSP Online Buddy, consumeraffairs@bsp.gov.ph).
 */
function bank(input: PackInput, t: PackTexts): PackPage {
  const institution = input.institution.name.trim() || t.bank.yourInstitution;
  return {
    id: 'bank',
    title: t.bank.title,
    subtitle: t.bank.subtitle,
    blocks: [
      { kind: 'para', text: input.madeAt.toISOString().slice(0, 10) },
      { kind: 'para', text: t.bank.to(institution) },
      { kind: 'heading', text: t.bank.re },
      {
        kind: 'para',
        text: t.bank.opening(orDash(input.victim.name), orDash(input.institution.victimAccount)),
      },
      { kind: 'para', text: t.bank.facts(input.incidentDate, totalLost(input, t)) },
      ...(input.transactions.length
        ? [{ kind: 'list' as const, items: transactionLines(input, t) }]
        : [{ kind: 'para' as const, text: t.bank.noTransactions }]),
      { kind: 'para', text: t.bank.recipients },
      { kind: 'list', items: identifierLines(input, t) },
      { kind: 'para', text: t.bank.requests },
      {
        kind: 'list',
        items: t.bank.requestItems,
      },
      { kind: 'para', text: t.bank.evidence(input.evidence.length) },
      { kind: 'para', text: t.bank.bsp },
      { kind: 'para', text: t.bank.closing },
      ...victimFields(input, t),
    ],
  };
}

function evidencePage(input: PackInput, t: PackTexts): PackPage {
  return {
    id: 'evidence',
    title: t.evidencePage.title,
    subtitle: t.evidencePage.subtitle,
    blocks: input.evidence.flatMap((e, i): PackBlock[] => [
      { kind: 'heading', text: `${t.annex} ${i + 1}: ${e.name} (${e.bytes} bytes)` },
      { kind: 'mono', text: `SHA-256 ${e.sha256}` },
    ]),
  };
}

/** The pack in its language: the facts, CICC, PNP-ACG, NBI, NTC, the bank or e-wallet, the evidence. */
export function buildPack(input: PackInput): PackDocument {
  const t = packTexts[input.language];
  const pages = [facts(input, t), cicc(input, t), affidavit('pnp', input, t), affidavit('nbi', input, t)];
  pages.push(ntc(input, t), bank(input, t));
  if (input.evidence.length) pages.push(evidencePage(input, t));
  return { language: input.language, title: t.title, annex: t.annex, pages };
}
