/**
 * The message check's figures on a corpus (issue 30): identifier recall and precision, look-alike
 * recall, false look-alike flags on official domains, scams left without a warning and legitimate
 * messages called risky. Used by tests/units/check-message-heldout.test.ts.
 */
import {
  checkItems,
  extractIdentifiers,
  textSignals,
  verdictFor,
  type CheckRules,
} from '../functions/_shared/check-message.ts';

export interface LabelledMessage {
  scam: boolean;
  text: string;
  identifiers: string[];
  lookalikes: string[];
}

export interface Figures {
  messages: number;
  identifierRecall: number;
  identifierPrecision: number;
  lookalikeRecall: number;
  falseLookalikesOnOfficial: number;
  scamsWithoutWarning: number;
  legitimateCalledRisky: number;
  misses: string[];
}

function isOfficial(host: string, rules: CheckRules): boolean {
  return rules.brands.some((b) => b.official_domains.some((d) => host === d || host.endsWith(`.${d}`)));
}

export function figures(corpus: LabelledMessage[], rules: CheckRules): Figures {
  let idExpected = 0;
  let idFound = 0;
  let idHits = 0;
  let laExpected = 0;
  let laHits = 0;
  let falseOfficial = 0;
  let scams = 0;
  let scamsSilent = 0;
  let legit = 0;
  let legitRisky = 0;
  const misses: string[] = [];
  for (const m of corpus) {
    const items = checkItems(m.text, extractIdentifiers(m.text), rules, new Map());
    const signals = textSignals(m.text);
    const verdict = verdictFor(items, signals);
    const found = items.map((i) => i.canonical);
    idExpected += m.identifiers.length;
    idFound += found.length;
    for (const id of m.identifiers)
      if (found.includes(id)) idHits++;
      else misses.push(`identifier missed: ${id} in "${m.text.slice(0, 60)}"`);
    for (const f of found)
      if (!m.identifiers.includes(f)) misses.push(`identifier extra: ${f} in "${m.text.slice(0, 60)}"`);
    const flagged = items.filter((i) => i.signals.some((s) => s.code === 'lookalike-brand'));
    laExpected += m.lookalikes.length;
    for (const la of m.lookalikes)
      if (flagged.some((i) => i.canonical === la || i.host === la)) laHits++;
      else misses.push(`look-alike missed: ${la}`);
    for (const i of flagged) {
      if (i.host && isOfficial(i.host, rules)) {
        falseOfficial++;
        misses.push(`official domain flagged: ${i.host}`);
      }
    }
    const warned = verdict.level === 'danger' || verdict.level === 'suspicious';
    if (m.scam) {
      scams++;
      if (!warned) {
        scamsSilent++;
        misses.push(`scam without warning: "${m.text.slice(0, 80)}"`);
      }
    } else {
      legit++;
      if (warned) {
        legitRisky++;
        misses.push(
          `legitimate called ${verdict.level}: "${m.text.slice(0, 80)}" (${verdict.reasons.map((r) => `${r.code} ${r.value}`).join('; ')})`,
        );
      }
    }
  }
  return {
    messages: corpus.length,
    identifierRecall: idExpected ? idHits / idExpected : 1,
    identifierPrecision: idFound ? idHits / idFound : 1,
    lookalikeRecall: laExpected ? laHits / laExpected : 1,
    falseLookalikesOnOfficial: falseOfficial,
    scamsWithoutWarning: scams ? scamsSilent / scams : 0,
    legitimateCalledRisky: legit ? legitRisky / legit : 0,
    misses,
  };
}
