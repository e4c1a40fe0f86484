/**
 * public.range_lookup_limited_many, the call that carries range lookups arriving together (issue 14,
 * section 4): each request gets what a call of its own gives (its limit taken from its own bucket, in
 * request order within one bucket), answers come back in request order, malformed input takes nothing,
 * only the service role may call it, and two calls taking the same limiter rows in opposite request
 * order cannot deadlock.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';
import { DENIED, anon, createUser, run, serviceRole } from './actors.ts';

interface Answer {
  limit: { status: string; allowed?: boolean; remaining?: number; subject_kind?: string };
  entries?: { suffix: string; count: number }[];
}

const many = (requests: unknown) =>
  run<{ a: Answer[] }>(serviceRole, 'select public.range_lookup_limited_many($1::jsonb) as a', [
    JSON.stringify(requests),
  ]).then((rows) => rows[0].a);

/** A public address of its own (documentation addresses are not public, so a random 2a02::/16 one). */
const address = () =>
  `2a02:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}::9`;

async function apiKey(): Promise<{ id: string; key: string; hash: string; owner: string }> {
  const owner = await createUser('many');
  const made = await withRole(
    adminPool(),
    owner.claims,
    async (c) =>
      (await c.query<{ k: { id: string; key: string } }>(`select public.create_api_key('many') as k`)).rows[0]
        .k,
  );
  return { ...made, hash: createHash('sha256').update(made.key).digest('hex'), owner: owner.id! };
}

describe('holds on: postgres — range_lookup_limited_many', () => {
  it('answers each request as a call of its own would, in request order', async () => {
    const [a, b] = [address(), address()];
    const key = await apiKey();
    const requests = [
      ['abcde', null, a],
      ['01234', key.hash, a],
      ['abcde', null, b],
      ['fffff', null, a],
      ['01234', key.hash.toUpperCase(), null],
      ['abcde', 'f'.repeat(64), null],
    ];
    const answers = await many(requests);
    expect(answers).toHaveLength(requests.length);
    // Address a: its own bucket, taken in request order (119 then 118); b another bucket.
    expect(answers.map((x) => [x.limit.status, x.limit.subject_kind, x.limit.remaining])).toEqual([
      ['ok', 'address', 119],
      ['ok', 'key', 1199],
      ['ok', 'address', 119],
      ['ok', 'address', 118],
      ['ok', 'key', 1198],
      ['unknown', undefined, undefined],
    ]);
    expect(answers[5].entries).toBeUndefined();
    // The entries are range_lookup's own for each prefix.
    for (const [i, [prefix]] of requests.entries()) {
      if (i === 5) continue;
      const [{ e }] = await run<{ e: unknown }>(serviceRole, 'select public.range_lookup($1) as e', [prefix]);
      expect(answers[i].entries, `request ${i}`).toEqual(e);
    }
    // A single call afterwards continues from the same buckets.
    const [{ one }] = await run<{ one: Answer }>(
      serviceRole,
      'select public.range_lookup_limited($1, null, 1, $2) as one',
      ['abcde', a],
    );
    expect(one.limit.remaining).toBe(117);
  });

  it('refuses a revoked key and an address over its limit, and serves the others in the same call', async () => {
    const key = await apiKey();
    await withRole(adminPool(), { role: 'authenticated', sub: key.owner }, (c) =>
      c.query('select public.revoke_api_key($1)', [key.id]),
    );
    const spent = address();
    const {
      rows: [{ subject }],
    } = await adminPool().query<{ subject: string }>(
      'select private.address_key(private.forwarded_client_address($1)) as subject',
      [spent],
    );
    await adminPool().query(`select private.rate_limit_take('api.anon', $1, 120)`, [subject]);
    const answers = await many([
      ['abcde', key.hash, null],
      ['abcde', null, spent],
      ['abcde', null, address()],
    ]);
    expect(answers[0].limit.status).toBe('revoked');
    expect(answers[1].limit).toMatchObject({ status: 'ok', allowed: false, remaining: 0 });
    expect(answers[1].entries).toBeUndefined();
    expect(answers[2].limit).toMatchObject({ status: 'ok', allowed: true, remaining: 119 });
  });

  it('gives the requests of one bucket what the same calls one after another give, across its limit', async () => {
    // Buckets filled to 0, 117, 119 and 120 of api.anon's 120 calls a minute, each twice: one address
    // for the call carrying them all, its twin for single calls in the same order.
    const subjectOf = async (addr: string) =>
      (
        await adminPool().query<{ s: string }>(
          'select private.address_key(private.forwarded_client_address($1)) as s',
          [addr],
        )
      ).rows[0].s;
    const fills = [0, 117, 119, 120];
    const pairs = await Promise.all(
      fills.map(async (fill) => {
        const pair = [address(), address()];
        for (const a of pair)
          if (fill)
            await adminPool().query(`select private.rate_limit_take('api.anon', $1, $2)`, [
              await subjectOf(a),
              fill,
            ]);
        return pair;
      }),
    );
    // 16 requests over the four buckets in a random order, with random prefixes.
    const order = Array.from({ length: 16 }, () => Math.floor(Math.random() * fills.length));
    const prefixes = order.map(() =>
      Math.floor(Math.random() * 0x100000)
        .toString(16)
        .padStart(5, '0'),
    );
    const together = await many(order.map((b, i) => [prefixes[i], null, pairs[b][0]]));
    const alone: Answer[] = [];
    for (const [i, b] of order.entries())
      alone.push(
        (
          await run<{ one: Answer }>(
            serviceRole,
            'select public.range_lookup_limited($1, null, 1, $2) as one',
            [prefixes[i], pairs[b][1]],
          )
        )[0].one,
      );
    const shape = (x: Answer) => {
      const { limit, entries } = x as Answer & { limit: Record<string, unknown> };
      return { limit, entries: entries ?? null };
    };
    expect(together.map(shape), `order ${order.join(',')}`).toEqual(alone.map(shape));
    // Each bucket admitted up to its limit and refused the rest.
    const refused = fills.reduce(
      (t, fill, b) => t + Math.max(0, order.filter((x) => x === b).length - (120 - fill)),
      0,
    );
    expect(together.filter((x) => x.limit.allowed === false)).toHaveLength(refused);
  });

  it('takes nothing from malformed input, and answers an empty array with one', async () => {
    const a = address();
    for (const bad of [
      {},
      [['ABCDE', null, a]],
      [['abcd', null, a]],
      [['abcde', 5, a]],
      [['abcde', null, a], 'abcde'],
      Array.from({ length: 257 }, () => ['abcde', null, a]),
    ])
      await expect(many(bad), JSON.stringify(bad).slice(0, 60)).rejects.toMatchObject({ code: '22023' });
    expect(await many([])).toEqual([]);
    const [first] = await many([['abcde', null, a]]);
    expect(first.limit.remaining).toBe(119);
  });

  it('is for the service role only', async () => {
    const user = await createUser('many-user');
    for (const actor of [anon, user])
      await expect(
        run(actor, 'select public.range_lookup_limited_many($1::jsonb)', ['[]']),
        actor.name,
      ).rejects.toThrow(DENIED);
  });

  it('reads the clock after waiting for a bucket another call holds, as a call of its own does', async () => {
    const a = address();
    const {
      rows: [{ subject }],
    } = await adminPool().query<{ subject: string }>(
      'select private.address_key(private.forwarded_client_address($1)) as subject',
      [a],
    );
    // The bucket's row exists and is empty (its time has passed).
    await adminPool().query(
      `insert into private.rate_limit_buckets (name, subject, tat) values ('api.anon', $1, now() - interval '1 minute')`,
      [subject],
    );
    const holder = await adminPool().connect();
    try {
      // Another call holds the address's bucket; this call starts, and waits for it ...
      await holder.query('begin');
      await holder.query(
        `select 1 from private.rate_limit_buckets where name = 'api.anon' and subject = $1 for update`,
        [subject],
      );
      const waiting = many([['abcde', null, a]]);
      await new Promise((r) => setTimeout(r, 300));
      // ... while the other reads its clock, takes a call and ends.
      await holder.query(`select private.rate_limit_take('api.anon', $1, 1)`, [subject]);
      await holder.query('commit');
      // Two calls taken one after the other: 118 left, not the 117 a clock read before the wait gives.
      const [answer] = await waiting;
      expect(answer.limit).toMatchObject({ allowed: true, remaining: 118 });
    } finally {
      await holder.query('rollback').catch(() => undefined);
      holder.release();
    }
  });

  it('takes limiter rows in one order, so calls with opposite request orders do not deadlock', async () => {
    const [k1, k2] = (await Promise.all([apiKey(), apiKey()])).sort((x, y) => (x.hash < y.hash ? -1 : 1));
    const holder = await adminPool().connect();
    const other = await adminPool().connect();
    try {
      await holder.query('begin');
      await holder.query("set local lock_timeout = '5s'");
      // The holder takes k1's bucket and keeps it until it ends.
      await holder.query(`select private.api_limit_for($1, 1, null)`, [k1.hash]);
      // The other call asks for k2 then k1: in the fixed order it waits for k1 first, holding nothing.
      await other.query("set lock_timeout = '5s'");
      const waiting = other.query<{ a: Answer[] }>(
        'select public.range_lookup_limited_many($1::jsonb) as a',
        [
          JSON.stringify([
            ['abcde', k2.hash, null],
            ['abcde', k1.hash, null],
          ]),
        ],
      );
      await new Promise((r) => setTimeout(r, 300));
      // So the holder can still take k2 (taken in request order, it would wait on the other: deadlock).
      await holder.query(`select private.api_limit_for($1, 1, null)`, [k2.hash]);
      await holder.query('commit');
      const { rows } = await waiting;
      expect(rows[0].a.map((x) => [x.limit.status, x.limit.allowed])).toEqual([
        ['ok', true],
        ['ok', true],
      ]);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await other.query('reset lock_timeout').catch(() => undefined);
      holder.release();
      other.release();
    }
  });
});
