// Reference reader of the furni bundle (docs/bundle-format.md), plain ES module JavaScript for browsers
// (and Node ≥ 20, which has DecompressionStream): header checks, gzip via DecompressionStream, a small
// CBOR decoder for the subset the format uses (RFC 8949: maps, arrays, integers, floats, text, bytes,
// booleans, null; no tags), and the draw rules of docs/furni-rendering.md to compose a frame. No
// framework and no dependency: a vendored CBOR library would be ten times this file for a subset we
// fully control. The server's reader (src/furni/bundle.ts) is the authority; tests compare the two.

const MAGIC = 'HFUR';
export const BUNDLE_VERSION = 1;
export const FRAME_MS = 120;
const SEEN_ALPHA = 16;
const MIN_SEEN_PIXELS = 2;

let crcTable;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Header fields, checked in the documented order; throws an Error naming the offset on any mismatch. */
export function readHeader(bytes) {
  if (bytes.length < 20) throw new Error('bundle: shorter than its 20-byte header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== MAGIC)
    throw new Error('bundle: bad magic at offset 0');
  const version = view.getUint16(4, true);
  if (version !== BUNDLE_VERSION) throw new Error(`bundle: unsupported format version ${version} at offset 4`);
  const flags = view.getUint16(6, true);
  if (flags !== 0) throw new Error(`bundle: unknown flags ${flags} at offset 6`);
  const manifestLength = view.getUint32(8, true);
  const atlasLength = view.getUint32(12, true);
  if (20 + manifestLength + atlasLength !== bytes.length)
    throw new Error('bundle: section lengths do not add up to the file length');
  const crc = view.getUint32(16, true);
  if (crc32(bytes.subarray(20)) !== crc) throw new Error('bundle: CRC-32 mismatch at offset 16');
  return { version, flags, manifestLength, atlasLength, crc32: crc };
}

/** Decodes one CBOR item (the subset above). */
export function decodeCbor(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  const length = (info) => {
    if (info < 24) return info;
    if (info === 24) return bytes[at++];
    if (info === 25) {
      at += 2;
      return view.getUint16(at - 2);
    }
    if (info === 26) {
      at += 4;
      return view.getUint32(at - 4);
    }
    if (info === 27) {
      const v = view.getBigUint64(at);
      at += 8;
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('cbor: integer too large');
      return Number(v);
    }
    throw new Error(`cbor: indefinite or reserved length at ${at - 1}`);
  };
  const half = (h) => {
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (m + 1024) * 2 ** (e - 25);
    return h & 0x8000 ? -v : v;
  };
  const item = () => {
    if (at >= bytes.length) throw new Error('cbor: truncated');
    const b = bytes[at++];
    const major = b >> 5;
    const info = b & 31;
    switch (major) {
      case 0:
        return length(info);
      case 1:
        return -1 - length(info);
      case 2: {
        const n = length(info);
        at += n;
        return bytes.slice(at - n, at);
      }
      case 3: {
        const n = length(info);
        at += n;
        return text.decode(bytes.subarray(at - n, at));
      }
      case 4: {
        const n = length(info);
        const out = [];
        for (let i = 0; i < n; i++) out.push(item());
        return out;
      }
      case 5: {
        const n = length(info);
        const out = {};
        for (let i = 0; i < n; i++) {
          const k = item();
          out[String(k)] = item();
        }
        return out;
      }
      case 7:
        if (info === 20) return false;
        if (info === 21) return true;
        if (info === 22 || info === 23) return null;
        if (info === 25) {
          at += 2;
          return half(view.getUint16(at - 2));
        }
        if (info === 26) {
          at += 4;
          return view.getFloat32(at - 4);
        }
        if (info === 27) {
          at += 8;
          return view.getFloat64(at - 8);
        }
        throw new Error(`cbor: simple value ${info} at ${at - 1}`);
      default:
        throw new Error(`cbor: major type ${major} (tags are not used) at ${at - 1}`);
    }
  };
  const v = item();
  if (at !== bytes.length) throw new Error('cbor: bytes after the item');
  return v;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Bundle bytes → { header, manifest, atlasBytes } (the WebP atlas still encoded). */
export async function readBundle(bytes) {
  const header = readHeader(bytes);
  const manifest = decodeCbor(await gunzip(bytes.subarray(20, 20 + header.manifestLength)));
  if (manifest?.format !== 1 || typeof manifest.classname !== 'string')
    throw new Error('bundle: manifest is not format 1');
  return { header, manifest, atlasBytes: bytes.subarray(20 + header.manifestLength) };
}

/** Browser only: the WebP atlas → straight RGBA pixels { width, height, data }. */
export async function decodeAtlas(atlasBytes) {
  const bitmap = await createImageBitmap(new Blob([atlasBytes], { type: 'image/webp' }), {
    premultiplyAlpha: 'none',
    colorSpaceConversion: 'none',
  });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  const img = ctx.getImageData(0, 0, bitmap.width, bitmap.height, { colorSpace: 'srgb' });
  return { width: img.width, height: img.height, data: img.data };
}

// ---- drawing (docs/furni-rendering.md) ---------------------------------------------------------

/** The states of a size (64 or 32): its resting states by id, plus state 0 always; static → [0]. */
export function statesOf(manifest, size) {
  const states = size === 32 ? (manifest.sizes['32']?.states ?? {}) : (manifest.states ?? {});
  if (manifest.visualizationType === 'furniture_static' || Object.keys(states).length === 0) return [0];
  return [...new Set([0, ...Object.keys(states).map(Number)])].sort((a, b) => a - b);
}

/** Defined directions of a size, in data order (none → [0]). */
export function directionsOf(manifest, size) {
  const ids = (manifest.sizes[String(size)]?.directions ?? []).map((d) => d.id);
  return ids.length ? [...new Set(ids)] : [0];
}

/** The nearest defined direction to `wanted` (SizeData.getValidDirection). */
export function validDirection(sizeDef, wanted) {
  const dirs = sizeDef.directions ?? [];
  if (dirs.some((d) => d.id === wanted)) return wanted;
  const degrees = (((wanted * sizeDef.angle) % 360) + 360) % 360;
  let best = -1;
  let bestDiff = -1;
  for (const d of dirs) {
    let diff = (d.id * sizeDef.angle - degrees + 360) % 360;
    if (diff > 180) diff = 360 - diff;
    if (bestDiff < 0 || diff < bestDiff) {
      bestDiff = diff;
      best = d.id;
    }
  }
  return best >= 0 ? Math.trunc(best) : 0;
}

function layerFrameAt(layer, tick, direction) {
  const total = layer.sequences.reduce((n, s) => n + s.frames.length * s.loopCount, 0);
  if (total < 1) return null;
  let f = Math.floor(tick / layer.frameRepeat);
  const loops = Math.floor(f / total);
  f %= total;
  if ((layer.loopCount > 0 && loops >= layer.loopCount) || (layer.loopCount <= 0 && total === 1)) f = total - 1;
  let seen = 0;
  for (const seq of layer.sequences) {
    const n = seq.frames.length * seq.loopCount;
    if (f < seen + n) {
      const fr = seq.frames[(f - seen) % seq.frames.length];
      const off = fr.offsets?.[String(direction)];
      return { id: fr.id, x: off ? off.x : (fr.x ?? 0), y: off ? off.y : (fr.y ?? 0) };
    }
    seen += n;
  }
  return null;
}

function stateOf(manifest, size, state) {
  if (statesOf(manifest, size).length === 1) return undefined;
  return (size === 32 ? manifest.sizes['32'].states : manifest.states)?.[String(state)];
}

/** First tick of each distinct frame of a state's loop (the ticks where something changes). */
export function distinctFrameTicks(manifest, size, state, direction) {
  const st = stateOf(manifest, size, state);
  if (!st) return [0];
  const layerCount = manifest.sizes[String(size)].layerCount;
  let prev = [];
  const out = [];
  for (let t = 0; t < st.loopTicks; t++) {
    const now = [];
    for (let i = 0; i < layerCount; i++) {
      const l = st.layers[String(i)];
      const f = (l && layerFrameAt(l, t, direction)) || { id: 0, x: 0, y: 0 };
      now.push(f.id, f.x, f.y);
    }
    if (t === 0 || now.some((v, i) => v !== prev[i])) out.push(t);
    prev = now;
  }
  return out.length ? out : [0];
}

const div255 = (v) => (v + 128 + ((v + 128) >> 8)) >> 8;

function parseInk(v) {
  const s = v === undefined || v === null ? '' : String(v).trim().toLowerCase();
  return s === 'add' || s === '33'
    ? 'add'
    : s === 'subtract' || s === '34'
      ? 'subtract'
      : s === 'darken'
        ? 'darken'
        : 'normal';
}

function seenPixels(sprite, alpha, ink) {
  const { atlas, rect } = sprite;
  let n = 0;
  for (let y = 0; y < rect[3]; y++) {
    for (let x = 0; x < rect[2]; x++) {
      const i = ((rect[1] + y) * atlas.width + rect[0] + x) * 4;
      const a = atlas.data[i + 3];
      if (a === 0) continue;
      if (
        ink === 'add'
          ? a * alpha * Math.max(atlas.data[i], atlas.data[i + 1], atlas.data[i + 2]) >= SEEN_ALPHA * 255 * 255
          : a * alpha >= SEEN_ALPHA * 255
      )
        n++;
    }
  }
  return n;
}

/** The same integer maths as src/imaging/composite.ts's drawSprite (flip, tint, alpha, ink). */
function drawSprite(dst, sprite, dx, dy, o) {
  const { atlas, rect } = sprite;
  const [rx, ry, w, h] = rect;
  const la = Math.max(0, Math.min(255, Math.round(o.alpha)));
  if (la === 0) return;
  const tr = (o.tint >> 16) & 0xff;
  const tg = (o.tint >> 8) & 0xff;
  const tb = o.tint & 0xff;
  const tinted = (o.tint & 0xffffff) !== 0xffffff;
  const d = dst.data;
  const s = atlas.data;
  for (let y = Math.max(0, dy); y < Math.min(dst.height, dy + h); y++) {
    for (let x = Math.max(0, dx); x < Math.min(dst.width, dx + w); x++) {
      const sx = o.flipH ? w - 1 - (x - dx) : x - dx;
      const si = ((ry + y - dy) * atlas.width + rx + sx) * 4;
      let sa = s[si + 3];
      if (sa === 0) continue;
      if (la !== 255) sa = div255(sa * la);
      if (sa === 0) continue;
      let sr = s[si];
      let sg = s[si + 1];
      let sb = s[si + 2];
      if (o.ink === 'add') {
        // The light an ADD sprite emits (docs/furni-rendering.md): alpha × brightest channel.
        const m = Math.max(sr, sg, sb);
        if (m === 0) continue;
        const a0 = s[si + 3];
        sr = Math.round((sr * 255) / m);
        sg = Math.round((sg * 255) / m);
        sb = Math.round((sb * 255) / m);
        sa = Math.round((a0 * m) / 255);
        if (la !== 255) sa = div255(sa * la);
        if (sa === 0) continue;
      }
      if (tinted) {
        sr = div255(sr * tr);
        sg = div255(sg * tg);
        sb = div255(sb * tb);
      }
      const di = (y * dst.width + x) * 4;
      const da = d[di + 3];
      if (o.ink === 'add') {
        const oa = Math.min(255, sa + da);
        d[di] = Math.min(255, Math.round(Math.min(65025, sr * sa + d[di] * da) / oa));
        d[di + 1] = Math.min(255, Math.round(Math.min(65025, sg * sa + d[di + 1] * da) / oa));
        d[di + 2] = Math.min(255, Math.round(Math.min(65025, sb * sa + d[di + 2] * da) / oa));
        d[di + 3] = oa;
        continue;
      }
      if (o.ink === 'subtract') {
        if (da === 0) continue;
        d[di] = Math.round(Math.max(0, d[di] * da - sr * sa) / da);
        d[di + 1] = Math.round(Math.max(0, d[di + 1] * da - sg * sa) / da);
        d[di + 2] = Math.round(Math.max(0, d[di + 2] * da - sb * sa) / da);
        continue;
      }
      if (o.ink === 'darken' && da > 0) {
        sr = div255((255 - da) * sr + da * Math.min(sr, d[di]));
        sg = div255((255 - da) * sg + da * Math.min(sg, d[di + 1]));
        sb = div255((255 - da) * sb + da * Math.min(sb, d[di + 2]));
      }
      if (sa === 255 || da === 0) {
        d[di] = sr;
        d[di + 1] = sg;
        d[di + 2] = sb;
        d[di + 3] = sa;
        continue;
      }
      const dw = da * (255 - sa);
      const oa255 = sa * 255 + dw;
      d[di] = Math.round((sr * sa * 255 + d[di] * dw) / oa255);
      d[di + 1] = Math.round((sg * sa * 255 + d[di + 1] * dw) / oa255);
      d[di + 2] = Math.round((sb * sa * 255 + d[di + 2] * dw) / oa255);
      d[di + 3] = div255(oa255);
    }
  }
}

const BADGE_VIS = new Set([
  'furniture_badge_display',
  'furniture_guild_customized',
  'furniture_achievement_resolution',
]);
const GUILD = { COLOR1: 0xeeeeee, COLOR2: 0x4b4b4b };

/**
 * One frame, uncropped: { width, height, data, originX, originY } (origin = the item's 0,0 in it), or
 * null when no visible layer is drawn. `atlas` is decodeAtlas's result; size 64 or 32 (as carried).
 */
export function composeFrame(manifest, atlas, { size = 64, state, direction, tick = 0, colorId = 0 }) {
  const sizeDef = manifest.sizes[String(size)];
  if (!sizeDef) return null;
  const st = stateOf(manifest, size, state);
  const colors = (size === 64 ? manifest.cl : sizeDef.cl)?.[String(colorId)];
  const dirLayers = (sizeDef.directions ?? []).find((d) => d.id === direction)?.layers ?? {};
  const placed = [];
  for (let i = 0; i < sizeDef.layerCount; i++) {
    const l = st?.layers[String(i)];
    const frame = (l && layerFrameAt(l, tick, direction)) || { id: 0, x: 0, y: 0 };
    const name = `${manifest.classname}_${size}_${String.fromCharCode(97 + i)}_${direction}_${frame.id}`;
    const s = manifest.sprites[name];
    if (!s) continue;
    const layer = {
      x: 0,
      y: 0,
      z: 0,
      alpha: 255,
      ink: undefined,
      tag: '',
      ...(sizeDef.layers?.[String(i)] ?? {}),
      ...(dirLayers[String(i)] ?? {}),
    };
    if (layer.tag === 'BADGE' && BADGE_VIS.has(manifest.visualizationType)) continue;
    const sprite = { atlas, rect: s.rect };
    const ink = parseInk(layer.ink);
    if (seenPixels(sprite, layer.alpha, ink) < MIN_SEEN_PIXELS) continue;
    const w = s.rect[2];
    const left = (s.flipH ? s.x - w : -s.x) + layer.x + frame.x;
    const top = -s.y + layer.y + frame.y;
    const tint =
      (manifest.visualizationType === 'furniture_guild_customized' ? GUILD[layer.tag] : undefined) ??
      colors?.[String(i)] ??
      0xffffff;
    placed.push({ id: i, sprite, flipH: !!s.flipH, left, top, z: layer.z, alpha: layer.alpha, ink, tint });
  }
  const drawn = placed.filter((p) => p.sprite.rect[2] > 0 && p.sprite.rect[3] > 0);
  if (!drawn.length) return null;
  drawn.sort((a, b) => a.z - b.z || a.id - b.id);
  const x0 = Math.min(...drawn.map((p) => p.left));
  const y0 = Math.min(...drawn.map((p) => p.top));
  const x1 = Math.max(...drawn.map((p) => p.left + p.sprite.rect[2]));
  const y1 = Math.max(...drawn.map((p) => p.top + p.sprite.rect[3]));
  const img = {
    width: x1 - x0,
    height: y1 - y0,
    data: new Uint8ClampedArray((x1 - x0) * (y1 - y0) * 4),
    originX: -x0,
    originY: -y0,
  };
  for (const p of drawn) drawSprite(img, p.sprite, p.left - x0, p.top - y0, p);
  return img;
}

/**
 * Every distinct frame of a state's loop on one canvas (the union of their visible pixels, placed by
 * the item's origin): { width, height, frames: [Uint8ClampedArray…], frameMs } — what the sprite sheet
 * of spec §2.5 is made of. Null when nothing is visible.
 */
export function loopFrames(manifest, atlas, { size = 64, state, direction, colorId = 0 }) {
  const ticks = distinctFrameTicks(manifest, size, state, direction);
  const composed = ticks.map((tick) => composeFrame(manifest, atlas, { size, state, direction, tick, colorId }));
  let box = null;
  for (const c of composed) {
    if (!c) continue;
    let bx0 = Infinity,
      by0 = Infinity,
      bx1 = -Infinity,
      by1 = -Infinity;
    for (let y = 0; y < c.height; y++)
      for (let x = 0; x < c.width; x++)
        if (c.data[(y * c.width + x) * 4 + 3] > 0) {
          bx0 = Math.min(bx0, x);
          by0 = Math.min(by0, y);
          bx1 = Math.max(bx1, x + 1);
          by1 = Math.max(by1, y + 1);
        }
    if (bx1 < 0) continue;
    const b = [bx0 - c.originX, by0 - c.originY, bx1 - c.originX, by1 - c.originY];
    box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
  }
  if (!box) return null;
  const width = box[2] - box[0];
  const height = box[3] - box[1];
  const frames = composed.map((c) => {
    const out = new Uint8ClampedArray(width * height * 4);
    if (!c) return out;
    for (let y = 0; y < height; y++) {
      const sy = box[1] + c.originY + y;
      if (sy < 0 || sy >= c.height) continue;
      for (let x = 0; x < width; x++) {
        const sx = box[0] + c.originX + x;
        if (sx < 0 || sx >= c.width) continue;
        out.set(c.data.subarray((sy * c.width + sx) * 4, (sy * c.width + sx) * 4 + 4), (y * width + x) * 4);
      }
    }
    return out;
  });
  return { width, height, frames, frameMs: FRAME_MS };
}
