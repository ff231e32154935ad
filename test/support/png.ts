import { inflateSync } from 'node:zlib';

/** A decoded image: 8-bit RGBA, row by row. */
export interface Rgba {
  width: number;
  height: number;
  pixels: Buffer;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Decodes the PNGs that renderers write for a test to inspect: 8 bits a channel, grey or RGB with
 * or without alpha, not interlaced. Anything else is an error rather than a wrong picture.
 */
export function decodePng(png: Buffer): Rgba {
  if (png.subarray(1, 4).toString() !== 'PNG') throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let colourType = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString();
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colourType = body[9]!;
      if (body[8] !== 8 || body[12] !== 0 || CHANNELS[colourType] === undefined) throw new Error('unsupported PNG layout');
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const bpp = CHANNELS[colourType]!;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * bpp;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = rows.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? row[x - bpp]! : 0;
      const b = prev[x]!;
      const c = x >= bpp ? prev[x - bpp]! : 0;
      let p: number;
      if (filter === 0) p = 0;
      else if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const e = a + b - c;
        const [da, db, dc] = [Math.abs(e - a), Math.abs(e - b), Math.abs(e - c)];
        p = da <= db && da <= dc ? a : db <= dc ? b : c;
      } else throw new Error(`bad PNG filter ${filter}`);
      row[x] = (src[x]! + p) & 0xff;
    }
  }
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = rows.subarray(i * bpp, (i + 1) * bpp);
    const [r, g, b, alpha] = bpp >= 3 ? [s[0]!, s[1]!, s[2]!, bpp === 4 ? s[3]! : 255] : [s[0]!, s[0]!, s[0]!, bpp === 2 ? s[1]! : 255];
    pixels.writeUInt8(r, i * 4);
    pixels.writeUInt8(g, i * 4 + 1);
    pixels.writeUInt8(b, i * 4 + 2);
    pixels.writeUInt8(alpha, i * 4 + 3);
  }
  return { width, height, pixels };
}

/**
 * The share of dark pixels (luminance under half, over a white background) in each tile of a
 * `cols` × `rows` grid, row by row: a rough picture of where the ink is.
 */
export function inkByTile(img: Rgba, cols: number, rows: number): number[] {
  const dark = new Array<number>(cols * rows).fill(0);
  const total = new Array<number>(cols * rows).fill(0);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const alpha = img.pixels[i + 3]! / 255;
      const over = (v: number): number => v * alpha + 255 * (1 - alpha);
      const lum = 0.2126 * over(img.pixels[i]!) + 0.7152 * over(img.pixels[i + 1]!) + 0.0722 * over(img.pixels[i + 2]!);
      const t = Math.min(rows - 1, Math.floor((y * rows) / img.height)) * cols + Math.min(cols - 1, Math.floor((x * cols) / img.width));
      total[t]!++;
      if (lum < 128) dark[t]!++;
    }
  }
  return dark.map((d, t) => d / total[t]!);
}
