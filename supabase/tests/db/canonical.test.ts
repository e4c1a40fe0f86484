/**
 * Canonical identifiers: the SQL functions and the TypeScript twin give the answers pinned in
 * canonical-vectors.json, so a number or address typed any common way finds the same reports.
 */
import { describe, expect, it } from 'vitest';
import vectorsFile from '../canonical-vectors.json' with { type: 'json' };
import {
  canonicalIdentifier,
  canonicalIdentifierAuto,
  detectIdentifierKind,
  type IdentifierKind,
} from '../../functions/_shared/canonical.ts';
import { adminPool } from '../helpers.ts';
import { anon, createUser, run } from './actors.ts';

interface Vector {
  kind: IdentifierKind | 'auto';
  input: string;
  canonical: string | null;
  detect?: IdentifierKind | null;
}
const vectors = vectorsFile.vectors as Vector[];

function tsCanonical(v: Vector) {
  return v.kind === 'auto' ? canonicalIdentifierAuto(v.input) : canonicalIdentifier(v.kind, v.input);
}

describe('holds on: postgres — canonical identifier vectors', () => {
  it('has at least 60 vectors covering every kind', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(60);
    expect(new Set(vectors.map((v) => v.kind))).toEqual(
      new Set(['mobile', 'email', 'website', 'ewallet', 'crypto', 'social', 'auto']),
    );
  });

  it('canonical.ts gives every canonical form and detected kind', () => {
    const got = vectors.map((v) => ({
      ...v,
      canonical: tsCanonical(v),
      ...('detect' in v ? { detect: detectIdentifierKind(v.input) } : {}),
    }));
    expect(got).toEqual(vectors);
  });

  it('public.canonical_identifier and detect_identifier_kind give every canonical form and detected kind', async () => {
    const { rows } = await adminPool().query<{ canonical: string | null; detect: string | null }>(
      `select case when v.kind = 'auto' then public.canonical_identifier_auto(v.input)
                   else public.canonical_identifier(v.kind, v.input) end as canonical,
              public.detect_identifier_kind(v.input) as detect
       from rows from (jsonb_to_recordset($1::jsonb) as (kind text, input text)) with ordinality as v(kind, input, n)
       order by n`,
      [JSON.stringify(vectors)],
    );
    const got = vectors.map((v, i) => ({
      ...v,
      canonical: rows[i].canonical,
      ...('detect' in v ? { detect: rows[i].detect } : {}),
    }));
    expect(got).toEqual(vectors);
  });

  it('anon and signed-in callers can use the canonical functions (they are plain, invoker functions)', async () => {
    const user = await createUser('Canon');
    for (const actor of [anon, user]) {
      expect(
        await run(
          actor,
          `select public.canonical_identifier_auto('0917 123 4567') as c, public.detect_identifier_kind('a@b.co') as k`,
        ),
      ).toEqual([{ c: '+639171234567', k: 'email' }]);
    }
  });

  it('the SQL function rejects an unknown kind with a hint', async () => {
    await expect(adminPool().query(`select public.canonical_identifier('fax', '123')`)).rejects.toThrow(
      /unknown identifier kind: fax/,
    );
  });

  it('SQL and TypeScript agree on generated phone numbers, hosts and addresses', async () => {
    // Beyond the pinned vectors: many generated spellings of the same identifiers must collapse alike.
    const inputs: [IdentifierKind, string][] = [];
    for (let i = 0; i < 50; i++) {
      const n = String(9000000000 + i * 7919137).slice(0, 10);
      inputs.push(['mobile', `0${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`], ['mobile', `+63-${n}`]);
      inputs.push(
        ['website', `HTTPS://WWW.Site${i}.Example.PH:${8000 + i}/p?q=${i}`],
        ['email', ` User${i}@Mail${i}.COM `],
      );
      inputs.push(['crypto', `0x${(i * 2654435761).toString(16).padStart(40, 'A').toUpperCase()}`]);
    }
    const { rows } = await adminPool().query<{ c: string }>(
      `select public.canonical_identifier(kind, input) as c
       from rows from (jsonb_to_recordset($1::jsonb) as (kind text, input text)) with ordinality as v(kind, input, n) order by n`,
      [JSON.stringify(inputs.map(([kind, input]) => ({ kind, input })))],
    );
    expect(rows.map((r) => r.c)).toEqual(inputs.map(([k, v]) => canonicalIdentifier(k, v)));
  });
});
