import { binarise, isDarkImage, ocrScale, prepareForOcr, toGray, type RgbaImage } from './prepare';

/** An image of `w` x `h` in one colour, with a `text` colour drawn in the given rectangles. */
function image(
  w: number,
  h: number,
  bg: number[],
  ink: number[],
  rects: [number, number, number, number][],
): RgbaImage {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = rects.some(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1);
      data.set([...(inside ? ink : bg), 255], (y * w + x) * 4);
    }
  return { width: w, height: h, data };
}

/** Strokes like letters: 2-pixel vertical bars 5 pixels apart, 14 high. */
const strokes = (x0: number, y0: number, n = 6): [number, number, number, number][] =>
  Array.from({ length: n }, (_, i) => [x0 + i * 5, y0, x0 + i * 5 + 2, y0 + 14]);

const inkAt = (g: { width: number; data: Uint8Array }, x: number, y: number) => g.data[y * g.width + x] === 0;

describe('ocrScale', () => {
  it('reads a phone screenshot at 540 px wide, shrinks huge images, enlarges tiny ones', () => {
    expect(ocrScale(1080, 2400)).toBeCloseTo(0.5);
    expect(ocrScale(1125, 2436)).toBeCloseTo(540 / 1125);
    expect(ocrScale(400, 900)).toBe(1);
    expect(ocrScale(4000, 3000)).toBeCloseTo(1800 / 4000);
    expect(ocrScale(200, 100)).toBeCloseTo(1.8);
    expect(ocrScale(0, 0)).toBe(1);
  });
});

describe('binarise', () => {
  it('makes dark text on light, light text on dark and white text on a blue bubble all black on white', () => {
    for (const [bg, ink] of [
      [
        [255, 255, 255],
        [20, 20, 20],
      ],
      [
        [0, 0, 0],
        [230, 230, 230],
      ],
      [
        [11, 132, 255],
        [255, 255, 255],
      ],
    ]) {
      const g = binarise(toGray(image(80, 40, bg, ink, strokes(10, 10))));
      expect(inkAt(g, 10, 15)).toBe(true); // a stroke
      expect(inkAt(g, 13, 15)).toBe(false); // between strokes
      expect(inkAt(g, 60, 5)).toBe(false); // the background
    }
  });

  it('leaves a flat bubble fill white and drops shapes too tall to be text (a bubble outline)', () => {
    // A blue bubble 60 px tall on white: its edge contrasts, but is no letter.
    const img = image(300, 200, [255, 255, 255], [11, 132, 255], [[20, 20, 280, 180]]);
    const g = binarise(toGray(img));
    expect(g.data.every((v) => v === 255)).toBe(true);
  });
});

describe('prepareForOcr', () => {
  it('scales, and says whether the screen was dark', () => {
    const dark = prepareForOcr(image(600, 1334, [0, 0, 0], [255, 255, 255], strokes(100, 100)));
    expect([dark.width, dark.height, dark.dark]).toEqual([540, 1201, true]);
    expect(isDarkImage(toGray(image(10, 10, [250, 250, 250], [0, 0, 0], [])))).toBe(false);
  });
});
