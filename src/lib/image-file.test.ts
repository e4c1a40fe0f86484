import { FunctionsHttpError } from '@supabase/supabase-js';
import { FunctionCallError } from './functions';
import { IMAGE_ACCEPT, optionalImageFile, uploadImage } from './image-file';
import { supabase } from '@/lib/supabase';

vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: vi.fn() } } }));
const invoke = vi.mocked(supabase.functions.invoke);

const file = (bytes: number, type = 'image/png') => new File([new Uint8Array(bytes)], 'shot.png', { type });
const problems = (value: unknown) =>
  optionalImageFile.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('optionalImageFile (docs/behaviour.md §5 and §9: images of at most 500000 bytes)', () => {
  it('accepts exactly 500000 bytes and refuses 500001 with "Image size too large"', () => {
    expect(problems(file(500_000))).toEqual([]);
    expect(problems(file(500_001))).toEqual(['Image size too large']);
  });

  it('accepts JPEG, PNG, WebP and GIF, refuses any other type, and accepts no file at all', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
      expect(problems(file(10, type))).toEqual([]);
    expect(problems(file(10, 'image/svg+xml'))).toEqual([
      'Only JPEG, PNG, WebP or GIF images can be uploaded',
    ]);
    expect(problems(undefined)).toEqual([]);
    expect(IMAGE_ACCEPT).toBe('image/jpeg,image/png,image/webp,image/gif');
  });

  it('names the size first when an oversize file is also of the wrong type', () => {
    expect(problems(file(500_001, 'application/pdf'))[0]).toBe('Image size too large');
  });
});

describe('uploadImage', () => {
  beforeEach(() => invoke.mockReset());

  it('sends the bucket and the file to the upload-image function and returns the stored path', async () => {
    invoke.mockResolvedValue({ data: { path: 'u1/abc.png' }, error: null });
    const image = file(100);
    await expect(uploadImage('avatars', image)).resolves.toBe('u1/abc.png');
    expect(invoke).toHaveBeenCalledTimes(1);
    const [name, options] = invoke.mock.calls[0];
    expect(name).toBe('upload-image');
    const body = (options as { body: FormData }).body;
    expect(body.get('bucket')).toBe('avatars');
    expect((body.get('file') as File).size).toBe(100);
  });

  it("throws the function's refusal with its code, parameters and status", async () => {
    const refusal = new Response(
      JSON.stringify({ msg: 'Evidence file is empty', code: 'image_empty', params: { image: 'evidence' } }),
      { status: 400 },
    );
    invoke.mockResolvedValue({ data: null, error: new FunctionsHttpError(refusal) });
    const error = await uploadImage('evidence', file(100)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionCallError);
    expect(error).toMatchObject({
      message: 'Evidence file is empty',
      status: 400,
      code: 'image_empty',
      params: { image: 'evidence' },
    });
  });

  it('an answer without a message is an internal error with its status; a network failure stays itself', async () => {
    const notJson = new FunctionsHttpError(new Response('<html>Bad gateway</html>', { status: 502 }));
    invoke.mockResolvedValue({ data: null, error: notJson });
    await expect(uploadImage('evidence', file(100))).rejects.toMatchObject({ status: 502, code: 'internal' });

    const noMsg = new FunctionsHttpError(new Response(JSON.stringify({ msg: 42 }), { status: 400 }));
    invoke.mockResolvedValue({ data: null, error: noMsg });
    await expect(uploadImage('evidence', file(100))).rejects.toMatchObject({ status: 400, code: 'internal' });

    const network = new Error('Failed to send a request to the Edge Function');
    invoke.mockResolvedValue({ data: null, error: network });
    await expect(uploadImage('evidence', file(100))).rejects.toBe(network);
  });

  it('refuses an answer without a path', async () => {
    invoke.mockResolvedValue({ data: {}, error: null });
    await expect(uploadImage('news-banners', file(100))).rejects.toThrow('The upload did not return a path');
  });
});
