// A wall item: the furni hung on a wall at its stored wall position (`:w=x,y l=x,y l|r`), facing out of its
// wall, in the state its stored data gives; an item whose bundle names a mask type cuts a window in the wall.
import { validDirection } from '../../furni/render.js';
import { depthOf, parseWallPosition, project, wallLocation } from '../geometry.js';
import { furniState } from '../items.js';
import { maskBitmap, type RoomMask } from '../masks.js';
import { type RoomItem } from '../model.js';
import { doorDisplacement } from '../planes.js';
import { type ReportMask } from '../report.js';
import { itemFrame, itemModel } from './furni-item.js';
import { roomItemPeriod } from '../../furni/animation.js';
import { type ObjectContext, OFF_MAP, onMap, type RoomObject } from './room-object.js';

export async function* wallItems(ctx: ObjectContext): AsyncGenerator<RoomObject> {
  for (const it of ctx.items) {
    if (it.kind !== 'wall') continue;
    const pos = parseWallPosition(it.wallPosition);
    const loc = pos && wallLocation(pos, ctx.wallTop);
    if (loc && !onMap(ctx.map, loc.x, loc.y, loc.z)) {
      ctx.skip({ id: it.id, kind: 'wall', classname: it.classname, reason: OFF_MAP });
      continue;
    }
    if (!pos || !loc) {
      ctx.skip({
        id: it.id,
        kind: 'wall',
        classname: it.classname,
        reason: `wall position ${JSON.stringify(it.wallPosition)} is not :w=x,y l=x,y l|r`,
      });
      continue;
    }
    const m = await itemModel(ctx, it);
    if (!m) continue;
    // LegacyWallGeometry.getDirection: the left wall faces 90°, the right wall 180° (directions 2 and 4).
    const direction = validDirection(m.size, pos.side === 'l' ? 2 : 4);
    const state = furniState(it.extraData, m.model.def.logicType, 'wall');
    const at = project(ctx.scale, loc.x, loc.y, loc.z);
    const sx = Math.round(at.x);
    const sy = Math.round(at.y);
    const mask =
      ctx.walls && m.maskType ? windowMask(ctx, it, m.maskType, pos.side, [loc.x, loc.y, loc.z], sx, sy) : null;
    yield {
      depth: depthOf(loc.x, loc.y, loc.z, sx) + doorDisplacement(ctx.door, loc.x, loc.y, loc.z),
      entry: {
        id: it.id,
        kind: 'wall',
        classname: it.classname,
        tile: { x: loc.x, y: loc.y, z: loc.z },
        wallPosition: it.wallPosition,
        direction,
        state,
        ...(m.colorId !== undefined ? { colorId: m.colorId } : {}),
      },
      ...(mask ? { mask } : {}),
      frame: (tick) => itemFrame(m, state, direction, tick, sx, sy),
      period: (tick) => roomItemPeriod(m.model, m.size, { state, direction, held: tick.held }),
    };
  }
}

/**
 * The window a wall item's mask type cuts, anchored at the item's screen point (sx, sy); as in the client, a
 * mask whose bitmap the room visualization lacks cuts nothing (the report says so).
 */
function windowMask(
  ctx: ObjectContext,
  it: RoomItem,
  maskType: string,
  side: 'l' | 'r',
  at: [number, number, number],
  sx: number,
  sy: number,
): RoomMask | ReportMask {
  const id = `${maskType}#${it.id}`;
  const mb = maskBitmap(ctx.assets, maskType, side, ctx.scale);
  if (!mb) return { id, pixelsCut: 0, reason: `no size-${ctx.scale} bitmap of mask ${maskType}` };
  return { ...mb, kind: 'window', id, x: sx - mb.ox, y: sy - mb.oy, at };
}
