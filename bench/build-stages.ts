// Where an item's build time goes, by stage: the build's own steps run one item at a time in one
// thread over a sample of real bundles, each step timed in CPU (process.cpuUsage, which includes the
// libvips threads of a call awaited on its own). The full parallel build gives the totals; this gives
// the shares.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { readNitroBundle } from '../src/formats/nitro-container.js';
import { readAssetLibrary } from '../src/formats/asset-library.js';
import { decodeImageNative } from '../src/imaging/codec.js';
import { encodePngCompact } from '../src/imaging/png-compact.js';
import { writeBundle } from '../src/formats/furni-bundle.js';
import { furniModelFromLibrary } from '../src/furni/model.js';
import { chooseStill, renderIcon, renderRoom } from '../src/furni/render.js';
import { bundleContent } from '../src/furni/bundle.js';

export const STAGES = [
  'read file, container, JSON',
  'spritesheet decode',
  'sprite cut, draw model',
  'state choice',
  'compositing (stills, icon)',
  'PNG encode',
  'bundle content',
  'bundle atlas (WebP) + manifest',
  'hash + write outputs',
] as const;
export type Stage = (typeof STAGES)[number];

export interface StageReport {
  items: number;
  /** CPU milliseconds per item by stage. */
  msPerItem: Record<Stage, number>;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs the build's steps for each (asset file, colour ids) and sums their CPU by stage. */
export async function measureStages(items: { file: string; colours: number[] }[]): Promise<StageReport> {
  const total = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  const out = mkdtempSync(join(tmpdir(), 'bench-stages-'));
  let n = 0;
  const timed = async <T>(stage: Stage, f: () => T | Promise<T>): Promise<T> => {
    const c = cpuMs();
    const r = await f();
    total[stage] += cpuMs() - c;
    return r;
  };
  try {
    for (const it of items) {
      let bytes: Buffer;
      let sheet: Buffer | undefined;
      let c = cpuMs();
      bytes = readFileSync(it.file);
      const readMs = cpuMs() - c;
      c = cpuMs();
      try {
        const files = readNitroBundle(bytes, it.file);
        for (const [name, data] of files) if (name.endsWith('.json')) JSON.parse(data.toString('utf8'));
        sheet = [...files.entries()].find(([name]) => name.endsWith('.png'))?.[1];
      } catch {
        continue; // a broken item: the build reports it; nothing to time
      }
      const containerMs = cpuMs() - c;
      total['read file, container, JSON'] += readMs + containerMs;
      c = cpuMs();
      if (sheet) await decodeImageNative(sheet);
      const decodeMs = cpuMs() - c;
      total['spritesheet decode'] += decodeMs;
      // readAssetLibrary repeats the container, JSON and decode just timed: only the rest (cutting the
      // sprites out of the sheet) is its own.
      c = cpuMs();
      let lib;
      try {
        lib = await readAssetLibrary(bytes, it.file, { nativeDecode: true });
      } catch {
        continue;
      }
      total['sprite cut, draw model'] += Math.max(0, cpuMs() - c - containerMs - decodeMs);
      const model = await timed('sprite cut, draw model', () => furniModelFromLibrary(lib));
      await timed('state choice', () => chooseStill(model));
      const images = await timed('compositing (stills, icon)', () => [
        ...[0, ...it.colours].map((c) => renderRoom(model, { colorId: c }).image),
        renderIcon(model),
      ]);
      const pngs = await timed('PNG encode', () => images.filter((i) => i !== null).map((i) => encodePngCompact(i)));
      const { content, sprites } = await timed('bundle content', () => bundleContent(model));
      const bundle = await timed('bundle atlas (WebP) + manifest', () => writeBundle(content, sprites));
      await timed('hash + write outputs', () => {
        for (const [i, b] of [...pngs, bundle].entries()) {
          createHash('sha256').update(b).digest('hex');
          writeFileSync(join(out, `${i}.out`), b);
        }
        createHash('sha256').update(bytes).digest('hex');
      });
      n++;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const msPerItem = Object.fromEntries(STAGES.map((s) => [s, total[s] / Math.max(1, n)])) as Record<Stage, number>;
  return { items: n, msPerItem };
}
