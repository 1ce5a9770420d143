// room.nitro's visualization document: a landscape layer of moving items is an animation layer, not a fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoomVisualization } from '../../src/formats/room-visualization.js';

const set = (planes: unknown[]) => ({ planes, materials: [], textures: [] });

test("a landscape's items layer (its clouds) is not read as a plain colour layer", () => {
  const doc = parseRoomVisualization(
    {
      roomVisualization: {
        floorData: set([]),
        wallData: set([]),
        landscapeData: set([
          {
            id: 'default',
            animatedVisualization: [
              {
                size: 64,
                allLayers: [
                  { color: 8703727 },
                  { items: [{ id: 1, assetId: 'landscape_64_anim_item_1', randomX: '100%', speedX: 0.2 }] },
                ],
              },
            ],
          },
        ]),
        maskData: { masks: [] },
      },
    },
    'room.json',
  );
  // the sky colour alone: an items layer read as a layer would fill the sky white (0xffffff) over it
  assert.deepEqual(
    doc.landscape.planes
      .get('default')!
      .sizes.get(64)!
      .map((l) => l.color),
    [0x84ceef],
  );
});
