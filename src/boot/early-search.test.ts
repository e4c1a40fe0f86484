import { takeEarlySearch } from './early-search';
import { FunctionCallError, readFunctionAnswer } from '@/lib/functions';

describe('the early search of index.html', () => {
  afterEach(() => {
    delete window.__scamcheck;
  });

  it('is taken once, and only for the same search string', async () => {
    const answer = Promise.resolve(new Response('{"count":2}', { status: 200 }));
    window.__scamcheck = { earlySearch: { searchString: '0917 555 0142', answer } };
    expect(takeEarlySearch('09175550142')).toBeNull();
    const taken = takeEarlySearch('0917 555 0142');
    expect(taken).toBe(answer);
    expect(await readFunctionAnswer(await taken!)).toEqual({ count: 2 });
    expect(takeEarlySearch('0917 555 0142')).toBeNull();
  });

  it('gives nothing when index.html started none', () => {
    expect(takeEarlySearch('x')).toBeNull();
  });

  it('gives nothing where there is no window (the page shell is rendered in Node at build time)', () => {
    vi.stubGlobal('window', undefined);
    try {
      expect(takeEarlySearch('x')).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("turns a refusal into the function's own message and status, as supabase-js calls do", async () => {
    const refused = new Response('{"msg":"Too many searches from your address"}', { status: 429 });
    const error = await readFunctionAnswer(refused).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionCallError);
    expect(error).toMatchObject({ message: 'Too many searches from your address', status: 429 });
    const broken = await readFunctionAnswer(new Response('<html>', { status: 502 })).catch((e: unknown) => e);
    expect(broken).toMatchObject({ message: 'Something went wrong, Please try again', status: 502 });
  });
});
