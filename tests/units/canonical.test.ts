/** The TypeScript twin of the canonical identifier rules against the shared vectors (the SQL side is supabase/tests/db/canonical.test.ts). */
import { describe, expect, it } from 'vitest';
import vectorsFile from '../../supabase/tests/canonical-vectors.json' with { type: 'json' };
import {
  canonicalIdentifier,
  canonicalIdentifierAuto,
  detectIdentifierKind,
  type IdentifierKind,
} from '../../supabase/functions/_shared/canonical.ts';

interface Vector {
  kind: IdentifierKind | 'auto';
  input: string;
  canonical: string | null;
  detect?: string | null;
}
const vectors = (vectorsFile as { vectors: Vector[] }).vectors;

describe('canonical identifiers (canonical-vectors.json)', () => {
  it.each(vectors.map((v) => [v.kind, v.input, v] as const))('%s %j', (kind, input, v) => {
    const got = kind === 'auto' ? canonicalIdentifierAuto(input) : canonicalIdentifier(kind, input);
    expect(got).toBe(v.canonical);
    if (v.detect !== undefined) expect(detectIdentifierKind(input)).toBe(v.detect);
  });
});

describe('canonical identifiers from untyped callers', () => {
  it('read a missing value as empty and refuse an unknown kind by name', () => {
    expect(canonicalIdentifier('mobile', undefined as unknown as string)).toBeNull();
    expect(detectIdentifierKind(null as unknown as string)).toBeNull();
    expect(() => canonicalIdentifier('phone' as IdentifierKind, '0917 123 4567')).toThrow(
      new Error('unknown identifier kind: phone'),
    );
  });
});
