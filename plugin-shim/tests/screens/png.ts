// A small PNG decoder for the screenshot tests: 8-bit RGB or RGBA,
// non-interlaced (what Chromium's screenshots are), with node:zlib for
// the image data. It returns RGBA pixels; anything else is refused.

import { inflateSync } from "node:zlib";

export interface Image {
  width: number;
  height: number;
  /** RGBA, row after row. */
  rgba: Uint8Array;
}

const signature = [137, 80, 78, 71, 13, 10, 26, 10];

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** unfilter undoes each row's filter (PNG's five) in place, over raw (bpp bytes a pixel). */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      const v = raw[src + x]!;
      let pred = 0;
      if (f === 1) pred = a;
      else if (f === 2) pred = b;
      else if (f === 3) pred = (a + b) >> 1;
      else if (f === 4) pred = paeth(a, b, c);
      else if (f !== 0) throw new Error(`PNG: unknown filter ${f} on row ${y}`);
      out[row + x] = (v + pred) & 0xff;
    }
  }
  return out;
}

/** decodePNG returns the image a PNG file holds. */
export function decodePNG(png: Uint8Array): Image {
  for (let i = 0; i < 8; i++) if (png[i] !== signature[i]) throw new Error("not a PNG file");
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat: Uint8Array[] = [];
  for (let off = 8; off < png.length; ) {
    const len = dv.getUint32(off);
    const type = String.fromCharCode(...png.subarray(off + 4, off + 8));
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = dv.getUint32(off + 8);
      height = dv.getUint32(off + 12);
      const depth = data[8];
      colorType = data[9]!;
      if (depth !== 8 || (colorType !== 2 && colorType !== 6) || data[12] !== 0) throw new Error(`PNG: only 8-bit RGB or RGBA, non-interlaced (depth ${depth}, color type ${colorType})`);
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    off += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : 3;
  const px = unfilter(inflateSync(Buffer.concat(idat)), width, height, bpp);
  if (bpp === 4) return { width, height, rgba: px };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < px.length; i += 3, j += 4) {
    rgba[j] = px[i]!;
    rgba[j + 1] = px[i + 1]!;
    rgba[j + 2] = px[i + 2]!;
    rgba[j + 3] = 255;
  }
  return { width, height, rgba };
}

/**
 * diffPixels counts the pixels of a and b whose channels differ by more
 * than tolerance (0–255) on any channel; images of different sizes differ
 * everywhere.
 */
export function diffPixels(a: Image, b: Image, tolerance: number): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.width * a.height, b.width * b.height);
  let n = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    for (let k = 0; k < 4; k++) {
      if (Math.abs(a.rgba[i + k]! - b.rgba[i + k]!) > tolerance) {
        n++;
        break;
      }
    }
  }
  return n;
}
