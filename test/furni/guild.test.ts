// Guild furni (`furniture_guild_customized`): layers tagged COLOR1 / COLOR2 take the group's colours;
// a still has no group, so they take the client's defaults (0xEEEEEE, 0x4B4B4B) and the two-tone parts
// stay apart (the real gld_sofa1 drew all white before). Other visualizations ignore the tags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kitModel, px } from './kit-helpers.js';
import { renderRoom } from '../../src/furni/render.js';
import { sizeOf, type FurniModel } from '../../src/furni/model.js';
import { readFurniBundle, writeFurniBundle } from '../../src/furni/bundle.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';

/** kit_crate with its room layers tagged, optionally as a guild item (a deep copy: the kit cache stays clean). */
function tagged(visualizationType: string, tags: string[]): FurniModel {
  const base = kitModel('kit_crate');
  const def = structuredClone(base.def);
  def.visualizationType = visualizationType;
  const size = def.sizes.find((s) => s.size === 64)!;
  tags.forEach((tag, i) => (size.layers[String(i)] = { ...size.layers[String(i)], tag }));
  return { def, sprites: base.sprites };
}

/** The brightest opaque pixel of the untinted render, and the same pixel in the other render. */
function whitePixel(plainImg: ReturnType<typeof renderRoom>['image'], other: ReturnType<typeof renderRoom>['image']) {
  let best: { plain: ReturnType<typeof px>; other: ReturnType<typeof px> } | null = null;
  for (let y = 0; y < plainImg!.height; y++)
    for (let x = 0; x < plainImg!.width; x++) {
      const p = px(plainImg!, x, y);
      if (p[3] === 255 && (!best || p[0] + p[1] + p[2] > best.plain[0] + best.plain[1] + best.plain[2]))
        best = { plain: p, other: px(other!, x, y) };
    }
  return best && best.plain[0] + best.plain[1] + best.plain[2] > 300 ? best : null;
}

test('guild furni: COLOR1 layers draw in 0xEEEEEE, COLOR2 in 0x4B4B4B, alpha kept', () => {
  const layers = sizeOf(kitModel('kit_crate'), 64)!.layerCount;
  const plain = renderRoom(tagged('furniture_static', Array(layers).fill('COLOR2'))).image!;
  const c2 = renderRoom(tagged('furniture_guild_customized', Array(layers).fill('COLOR2'))).image!;
  const c1 = renderRoom(tagged('furniture_guild_customized', Array(layers).fill('COLOR1'))).image!;
  assert.deepEqual([c2.width, c2.height], [plain.width, plain.height]);
  const w2 = whitePixel(plain, c2);
  assert.ok(w2, 'the kit crate has a light pixel to compare');
  const mul = (c: number, t: number) => Math.round((c * t) / 255);
  for (let ch = 0; ch < 3; ch++)
    assert.ok(
      Math.abs(w2.other[ch]! - mul(w2.plain[ch]!, 0x4b)) <= 1,
      `COLOR2 channel ${ch}: ${w2.other} from ${w2.plain}`,
    );
  assert.equal(w2.other[3], w2.plain[3]);
  const w1 = whitePixel(plain, c1)!;
  for (let ch = 0; ch < 3; ch++)
    assert.ok(Math.abs(w1.other[ch]! - mul(w1.plain[ch]!, 0xee)) <= 1, `COLOR1 channel ${ch}`);
});

test('guild furni: untagged layers and non-guild visualizations are not tinted; the bundle keeps the rule', async () => {
  const layers = sizeOf(kitModel('kit_crate'), 64)!.layerCount;
  const untaggedGuild = renderRoom(tagged('furniture_guild_customized', Array(layers).fill(''))).image!;
  const staticTagged = renderRoom(tagged('furniture_static', Array(layers).fill('COLOR1'))).image!;
  const original = renderRoom(kitModel('kit_crate')).image!;
  assert.ok(encodePngCompact(untaggedGuild).equals(encodePngCompact(original)));
  assert.ok(encodePngCompact(staticTagged).equals(encodePngCompact(original)));
  // the bundle carries the visualization type and tags, so a client re-render matches the still
  const guild = tagged('furniture_guild_customized', Array(layers).fill('COLOR2'));
  const { model } = await readFurniBundle(await writeFurniBundle(guild));
  assert.ok(encodePngCompact(renderRoom(model).image!).equals(encodePngCompact(renderRoom(guild).image!)));
});
