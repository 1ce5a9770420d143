// What an effect or dance draws in each animation tick, planned from data alone (no pixels): the
// avatar's body parts as the effect's layers move, turn, replace, add and remove them
// (`AvatarImageCache.getImageContainer`, `AvatarStructure.getParts`), the whole avatar's offset and
// colour treatment, and the effect's own sprites around it (`AvatarVisualization.update`).
import { bodyPartOffset, layerAction, type ActiveAction, type Pose } from './actions.js';
import { framesOf, getLayerData } from './effects.js';
import { type FigurePart } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { bodyPartFrame } from './part-frame.js';
import { type EffectTick, type PartDraw, type PlannedBodyPart, type SpriteDraw } from './plan-types.js';
import { wrapDirection, type AvatarRequest } from './request.js';
import { lcm } from '../imaging/frame-delay.js';

export interface EffectPlanInput {
  pose: Pose;
  /** Body parts of the crop in drawing order (bottom first), planned without the effect. */
  bodyParts: readonly PlannedBodyPart[];
  /** The pose's own loop without the effect (a wave's 2 frames). */
  loop: number;
  avatarSet: string;
  bodyDir: number;
  headDir: number;
  effectActions: readonly ActiveAction[];
  wornBy: Map<string, FigurePart[]>;
  /** `wornBy` without the worn sets of these types, or undefined when the figure wears none of them. */
  wornWithout: (setTypes: string[]) => Map<string, FigurePart[]> | undefined;
}

/** A loop longer than this many ticks is drawn from its first ticks (a safety bound; real effects are far shorter). */
const MAX_TICKS = 1200;

/**
 * Ticks of the main frames that drive an effect's sprites (and the avatar's offset) while an override
 * drives its body parts: `AvatarImage.getLayerData` → `AvatarStructure.getBodyPartData` reads sprite layers
 * without the overriding action (BackwalkingShoes: standing uses the `std` override's one frame for the
 * shoes, its sparkles keep their three). 0 when the main frames drive both, or nothing is drawn of them.
 */
function spriteTicks(a: ActiveAction, headOnly: boolean): number {
  const anim = a.effect!.animation;
  return !a.effectStill && !headOnly && a.overriding !== undefined && anim.sprites.length > 0 ? anim.ticks.length : 0;
}

/** Ticks an effect action's animation lasts (`Animation.frameCount`, at least 1; with its sprites' main frames). */
function effectTicks(a: ActiveAction, headOnly: boolean): number {
  const n = Math.max(1, framesOf(a.effect!.animation, a.overriding).ticks.length);
  const m = spriteTicks(a, headOnly);
  return m > 0 ? lcm(n, m) : n;
}

/**
 * The runs of equal consecutive ticks of the whole loop (the output frames), from the animation data
 * alone: a tick is the effects' layers of that tick (the head's only under headonly) and the pose's own
 * frame. `tickAt` plans what one tick draws (plan.ts asks it for the first tick of each run).
 */
export function planEffectTicks(
  hotel: AvatarHotel,
  req: AvatarRequest,
  input: EffectPlanInput,
): { runs: [number, number][]; tickAt: (t: number) => EffectTick } {
  let total = input.loop;
  for (const a of input.effectActions) {
    total = lcm(total, a.effectStill ? 1 : effectTicks(a, req.headOnly));
  }
  total = req.animated ? Math.min(total, MAX_TICKS) : 1;
  const runs: [number, number][] = [];
  let previous = '';
  for (let t = 0; t < total; t++) {
    let key = input.loop > 1 ? String(t % input.loop) : '';
    for (const a of input.effectActions) {
      const list = framesOf(a.effect!.animation, a.overriding);
      const keys = req.headOnly ? list.tickKeys.head : list.tickKeys.full;
      key += '|' + (a.effectStill || keys.length === 0 ? 0 : keys[t % keys.length]);
      const m = spriteTicks(a, req.headOnly);
      if (m > 0) key += '/' + a.effect!.animation.tickKeys.full[t % m];
    }
    if (runs.length > 0 && key === previous) runs[runs.length - 1]![1]++;
    else runs.push([t, 1]);
    previous = key;
  }
  return { runs, tickAt: (t) => planTick(hotel, req, input, t) };
}

function planTick(hotel: AvatarHotel, req: AvatarRequest, input: EffectPlanInput, t: number): EffectTick {
  const { pose } = input;
  const parts: PartDraw[] = [];
  // Part types the active effects add (`getActiveBodyPartIds` marks them `appendToFigure`).
  const added = new Set(input.effectActions.flatMap((a) => a.effect!.animation.adds.map((x) => x.id)));
  for (const bp of input.bodyParts) {
    const a = bp.governing;
    if (!a.effect) {
      for (const d of bodyPartFrame(hotel.animations, req.size, bp, t)) if (d) parts.push(d);
      continue;
    }
    parts.push(...effectBodyPart(hotel, req, input, bp, a, t, added));
  }
  const tick: EffectTick = { parts, behind: [], front: [], avatarDx: 0, avatarDy: 0, colour: undefined };
  for (const a of input.effectActions) {
    const anim = a.effect!.animation;
    if (anim.avatar) {
      tick.colour = anim.avatar;
      tick.colourBy = anim.name;
    }
  }
  // The sprites and the avatar's offset belong to the room view: a head-only image has neither.
  if (req.headOnly) return tick;
  const dir = input.bodyDir;
  const sitting = pose.lying || pose.main.def.state === 'sit';
  const behind: [number, SpriteDraw][] = [];
  const front: [number, SpriteDraw][] = [];
  for (const a of input.effectActions) {
    const anim = a.effect!.animation;
    const tf = a.effectStill ? 0 : t;
    for (const sprite of anim.sprites) {
      const layer = getLayerData(anim, tf, sprite.id);
      const ox = (sprite.dx[dir] ?? 0) + (layer?.dx ?? 0);
      let oy = (sprite.dy[dir] ?? 0) + (layer?.dy ?? 0);
      if (sprite.id === 'avatar') {
        tick.avatarDx += ox;
        tick.avatarDy += oy;
        continue;
      }
      const d = wrapDirection((sprite.hasDirections ? dir : 0) + (layer?.dd ?? 0));
      const frame = layer?.frame ?? 0;
      // The avatar image moves down by the posture offset when sitting; sprites pinned to the floor
      // (`staticY`) do not, so against the avatar they sit that much higher (half the scale: 32 plane px).
      if (sprite.staticY && sitting) oy -= 32;
      const draw: SpriteDraw = {
        id: sprite.id,
        library: a.effect!.library,
        asset: `h_${sprite.member}_${d}_${frame}`,
        frame,
        dx: ox,
        dy: oy,
        add: sprite.ink === 33,
        effect: anim.name,
      };
      const dz = sprite.dz[dir] ?? 0;
      // The avatar's depth is that of a dz-0 sprite and it is the object's first sprite: dz 0 goes behind it.
      (dz <= 0 ? behind : front).push([dz, draw]);
    }
  }
  // RoomSpriteCanvas draws by depth −0.001·n·dz + 3.7e-11·(sprite index), farthest first: smaller dz first,
  // and at equal dz the later sprite first (a hoverboard's glow, listed after the board, goes under it).
  const byDepth = (list: [number, SpriteDraw][]): SpriteDraw[] =>
    list
      .map((e, i) => ({ e, i }))
      .sort((x, y) => x.e[0] - y.e[0] || y.i - x.i)
      .map((x) => x.e[1]);
  tick.behind = byDepth(behind);
  tick.front = byDepth(front);
  return tick;
}

/** The parts of a body part an effect governs in tick `t` (`getImageContainer` → `getParts` → `renderBodyPart`). */
function effectBodyPart(
  hotel: AvatarHotel,
  req: AvatarRequest,
  input: EffectPlanInput,
  bp: PlannedBodyPart,
  a: ActiveAction,
  t: number,
  added: Set<string>,
): PartDraw[] {
  const anim = a.effect!.animation;
  const tf = a.effectStill ? 0 : t;
  const layer = getLayerData(anim, tf, bp.id, a.overriding);
  // The layer's action (`Move`, `CarryItem`) decides the sprites; a body part layer also decides the parts.
  const renderAction = (layer?.action && layerAction(hotel.actions, hotel.partSets, layer.action, layer.base)) || a;
  const partsAction = layer?.kind === 'bodypart' && layer.action ? renderAction : a;
  const baseDir = bp.id === 'head' ? input.headDir : input.bodyDir;
  const dir = layer ? wrapDirection(baseDir + layer.dd) : baseDir;
  const frameCount = layer ? layer.frame : tf;
  const [ox, oy] = bodyPartOffset(hotel.animations, partsAction, dir, frameCount, bp.id);
  // Effect offsets are at the normal scale (halved by the client at the small one, which our doubled
  // small plane undoes); action offsets are at the client's scale (see `bodyPartFrame`).
  const dx = (layer?.dx ?? 0) + (req.size === 's' ? 2 * ox : ox);
  const dy = (layer?.dy ?? 0) + (req.size === 's' ? 2 * oy : oy);
  const dynamic = anim.adds.filter((x) => x.align === bp.id);
  const active = new Set(partsAction.activeParts);
  if (partsAction.effect) for (const x of dynamic) active.add(x.id);
  const types = hotel.geometry.partTypesWith(
    input.pose.geometryType,
    bp.id,
    dir,
    dynamic.map((x) => x.id),
  );
  const items = layer?.items;
  // `getParts` leaves a worn set whose type a layer item names out of the body part altogether (its parts,
  // colour and hidden layers): the item (`sh` → the skates) then draws untinted. Other items (`bd`) take the
  // colour of the figure's part of their type.
  const worn = ((items && items.size > 0 && input.wornWithout([...items.keys()])) || input.wornBy).get(bp.id) ?? [];
  const removes = new Set(anim.removes);
  const defaultFrames = partsAction.effect
    ? Math.max(1, framesOf(partsAction.effect.animation, partsAction.overriding).ticks.length)
    : 1;
  const steps = hotel.animations.expanded.get(partsAction.def.id);
  const out: PartDraw[] = [];
  let assetAction = renderAction.assetAction;
  for (const type of types) {
    if (dir === 7 && (type === 'fc' || type === 'ey')) continue;
    const ofType: FigurePart[] = [];
    for (let i = worn.length - 1; i >= 0; i--) if (worn[i]!.type === type) ofType.push(worn[i]!);
    let draws: { id: number | string; tint: number | undefined }[];
    if (items?.has(type)) {
      // `getParts`: the layer's item replaces the figure's parts of that type, in their colour.
      draws = [{ id: items.get(type)!, tint: ofType[0]?.tint }];
    } else if (ofType.length > 0) {
      draws = removes.has(type) ? [] : ofType.map((p) => ({ id: p.id, tint: p.tint }));
    } else if (
      active.has(type) &&
      added.has(type) &&
      (dynamic.some((x) => x.id === type) || hotel.geometry.bodyPartOf(input.pose.geometryType, type) === bp.id)
    ) {
      const add = dynamic.find((x) => x.id === type) ?? anim.adds.find((x) => x.id === type);
      // An added part without a base has the static id 1; else the action's parameter (`fx5_1`).
      const id = add && add.base === '' ? '1' : partsAction.param || '1';
      draws = [{ id, tint: undefined }];
    } else draws = [];
    if (draws.length === 0) continue;
    const list = steps?.get(type);
    const step = list && list.length > 0 ? list[frameCount % list.length] : undefined;
    if (step?.assetAction) assetAction = step.assetAction;
    const frame = step ? step.number : frameCount % defaultFrames;
    for (const d of draws)
      out.push({
        bodyPart: bp.id,
        type,
        id: d.id,
        tint: d.tint,
        assetAction,
        frame,
        direction: dir,
        dx,
        dy,
        effect: anim.name,
      });
  }
  return out;
}
