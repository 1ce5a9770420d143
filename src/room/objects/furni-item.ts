// What floor and wall items share: the item's bundle at the room's size, and its sprites at a tick placed
// from its screen point.
import { drawnClassname } from '../../furni/bundles.js';
import { type FurniModel, type SizeDef, sizeOf } from '../../furni/model.js';
import { roomSprites } from '../../furni/render.js';
import { splitClassname } from '../items.js';
import { type RoomItem } from '../model.js';
import { type ItemTick, type ObjectContext, type ObjectFrame, placeSprites } from './room-object.js';

export interface ItemModel {
  model: FurniModel;
  size: SizeDef;
  colorId?: number;
  maskType?: string;
}

/** The item's bundle and visualization at the room's size; null (the row listed as skipped) without one. */
export async function itemModel(ctx: ObjectContext, it: RoomItem): Promise<ItemModel | null> {
  const { base, colorId } = splitClassname(drawnClassname(it));
  const found = await ctx.assets.furni(base);
  if (!found.ok) {
    ctx.skip({ id: it.id, kind: it.kind, classname: it.classname, reason: found.reason });
    return null;
  }
  const size = sizeOf(found.model, ctx.scale);
  if (!size) {
    ctx.skip({
      id: it.id,
      kind: it.kind,
      classname: it.classname,
      reason: `the bundle has no size-${ctx.scale} visualization`,
    });
    return null;
  }
  return {
    model: found.model,
    size,
    ...(colorId !== undefined ? { colorId } : {}),
    ...(found.maskType ? { maskType: found.maskType } : {}),
  };
}

/**
 * The item's sprites at a tick, placed from its screen point (sx, sy), with the assets they draw; null when it
 * has none.
 */
export function itemFrame(
  m: ItemModel,
  state: number,
  direction: number,
  tick: ItemTick,
  sx: number,
  sy: number,
): ObjectFrame | null {
  return placeSprites(roomSprites(m.model, m.size, { state, direction, ...tick, colorId: m.colorId ?? 0 }), sx, sy);
}
