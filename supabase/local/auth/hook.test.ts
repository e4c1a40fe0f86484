/**
 * The local Auth signs its Send Email hook calls as GoTrue does, and the standardwebhooks package (what
 * a hook function verifies with) accepts exactly those.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signHook } from './hook.ts';

const SECRET = 'v1,whsec_' + Buffer.from('a-test-secret-of-thirty-two-byte').toString('base64');

describe('holds on: edge function — Send Email hook signatures', () => {
  it("verifies the local Auth's GoTrue-style signature with standardwebhooks, and nothing else", () => {
    const body = '{"user":{},"email_data":{}}';
    const headers = signHook([SECRET], body);
    const wh = new Webhook(SECRET.replace('v1,whsec_', ''));
    expect(wh.verify(body, headers)).toEqual({ user: {}, email_data: {} });
    expect(() => wh.verify(body.replace('{}', '{"x":1}'), headers)).toThrow();
    const other = 'v1,whsec_' + Buffer.from('another-secret-of-thirty-two-byt').toString('base64');
    expect(() => wh.verify(body, signHook([other], body))).toThrow();
    // GoTrue signs with every configured secret; one matching signature is enough.
    expect(wh.verify(body, signHook([other, SECRET], body))).toEqual({ user: {}, email_data: {} });
  });
});
