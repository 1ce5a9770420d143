// A floor item: the furni standing on a tile (its row's x, y, z and rotation), drawn from its bundle in the
// direction the bundle has nearest its rotation, in the state its stored data gives; a floor-hole item also
// cuts the floor under it.
import { drawnClassname } from '../../furni/bundles.js';
import { validDirection } from '../../furni/render.js';
import { type LoadedRoomAssets } from '../assets.js';
import { depthOf, project } from '../geometry.js';
import { type Heightmap } from '../heightmap.js';
import { type FloorHole, floorHole, furniState, splitClassname } from '../items.js';
import { type RoomItem } from '../model.js';
import { doorDisplacement } from '../planes.js';
import { itemFrame, itemModel } from './furni-item.js';
import { roomItemPeriod } from '../../furni/animation.js';
import { type ObjectContext, OFF_MAP, onMap, type RoomObject } from './room-object.js';

export async function* floorItems(ctx: ObjectContext): AsyncGenerator<RoomObject> {
  for (const it of ctx.items) {
    if (it.kind !== 'floor') continue;
    if (!onMap(ctx.map, it.x, it.y, it.z)) {
      ctx.skip({ id: it.id, kind: 'floor', classname: it.classname, reason: OFF_MAP });
      continue;
    }
    const m = await itemModel(ctx, it);
    if (!m) continue;
    const rot = ((Math.trunc(it.rot) % 8) + 8) % 8;
    const direction = validDirection(m.size, rot);
    const state = furniState(it.extraData, m.model.def.logicType);
    const at = project(ctx.scale, it.x, it.y, it.z);
    const sx = Math.round(at.x);
    const sy = Math.round(at.y);
    const turned = rot % 4 === 2;
    yield {
      depth: depthOf(it.x, it.y, it.z, sx) + doorDisplacement(ctx.door, it.x, it.y, it.z),
      entry: {
        id: it.id,
        kind: 'floor',
        classname: it.classname,
        tile: { x: it.x, y: it.y, z: it.z },
        direction,
        state,
        ...(m.colorId !== undefined ? { colorId: m.colorId } : {}),
        footprint: { x: turned ? it.length : it.width, y: turned ? it.width : it.length },
      },
      frame: (tick) => itemFrame(m, state, direction, tick, sx, sy),
      period: (tick) => roomItemPeriod(m.model, m.size, { state, direction, held: tick.held }),
    };
  }
}

/**
 * The floor the room's floor-hole items cut away (FurnitureFloorHoleLogic in state 0 → RoomEngine.
 * addRoomInstanceFloorHole → RoomPlaneParser.addFloorHole): each such item's root tile and logic size.
 */
export async function floorHoles(
  a: LoadedRoomAssets,
  items: readonly RoomItem[],
  map: Heightmap,
): Promise<FloorHole[]> {
  const out: FloorHole[] = [];
  for (const it of items) {
    if (it.kind !== 'floor' || !onMap(map, it.x, it.y, it.z)) continue;
    const found = await a.furni(splitClassname(drawnClassname(it)).base);
    if (!found.ok) continue;
    const def = found.model.def;
    const hole = floorHole(def.logicType, furniState(it.extraData, def.logicType), it, def.dimensions);
    if (hole) out.push(hole);
  }
  return out;
}
