/**
 * Makes a screenshot ready for OCR, as pure functions over pixel arrays, so the browser (in a worker,
 * on an OffscreenCanvas's pixels) and the accuracy test (in Node, on a decoded PNG) run the same code.
 *
 * - Scale: a phone screenshot (1080 x 2400) is read at about half size. Tesseract's LSTM normalises
 *   every text line to a fixed height anyway, so chat text at half size reads as well, and its layout
 *   analysis costs a quarter (measured: 0.56 s of CPU at 540 px wide against 2.15 s at 1080).
 * - Ink, whatever the colours: chats put dark text on light bubbles, white text on blue bubbles, and in
 *   dark mode light text on black. A pixel is ink when it stands out from its neighbourhood's mean by
 *   more than a margin, in either direction (an adaptive threshold without polarity), so every bubble
 *   becomes black text on white, which is what Tesseract reads best. Flat areas (bubble fills, the page)
 *   stay white, so bubbles do not turn into black boxes.
 */

export interface RgbaImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row by row (ImageData's layout). */
  data: Uint8ClampedArray | Uint8Array;
}

export interface GrayImage {
  width: number;
  height: number;
  /** One byte a pixel: 0 is black. */
  data: Uint8Array;
}

/** Screenshots this tall for their width are phone screens (9:16 and taller). */
const PHONE_ASPECT = 1.6;
/** A phone screenshot is read at this width (half of a 1080 px screen). */
const PHONE_WIDTH = 540;
/** Anything else is read with its longest side at most this long. */
const MAX_SIDE = 1800;
/** Images smaller than this (either side) are enlarged: Tesseract misses text under ~10 px high. */
const MIN_WIDTH = 360;

/** A phone's screen: 9:16 or taller. */
export function isPhoneScreen(width: number, height: number): boolean {
  return width > 0 && height / width >= PHONE_ASPECT;
}

/** The factor an image is scaled by before OCR (never 0, at most 2). */
export function ocrScale(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 1;
  if (isPhoneScreen(width, height) && width > PHONE_WIDTH) return PHONE_WIDTH / width;
  const longest = Math.max(width, height);
  if (longest > MAX_SIDE) return MAX_SIDE / longest;
  if (width < MIN_WIDTH) return Math.min(2, MIN_WIDTH / width);
  return 1;
}

/**
 * Grey levels (ITU-R BT.601 luma) at `scale`: each output pixel is the mean of the source pixels it
 * covers (a box filter, which keeps thin strokes when shrinking); enlarging repeats pixels.
 */
export function toGray(image: RgbaImage, scale = 1): GrayImage {
  const { width: w, height: h, data } = image;
  const ow = Math.max(1, Math.round(w * scale));
  const oh = Math.max(1, Math.round(h * scale));
  const out = new Uint8Array(ow * oh);
  if (scale >= 1) {
    for (let y = 0; y < oh; y++) {
      const sy = Math.min(h - 1, Math.floor(y / scale));
      for (let x = 0; x < ow; x++) {
        const i = (sy * w + Math.min(w - 1, Math.floor(x / scale))) * 4;
        out[y * ow + x] = (data[i] * 299 + data[i + 1] * 587 + data[i + 2] * 114 + 500) / 1000;
      }
    }
    return { width: ow, height: oh, data: out };
  }
  // Shrinking: sum each source row's luma into its output column, then fold rows into output rows.
  const sums = new Float64Array(ow);
  const counts = new Float64Array(ow);
  const colOf = new Int32Array(w);
  for (let x = 0; x < w; x++) colOf[x] = Math.min(ow - 1, Math.floor(x * scale));
  let row = 0;
  for (let y = 0; y < h; y++) {
    const oy = Math.min(oh - 1, Math.floor(y * scale));
    if (oy !== row) {
      flush(row);
      row = oy;
    }
    let i = y * w * 4;
    for (let x = 0; x < w; x++, i += 4) {
      sums[colOf[x]] += data[i] * 0.299 + data[i + 1] * 0.587 + data[i + 2] * 0.114;
      counts[colOf[x]]++;
    }
  }
  flush(row);
  return { width: ow, height: oh, data: out };

  function flush(oy: number) {
    for (let x = 0; x < ow; x++) {
      out[oy * ow + x] = counts[x] ? Math.round(sums[x] / counts[x]) : 255;
      sums[x] = 0;
      counts[x] = 0;
    }
  }
}

/** True when most of the image is dark (a dark-mode screen): the median grey level is under 100. */
export function isDarkImage(gray: GrayImage): boolean {
  const hist = new Uint32Array(256);
  for (const v of gray.data) hist[v]++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen * 2 >= gray.data.length) return v < 100;
  }
  return false;
}

/**
 * Black ink on white. A pixel is ink when it is darker than the mean of the square around it (side
 * `2 * radius + 1`) by more than `margin` grey levels where the background there is light, or lighter by
 * as much where the background is dark. Which one: in a square that holds text, the background is the
 * majority, so the mean lies nearer the background's end of the range (min..max) than the ink's. The
 * test is one-sided, so the background between strokes, whose level is on the background's side of the
 * mean, never becomes ink.
 */
export function binarise(gray: GrayImage, { radius = 12, margin = 24 } = {}): GrayImage {
  const { width: w, height: h, data } = gray;
  // Integral image of the grey levels, (w + 1) x (h + 1), for the mean of any rectangle in O(1).
  const stride = w + 1;
  const integral = new Float64Array(stride * (h + 1));
  for (let y = 0; y < h; y++) {
    let rowSum = 0;
    for (let x = 0; x < w; x++) {
      rowSum += data[y * w + x];
      integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + rowSum;
    }
  }
  const mean = (x0: number, y0: number, x1: number, y1: number) =>
    (integral[y1 * stride + x1] -
      integral[y0 * stride + x1] -
      integral[y1 * stride + x0] +
      integral[y0 * stride + x0]) /
    ((x1 - x0) * (y1 - y0));

  // Light or dark background per block of `radius` pixels, judged over the 3 x 3 blocks around it.
  const bw = Math.ceil(w / radius);
  const bh = Math.ceil(h / radius);
  const bmin = new Uint8Array(bw * bh).fill(255);
  const bmax = new Uint8Array(bw * bh);
  for (let y = 0; y < h; y++) {
    const by = Math.floor(y / radius) * bw;
    for (let x = 0; x < w; x++) {
      const b = by + Math.floor(x / radius);
      const v = data[y * w + x];
      if (v < bmin[b]) bmin[b] = v;
      if (v > bmax[b]) bmax[b] = v;
    }
  }
  const lightBackground = new Uint8Array(bw * bh);
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let lo = 255;
      let hi = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = by + dy;
          const xx = bx + dx;
          if (yy < 0 || yy >= bh || xx < 0 || xx >= bw) continue;
          lo = Math.min(lo, bmin[yy * bw + xx]);
          hi = Math.max(hi, bmax[yy * bw + xx]);
        }
      const m = mean(
        Math.max(0, (bx - 1) * radius),
        Math.max(0, (by - 1) * radius),
        Math.min(w, (bx + 2) * radius),
        Math.min(h, (by + 2) * radius),
      );
      lightBackground[by * bw + bx] = hi - m <= m - lo ? 1 : 0;
    }

  const out = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(h, y + radius + 1);
    const by = Math.floor(y / radius) * bw;
    for (let x = 0; x < w; x++) {
      const m = mean(Math.max(0, x - radius), y0, Math.min(w, x + radius + 1), y1);
      const v = data[y * w + x];
      const ink = lightBackground[by + Math.floor(x / radius)] ? v < m - margin : v > m + margin;
      if (ink) out[y * w + x] = 0;
    }
  }
  return removeLargeShapes({ width: w, height: h, data: out });
}

/**
 * Drops ink shapes that cannot be text: taller than `maxHeight` (bubble outlines, avatars, photos) or
 * long thin rules (separators). Shapes are 8-connected components of ink pixels.
 */
export function removeLargeShapes(
  image: GrayImage,
  maxHeight = Math.max(48, Math.round(image.width / 9)),
): GrayImage {
  const { width: w, height: h, data } = image;
  const label = new Int32Array(w * h).fill(-1);
  const stack = new Int32Array(w * h);
  const out = new Uint8Array(data);
  const members: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (data[start] !== 0 || label[start] !== -1) continue;
    let top = 0;
    stack[top++] = start;
    label[start] = start;
    members.length = 0;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    while (top > 0) {
      const p = stack[--top];
      members.push(p);
      const px = p % w;
      const py = (p - px) / w;
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
      if (py < minY) minY = py;
      if (py > maxY) maxY = py;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = py + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx;
          if (nx < 0 || nx >= w) continue;
          const q = ny * w + nx;
          if (data[q] === 0 && label[q] === -1) {
            label[q] = start;
            stack[top++] = q;
          }
        }
      }
    }
    const bh = maxY - minY + 1;
    const bwid = maxX - minX + 1;
    const rule = bh <= 4 && bwid >= 12 * bh && bwid > w / 4;
    if (bh > maxHeight || rule) for (const p of members) out[p] = 255;
  }
  return { width: w, height: h, data: out };
}

/** The whole preparation: scale, grey, ink on white. */
export function prepareForOcr(image: RgbaImage): GrayImage & { scale: number; dark: boolean } {
  const scale = ocrScale(image.width, image.height);
  const gray = toGray(image, scale);
  return { ...binarise(gray), scale, dark: isDarkImage(gray) };
}
