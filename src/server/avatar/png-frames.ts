// Frame count of a PNG/APNG body (the acTL chunk's num_frames, else 1), so images read back from the
// disk cache answer `x-imager-frames` without a side file.
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function pngFrameCount(png: Uint8Array): number {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  while (at + 8 <= png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    if (type === 'acTL') {
      if (at + 12 > png.length) throw new Error('truncated acTL chunk');
      return view.getUint32(at + 8);
    }
    if (type === 'IDAT' || type === 'IEND') return 1;
    at += 12 + length;
  }
  throw new Error('truncated PNG');
}
