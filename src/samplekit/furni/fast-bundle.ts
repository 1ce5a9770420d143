// Writes an asset library exactly as `writeAssetLibrary` does, but reuses an already encoded atlas
// when the sprites are the same images under a different classname. The generated benchmark items
// share a few dozen sprite sets, so 17,000 bundles cost JSON + deflate each instead of a PNG encode.
// A test checks the bytes equal `writeAssetLibrary`'s.
import { type AssetLibrary, packShelves } from '../../formats/asset-library.js';
import { type NitroAssetData, type NitroSpriteFrame } from '../../formats/nitro-asset-types.js';
import { writeNitroBundle } from '../../formats/nitro-container.js';
import { createImage } from '../../imaging/image.js';
import { encodePngCompact } from '../../imaging/png-compact.js';

/** Encoded atlases by sprite-set key; one per kit build, never shared between builds. */
export class AtlasCache {
  private readonly atlases = new Map<string, Buffer>();

  /**
   * `spriteSetKey` must name the sprite images and their names relative to the classname: two
   * libraries with the same key must hold identical sprites under `<cn>_<same suffix>`.
   */
  async write(lib: AssetLibrary, spriteSetKey: string): Promise<Buffer> {
    const names = [...lib.sprites.keys()].sort();
    const { placements, width, height } = packShelves(
      names.map((n) => ({ key: n, width: lib.sprites.get(n)!.width, height: lib.sprites.get(n)!.height })),
    );
    const frames: Record<string, NitroSpriteFrame> = {};
    for (const p of placements) {
      frames[`${lib.name}_${p.key}`] = {
        frame: { x: p.x, y: p.y, w: p.width, h: p.height },
        rotated: false,
        trimmed: false,
        spriteSourceSize: { x: 0, y: 0, w: p.width, h: p.height },
        sourceSize: { w: p.width, h: p.height },
        pivot: { x: 0.5, y: 0.5 },
      };
    }
    const aw = Math.max(1, width);
    const ah = Math.max(1, height);
    let png = this.atlases.get(spriteSetKey);
    if (!png && names.length > 0) {
      const atlas = createImage(aw, ah);
      for (const p of placements) {
        const img = lib.sprites.get(p.key)!;
        for (let row = 0; row < img.height; row++) {
          atlas.data.set(
            img.data.subarray(row * img.width * 4, (row + 1) * img.width * 4),
            ((p.y + row) * aw + p.x) * 4,
          );
        }
      }
      png = encodePngCompact(atlas);
      this.atlases.set(spriteSetKey, png);
    }
    const imageName = `${lib.name}.png`;
    const doc: NitroAssetData = {
      ...lib.data,
      name: lib.name,
      spritesheet: { meta: { image: imageName, format: 'RGBA8888', size: { w: aw, h: ah }, scale: 1 }, frames },
    };
    const entries: [string, Uint8Array][] = [[`${lib.name}.json`, Buffer.from(JSON.stringify(doc))]];
    if (png) entries.push([imageName, png]);
    return writeNitroBundle(entries);
  }
}
