// Every real furni item (36 Flash SWFs, 32 Nitro bundles) through the variants path as the service runs
// it: the item's bundle is written and read back, then every state and every defined direction is
// rendered at sizes 64 and 32 (frame 0, and the loop as an APNG). Each item must give a picture in at
// least one state and direction at each size; nothing may throw; the APNG has the state's distinct frame
// count. REALDATA_SHEETS=<dir> writes one contact sheet per layout (never commit them: real art).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { furniLibraryLoader } from '../../src/hotel/furni.js';
import { furniModelFromLibrary } from '../../src/furni/model.js';
import { readFurniBundle, writeFurniBundle } from '../../src/furni/bundle.js';
import { encodeVariant, frameCountOf, renderVariant, sizeOffer } from '../../src/furni/variant.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { decodeApng } from '../helpers/apng-decode.js';
import { realdata, writeSheet } from '../helpers/realdata.js';

for (const layout of ['flash', 'nitro'] as const) {
  const data = realdata(layout);
  test(`real ${layout} items: every state and direction at sizes 64 and 32, stills and loops`, {
    skip: data.skip,
  }, async () => {
    const dir = layout === 'flash' ? join(data.path, 'hof_furni') : join(data.path, 'bundled', 'furniture');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(layout === 'flash' ? '.swf' : '.nitro'))
      .sort();
    assert.equal(files.length, layout === 'flash' ? 36 : 32);
    const load = furniLibraryLoader(layout);
    const rows: RgbaImage[][] = [];
    const legend: string[] = [];
    let pictures = 0;
    let loops = 0;
    let ownSmallArt = 0;
    for (const f of files) {
      const { model } = await readFurniBundle(
        await writeFurniBundle(furniModelFromLibrary(await load(readFileSync(join(dir, f)), f))),
        f,
      );
      for (const size of [64, 32] as const) {
        const offer = sizeOffer(model, size);
        assert.ok(offer, `${f}: has a size-64 visualization`);
        if (size === 32 && !offer.halved) ownSmallArt++;
        const row: RgbaImage[] = [];
        let drawn = 0;
        for (const state of offer.states) {
          for (const direction of offer.directions) {
            const still = renderVariant(model, 0, { size, state, direction, frame: 0, animated: false });
            if (!still.ok) continue;
            drawn++;
            pictures++;
            row.push(still.picture.frames[0]!);
            const frames = frameCountOf(model, offer, state, direction);
            if (frames > 1 && direction === offer.autoDirection) {
              const loop = renderVariant(model, 0, { size, state, direction, frame: 0, animated: true });
              assert.ok(loop.ok, `${f} size ${size} state ${state}: the loop renders`);
              const apng = decodeApng(await encodeVariant(loop.picture, true));
              assert.equal(
                apng.numFrames,
                frames,
                `${f} size ${size} state ${state}: one APNG frame per distinct frame`,
              );
              loops++;
            }
          }
        }
        assert.ok(drawn > 0, `${f}: something visible at size ${size}`);
        rows.push(row);
        legend.push(
          `${f} size ${size}${offer.halved ? ' (halved from 64)' : ''}: states ${offer.states.join(',')} × directions ${offer.directions.join(',')}, ${drawn} pictures`,
        );
      }
    }
    // A Flash SWF's hand-drawn size-32 art reaches the bundle (the build reads SWFs with it); Nitro
    // bundles made by nitro-converter have none, so every Nitro item's size 32 is halved from 64.
    if (layout === 'flash') assert.equal(ownSmallArt, 36, 'every Flash item drawn from its own size-32 visualization');
    else assert.equal(ownSmallArt, 0);
    legend.push(`${pictures} pictures, ${loops} loops`);
    writeSheet(`variants-${layout}`, rows, legend, 1);
  });
}
