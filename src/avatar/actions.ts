// Request action tokens + gesture → the active actions of the pose: which action governs each body
// part, the main (posture) action and its geometry type, head-turn prevention and held items.
import { type ActionDefinitionJson, type AvatarActionsDoc } from '../formats/gamedata/figure-types.js';
import {
  type AnimationSetXml,
  type AnimationFrameXml,
  type PartSetsXml,
} from '../formats/gamedata/avatar-xml-types.js';
import { type AvatarGeometry, type RaisedHand } from './geometry.js';
import { normalizeGesture, type AvatarAction, type ItemToken, type PlainToken } from './request.js';
import { animatedBodyParts, type HotelEffect } from './effects.js';

/** Request token → action state in HabboAvatarActions. */
const TOKEN_STATE: Record<PlainToken | ItemToken, string> = {
  lay: 'lay',
  sit: 'sit',
  wlk: 'mv',
  wav: 'wave',
  respect: 'respect',
  blow: 'blow',
  laugh: 'laugh',
  dance: 'dance',
  spk: 'talk',
  sleep: 'sleep',
  crr: 'cri',
  drk: 'usei',
  sig: 'sign',
};
const GESTURE_STATE: Record<string, string> = {
  sml: 'sml',
  sad: 'sad',
  agr: 'agr',
  srp: 'srp',
  spk: 'talk',
  eyb: 'sleep',
};

/** The walk cycle is drawn as one still mid-stride frame (contract A4.2). */
export const WALK_STILL_FRAME = 1;
/** Actions whose cycle the service never animates (drawn from the frame above or frame 0). */
const STILL_STATES = new Set(['mv', 'laugh', 'dance', 'sign', 'sit', 'lay', 'std']);

/** One step of a part's animation after dropping repeats. */
export interface PartStep {
  number: number;
  /** Asset action override for this step ('' = the action's own). */
  assetAction: string;
}

export interface ActionIndex {
  byState: Map<string, ActionDefinitionJson>;
  /** Action id (`Move`, `CarryItem`) → definition: effect layers name actions by id. */
  byId?: Map<string, ActionDefinitionJson>;
  defaultAction: ActionDefinitionJson;
  /**
   * Canvas offsets [x, y, z] by `<state>:<size>:<direction>` (HabboAvatarActions' `actionOffsets`: lay's): where
   * the room client moves the avatar's canvas and its sprite depth (AvatarImage.getCanvasOffsets).
   */
  canvasOffsets?: Map<string, readonly [number, number, number]>;
}

/** The canvas offsets of an action state at a size and direction, or undefined (the client's [0, 0, 0]). */
export function canvasOffsets(
  index: ActionIndex,
  state: string,
  size: 'h' | 'sh',
  direction: number,
): readonly [number, number, number] | undefined {
  return index.canvasOffsets?.get(`${state}:${size}:${direction}`);
}

export function indexActions(doc: AvatarActionsDoc): ActionIndex {
  const byState = new Map<string, ActionDefinitionJson>();
  const byId = new Map<string, ActionDefinitionJson>();
  for (const a of doc.actions ?? [])
    if (a && typeof a.state === 'string' && !byState.has(a.state)) byState.set(a.state, a);
  for (const a of doc.actions ?? []) if (a && typeof a.id === 'string' && !byId.has(a.id)) byId.set(a.id, a);
  const defaultAction = byState.get('std') ??
    (doc.actions ?? []).find((a) => a.isDefault) ?? {
      id: 'Default',
      state: 'std',
      precedence: 1000,
      main: true,
      isDefault: true,
      geometryType: 'vertical',
      activePartSet: 'figure',
      assetPartDefinition: 'std',
    };
  if (!byId.has(defaultAction.id)) byId.set(defaultAction.id, defaultAction);
  // AvatarActionManager.parseActionOffsets: an entry names its action by state; one without size or direction
  // is skipped; missing x, y, z are 0.
  const offsets = new Map<string, readonly [number, number, number]>();
  for (const o of doc.actionOffsets ?? []) {
    if (!o || !byState.has(o.action)) continue;
    for (const c of o.offsets ?? []) {
      if (!c?.size || c.direction === undefined) continue;
      offsets.set(`${o.action}:${c.size}:${c.direction}`, [c.x || 0, c.y || 0, c.z || 0]);
    }
  }
  return { byState, byId, defaultAction, ...(offsets.size > 0 ? { canvasOffsets: offsets } : {}) };
}

export interface PartSetIndex {
  active: Map<string, Set<string>>;
  flipped: Map<string, string>;
}

export function indexPartSets(doc: PartSetsXml): PartSetIndex {
  const active = new Map<string, Set<string>>();
  for (const s of doc.activePartSets) active.set(s.id, new Set(s.setTypes));
  const flipped = new Map<string, string>();
  for (const p of doc.parts) if (p.flippedSetType) flipped.set(p.setType, p.flippedSetType);
  return { active, flipped };
}

/** Per-frame body part offsets of an action (`AnimationAction.getFrameBodyPartOffset`). */
export interface ActionOffsets {
  /** The offset frame of each animation frame (offset frames repeated by their `repeats`). */
  frames: number[];
  /** offset frame id → direction → body part → [dx, dy] */
  byFrame: Map<number, Map<number, Map<string, [number, number]>>>;
}

export interface AnimationIndex {
  /** action id (`Wave`) → part type → steps with repeats dropped */
  byAction: Map<string, Map<string, PartStep[]>>;
  /** action id → its body part offsets, for the actions that have any (Laugh's head bob) */
  offsets: Map<string, ActionOffsets>;
  /** action id → part type → frames with repeats expanded (`AnimationActionPart`): effect layers index them. */
  expanded: Map<string, Map<string, PartStep[]>>;
}

function dropRepeats(frames: AnimationFrameXml[]): PartStep[] {
  const out: PartStep[] = [];
  for (const f of frames) {
    const step = { number: f.number, assetAction: f.assetPartDefinition ?? '' };
    const last = out[out.length - 1];
    if (last && last.number === step.number && last.assetAction === step.assetAction) continue;
    out.push(step);
  }
  return out;
}

export function indexAnimations(doc: AnimationSetXml): AnimationIndex {
  const byAction = new Map<string, Map<string, PartStep[]>>();
  const offsets = new Map<string, ActionOffsets>();
  const expanded = new Map<string, Map<string, PartStep[]>>();
  for (const a of doc.actions) {
    const m = new Map<string, PartStep[]>();
    const e = new Map<string, PartStep[]>();
    for (const p of a.parts) {
      m.set(p.setType, dropRepeats(p.frames));
      e.set(
        p.setType,
        p.frames.flatMap((f) =>
          Array.from({ length: Math.max(1, f.repeats ?? 1) }, () => ({
            number: f.number,
            assetAction: f.assetPartDefinition ?? '',
          })),
        ),
      );
    }
    byAction.set(a.id, m);
    expanded.set(a.id, e);
    if (a.offsets.length === 0) continue;
    const o: ActionOffsets = { frames: [], byFrame: new Map() };
    for (const f of a.offsets) {
      const dirs = new Map<number, Map<string, [number, number]>>();
      for (const d of f.directions) dirs.set(d.id, new Map(d.bodyParts.map((b) => [b.id, [b.dx, b.dy]])));
      o.byFrame.set(f.id, dirs);
      for (let r = Math.max(1, f.repeats ?? 1); r > 0; r--) o.frames.push(f.id);
    }
    offsets.set(a.id, o);
  }
  return { byAction, offsets, expanded };
}

/** How far a body part moves in an action's frame (`AnimationAction.getFrameBodyPartOffset`), in sprite pixels. */
export function bodyPartOffset(
  anims: AnimationIndex,
  action: ActiveAction,
  direction: number,
  frame: number,
  bodyPart: string,
): [number, number] {
  const o = anims.offsets.get(action.def.id);
  if (!o || o.frames.length === 0) return [0, 0];
  return (
    o.byFrame
      .get(o.frames[frame % o.frames.length]!)
      ?.get(direction)
      ?.get(bodyPart) ?? [0, 0]
  );
}

export interface ActiveAction {
  def: ActionDefinitionJson;
  /**
   * Asset action drawn by every part of the body parts this action governs (`wave`, `sit`…); a frame may name its own.
   */
  assetAction: string;
  activeParts: Set<string>;
  /** The action's parameter: an effect id (`2`), a dance (`1`), a held item's id in an effect layer (`fx5_1`). */
  param?: string;
  /** An effect or dance action: its animation (`AvatarImage.setActionsToParts`, `isAnimation`). */
  effect?: HotelEffect;
  /** The state of another active action whose frames the effect swaps in (`Animation.overridingAction`). */
  overriding?: string;
  /** The effect's type entry says it does not animate (`ActionDefinition.isAnimated`). */
  effectStill?: boolean;
}

/** An effect or dance the request asks for, found in the hotel. */
export interface RequestedEffect {
  /** Action state: `fx` or `dance`. */
  state: 'fx' | 'dance';
  effect: HotelEffect;
}

interface ActionTypeJson {
  id: number | string;
  animated?: boolean;
  prevents?: string[];
  preventHeadTurn?: boolean;
}

/** The action's `types` entry for a parameter (`ActionDefinition.getType`: the parameter read as an integer). */
function actionType(def: ActionDefinitionJson, param: string | undefined): ActionTypeJson | undefined {
  if (param === undefined || param === '') return undefined;
  const id = parseInt(param, 10);
  return ((def as { types?: ActionTypeJson[] }).types ?? []).find((t) => t && parseInt(String(t.id), 10) === id);
}

/** `ActionDefinition.getPrevents(param)`: the action's own list plus its type's. */
function preventsOf(a: ActiveAction): string[] {
  return [...(a.def.prevents ?? []).map(String), ...(actionType(a.def, a.param)?.prevents ?? []).map(String)];
}

/** `ActionDefinition.getPreventHeadTurn(param)`: the type's flag when the parameter has a type. */
function preventsHeadTurn(a: ActiveAction): boolean {
  const t = actionType(a.def, a.param);
  return t ? !!t.preventHeadTurn : !!a.def.preventHeadTurn;
}

/**
 * A layer's action (`Move`, `CarryItem`) by id, with the layer's base as its parameter (`AvatarAnimationLayerData`).
 */
export function layerAction(
  idx: ActionIndex,
  parts: PartSetIndex,
  actionId: string,
  base: string,
): ActiveAction | undefined {
  const def = idx.byId?.get(actionId);
  if (!def) return undefined;
  return { ...makeActive(def, parts), param: base };
}

export interface Pose {
  main: ActiveAction;
  geometryType: string;
  /** `std`, or `lay` for the horizontal geometry. */
  defaultAssetAction: string;
  /** Body part id → governing action. Body parts absent here use `defaultAction`. */
  bodyParts: Map<string, ActiveAction>;
  defaultAction: ActiveAction;
  preventHeadTurn: boolean;
  lying: boolean;
  /** Held items: part type (`ri`, `li`) → sprite id. */
  items: Map<string, number>;
  /** Canonical action list (for keys and debugging). */
  actions: ActiveAction[];
  /**
   * The raised hand of draworder.xml's per-action lists (`lh-up`, `rh-up`): an active action whose part
   * set is a hand (wave, respect, sign: left; blow, laugh, carry, use: right). Null when no hand is up.
   */
  raisedHand: RaisedHand | null;
}

/**
 * Which hand the active actions raise. The left hand wins over the right, as the older clients that read
 * draworder.xml decide (one list per pose, and the waving arm is the one that must cross the head).
 */
export function raisedHandOf(actions: ActiveAction[]): RaisedHand | null {
  const sets = new Set(actions.map((a) => a.def.activePartSet ?? ''));
  if (sets.has('handLeft')) return 'lh-up';
  if (sets.has('handRight') || sets.has('handRightAndHead')) return 'rh-up';
  return null;
}

function makeActive(def: ActionDefinitionJson, parts: PartSetIndex): ActiveAction {
  // The client draws `assetPartDefinition` in every posture: the `lay` variants (lsp, ley…) are never used.
  return {
    def,
    assetAction: def.assetPartDefinition,
    activeParts: parts.active.get(def.activePartSet ?? '') ?? new Set(),
  };
}

export function resolvePose(
  action: AvatarAction,
  rawGesture: string,
  idx: ActionIndex,
  partSets: PartSetIndex,
  geometry: AvatarGeometry,
  effects: RequestedEffect[] = [],
): Pose {
  const states: string[] = [];
  for (const t of action.plain) states.push(TOKEN_STATE[t]);
  for (const t of action.items.keys()) states.push(TOKEN_STATE[t]);
  const g = normalizeGesture(rawGesture);
  if (g !== 'std') states.push(GESTURE_STATE[g]!);

  let defs = [...new Set(states)]
    .map((s) => idx.byState.get(s))
    .filter((d): d is ActionDefinitionJson => !!d && d.assetPartDefinition !== '');
  if (!defs.includes(idx.defaultAction)) defs.push(idx.defaultAction);
  // `AvatarActionManager.filterActions`: an action is dropped when another active action's `prevents`
  // names its state, compared as written (Move's "Sleep" does not match the state "sleep" in the client).
  let actives: ActiveAction[];
  if (effects.length === 0) {
    const prevented = new Set(defs.flatMap((d) => (d.prevents ?? []).map(String)));
    defs = defs.filter((d) => d === idx.defaultAction || !prevented.has(d.state));
    actives = defs.map((d) => makeActive(d, partSets));
  } else {
    actives = withEffects(
      defs.map((d) => makeActive(d, partSets)),
      effects,
      idx,
      partSets,
    );
    defs = actives.map((a) => a.def);
  }

  const mainDef = defs.filter((d) => d.main).sort((a, b) => a.precedence - b.precedence)[0] ?? idx.defaultAction;
  const lying = mainDef.geometryType === 'horizontal';
  const geometryType = mainDef.geometryType || 'vertical';
  // `AvatarImage.setActionsToParts`: weakest first (highest precedence number), each action then takes
  // the body parts its active part set touches, so the strongest action of a body part governs it.
  const order = [...actives].sort((a, b) => b.def.precedence - a.def.precedence);
  const bodyParts = new Map<string, ActiveAction>();
  for (const a of order) {
    const touched = new Set<string>();
    if (a.effect) {
      // `AvatarStructure.getActiveBodyPartIds` for an animation: the body parts its first frame moves and
      // the ones it adds parts to.
      for (const id of animatedBodyParts(a.effect.animation, a.overriding))
        if (geometry.hasBodyPart(a.def.geometryType || 'vertical', id)) touched.add(id);
    } else
      for (const t of a.activeParts) {
        const bp = geometry.bodyPartOf(a.def.geometryType || 'vertical', t);
        if (bp) touched.add(bp);
      }
    for (const bp of touched) bodyParts.set(bp, a);
  }
  const items = new Map<string, number>();
  const drk = action.items.get('drk');
  const crr = action.items.get('crr');
  const sig = action.items.get('sig');
  // The stronger hand-item action (drk before crr) decides what the right hand holds.
  if (drk !== undefined && actives.some((a) => a.def.state === 'usei')) items.set('ri', drk);
  else if (crr !== undefined && actives.some((a) => a.def.state === 'cri')) items.set('ri', crr);
  if (sig !== undefined && actives.some((a) => a.def.state === 'sign')) items.set('li', sig);
  const main = actives.find((a) => a.def === mainDef)!;
  return {
    main,
    defaultAction: actives.find((a) => a.def === idx.defaultAction)!,
    geometryType,
    defaultAssetAction: lying ? 'lay' : 'std',
    bodyParts,
    preventHeadTurn:
      lying || actives.some((a) => (a.effect || a.param !== undefined ? preventsHeadTurn(a) : !!a.def.preventHeadTurn)),
    lying,
    items,
    actions: actives.sort((a, b) => a.def.precedence - b.def.precedence),
    raisedHand: raisedHandOf(actives),
  };
}

/** The animation steps of a part under its governing action; [] when the action has none for it. */
export function stepsFor(anims: AnimationIndex, action: ActiveAction, partType: string): PartStep[] {
  return anims.byAction.get(action.def.id)?.get(partType) ?? [];
}

export function isAnimatingAction(action: ActiveAction): boolean {
  return !STILL_STATES.has(action.def.state);
}

/**
 * The request's actions plus its effect and dance (`AvatarImage.appendAction(EFFECT|DANCE)`), filtered as
 * `AvatarActionManager.filterActions` does: an fx action is known to `prevents` lists as `fx.<id>`, every
 * other action by its state; an effect's own list adds its type's (`ActionDefinition.getPrevents`).
 */
function withEffects(
  base: ActiveAction[],
  effects: RequestedEffect[],
  idx: ActionIndex,
  partSets: PartSetIndex,
): ActiveAction[] {
  let actives = [...base];
  for (const e of effects) {
    const def = idx.byState.get(e.state);
    if (!def) continue;
    const a: ActiveAction = { ...makeActive(def, partSets), param: e.effect.param, effect: e.effect };
    a.effectStill = actionType(def, a.param)?.animated === false;
    // A dance replaces the plain `dance` still (same state, one action per state and parameter).
    actives = actives.filter((x) => x.def !== def);
    actives.push(a);
  }
  const name = (a: ActiveAction): string =>
    a.def.state === 'fx' && a.param !== undefined ? `fx.${a.param}` : a.def.state;
  const prevented = new Set(actives.flatMap(preventsOf));
  actives = actives.filter((a) => a.def === idx.defaultAction || !prevented.has(name(a)));
  const states = actives.map((a) => a.def.state);
  for (const a of actives) {
    if (!a.effect) continue;
    // `setActionsToParts`: the animation's frames for another active action replace its own.
    for (const state of a.effect.animation.overrides.keys()) if (states.includes(state)) a.overriding = state;
  }
  return actives;
}
