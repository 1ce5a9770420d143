// A unit's posture on the floor items under its tile (a bot's, a pet's: the emulator runs one rule for every
// unit, RoomCycleManager.cycleRoomUnit), with the heights the rule needs.
import { drawnClassname } from '../../furni/bundles.js';
import { type LoadedRoomAssets } from '../assets.js';
import { splitClassname } from '../items.js';
import { type RoomItem } from '../model.js';
import { itemsUnder, type Posture, type PostureUnit, roomItemPosture, unitPosture } from '../posture.js';

/** A unit's posture on the floor items under it; an item without a stack height has its bundle's logic height. */
export async function furniPosture(
  a: LoadedRoomAssets,
  floorItems: readonly RoomItem[],
  unit: PostureUnit,
): Promise<Posture> {
  const under = await Promise.all(
    itemsUnder(floorItems, unit.x, unit.y).map(async (it) => {
      if (it.stackHeight !== undefined) return roomItemPosture(it);
      const found = await a.furni(splitClassname(drawnClassname(it)).base);
      return roomItemPosture(it, found.ok ? found.model.def.dimensions.z : 0);
    }),
  );
  return unitPosture(under, unit);
}
