import {
  encodeToFit,
  encodingLadder,
  firstStep,
  nextStep,
  SHRINK_MAX_BYTES,
  type EncodeCanvas,
} from './image-shrink-core';

// Figures from Chromium's encoder (docs/performance.md): a 1080 x 2400 chat screenshot at 0.85 is
// 389 KB; a 12-megapixel photo drawn at 2309 x 1732 is 664 KB at 0.85 and 384 KB at 0.72.
const photo = encodingLadder(4032, 3024);

describe('choosing what to encode', () => {
  it('starts a screenshot at every pixel and quality 0.85', () => {
    const ladder = encodingLadder(1080, 2400);
    expect(ladder[0]).toEqual({ width: 1080, height: 2400, quality: 0.85 });
    expect(firstStep(ladder, { width: 1080, height: 2400, bytes: 1_307_269, type: 'image/png' })).toBe(0);
  });

  it('after a miss, skips the steps its size rules out', () => {
    expect(photo[0]).toEqual({ width: 2309, height: 1732, quality: 0.85 });
    // 664 KB at 0.85 predicts 425 KB at 0.72: the next rung.
    expect(photo[nextStep(photo, 0, 664_383)]).toEqual({ width: 2309, height: 1732, quality: 0.72 });
    // Four times the limit rules out every quality at this size and the next.
    expect(photo[nextStep(photo, 0, 4 * SHRINK_MAX_BYTES)]).toEqual({
      width: 1478,
      height: 1109,
      quality: 0.6,
    });
    // Nothing predicted to fit: the smallest step.
    expect(nextStep(photo, 0, 100 * SHRINK_MAX_BYTES)).toBe(photo.length - 1);
  });

  it("starts a phone photo's JPEG where its bytes per pixel predict it fits", () => {
    const source = { width: 4032, height: 3024, bytes: 4_029_358, type: 'image/jpeg' };
    expect(photo[firstStep(photo, source)]).toEqual({ width: 2309, height: 1732, quality: 0.72 });
    // A JPEG already small per pixel starts at the best step.
    expect(firstStep(photo, { ...source, bytes: 1_500_000 })).toBe(0);
  });

  it('encodes until the bytes fit, counting the passes', async () => {
    // A model of the encoder: bytes in proportion to the pixels, 0.64 and 0.48 of them at the lower qualities.
    const encoded: string[] = [];
    const makeCanvas = (width: number, height: number): EncodeCanvas => ({
      width,
      height,
      getContext: () => ({ fillRect() {}, drawImage() {} }) as unknown as OffscreenCanvasRenderingContext2D,
    });
    const encode = async (canvas: EncodeCanvas, type: string, quality: number) => {
      encoded.push(`${canvas.width}x${canvas.height}@${quality}`);
      const bytes = canvas.width * canvas.height * 0.166 * ({ 0.85: 1, 0.72: 0.58, 0.6: 0.4 }[quality] ?? 1);
      return new Blob([new Uint8Array(Math.round(bytes))], { type });
    };
    const bitmap = { width: 4032, height: 3024 } as ImageBitmap;
    const fromPng = await encodeToFit(bitmap, makeCanvas, encode, 12, {
      bytes: 9_000_000,
      type: 'image/png',
    });
    expect(encoded).toEqual(['2309x1732@0.85', '2309x1732@0.72']);
    expect(fromPng).toMatchObject({
      width: 2309,
      height: 1732,
      quality: 0.72,
      timings: { decode: 12, passes: 2 },
    });
    encoded.length = 0;
    const fromJpeg = await encodeToFit(bitmap, makeCanvas, encode, 0, {
      bytes: 4_029_358,
      type: 'image/jpeg',
    });
    expect(encoded).toEqual(['2309x1732@0.72']);
    expect(fromJpeg?.blob.size).toBeLessThanOrEqual(SHRINK_MAX_BYTES);
    // Too big even at the smallest step: null, after at most a few passes.
    encoded.length = 0;
    const huge = async (canvas: EncodeCanvas, type: string) =>
      new Blob([new Uint8Array(canvas.width * canvas.height * 2)], { type });
    expect(await encodeToFit(bitmap, makeCanvas, huge)).toBeNull();
  });
});
