// Draw order from the avatar geometry: every body part (and every part type inside it) sits at a
// point with a radius; rotate the points about the vertical axis by the direction's angle and draw the
// farthest from the camera first. This reproduces the reference client's ordering, including its
// tie-breaking (ascending stable sort by distance, drawn back to front).
import {
  type AvatarGeometryXml,
  type GeometryTypeXml,
  type AvatarSetXml,
  type DrawOrderXml,
} from '../formats/gamedata/avatar-xml-types.js';

/** draworder.xml's raised-hand lists (`lh-up`, `rh-up`); which hand an action raises is actions.ts's rule. */
export type RaisedHand = 'lh-up' | 'rh-up';

const DIRECTION_ANGLE = [45, 90, 135, 180, 225, 270, 315, 0];

export interface OrderedBodyPart {
  id: string;
  /** Part types of this body part, first drawn first. */
  partTypes: string[];
}

function distance(cameraZ: number, x: number, z: number, radius: number, angleDeg: number): number {
  const a = (angleDeg * Math.PI) / 180;
  const tz = x * Math.sin(a) + z * Math.cos(a);
  return Math.min(Math.abs(cameraZ - tz - radius), Math.abs(cameraZ - tz + radius));
}

/** Nearest first, stable; callers draw the reverse. */
function byDistance<T>(items: T[], d: (t: T) => number): T[] {
  return items
    .map((t, i) => ({ t, i, d: d(t) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((e) => e.t);
}

function collectBodyParts(sets: AvatarSetXml[], id: string): string[] | null {
  for (const s of sets) {
    if (s.id === id) return flatten(s);
    const inner = collectBodyParts(s.avatarSets, id);
    if (inner) return inner;
  }
  return null;
}
function flatten(s: AvatarSetXml): string[] {
  return [...s.bodyParts, ...s.avatarSets.flatMap(flatten)];
}

export class AvatarGeometry {
  private readonly orderCache = new Map<string, OrderedBodyPart[]>();
  private readonly bodyPartOfCache = new Map<string, Map<string, string>>();

  constructor(
    private readonly doc: AvatarGeometryXml,
    private readonly drawOrder?: DrawOrderXml,
  ) {}

  /** The same geometry without the hotel's draworder.xml: the order Nitro clients and imagers draw in. */
  withoutDrawOrder(): AvatarGeometry {
    return new AvatarGeometry(this.doc);
  }

  type(geometryType: string): GeometryTypeXml {
    return (
      this.doc.types.find((t) => t.id === geometryType) ??
      this.doc.types.find((t) => t.id === 'vertical') ??
      this.doc.types[0]!
    );
  }

  /** Body part id holding a part type in this geometry type; undefined for a type the geometry lacks. */
  bodyPartOf(geometryType: string, partType: string): string | undefined {
    let m = this.bodyPartOfCache.get(geometryType);
    if (!m) {
      m = new Map();
      for (const bp of this.type(geometryType).bodyParts) for (const it of bp.items) m.set(it.id, bp.id);
      this.bodyPartOfCache.set(geometryType, m);
    }
    return m.get(partType);
  }

  /** Whether the geometry type has a body part of this id (`top`, `behind`…: effects add parts to them). */
  hasBodyPart(geometryType: string, id: string): boolean {
    return this.type(geometryType).bodyParts.some((b) => b.id === id);
  }

  /**
   * Body parts of an avatar set (`full`, `head`, `body`) in the client's drawing order for a direction
   * (farthest first), each with its part types farthest first (`AvatarModelGeometry.getBodyPartsAtAngle`,
   * `GeometryBodyPart.getParts`, drawn from the end of their lists).
   */
  getBodyPartsAtAngle(avatarSet: string, geometryType: string, direction: number): OrderedBodyPart[] {
    const key = `${avatarSet}|${geometryType}|${direction}`;
    const hit = this.orderCache.get(key);
    if (hit) return hit;
    const type = this.type(geometryType);
    const members = new Set(collectBodyParts(this.doc.avatarSets, avatarSet) ?? type.bodyParts.map((b) => b.id));
    const angle = DIRECTION_ANGLE[direction] ?? 0;
    const cz = this.doc.camera.z;
    const parts = type.bodyParts.filter((b) => members.has(b.id));
    const nearFirst = byDistance(parts, (b) => distance(cz, b.x, b.z, b.radius, angle));
    const out: OrderedBodyPart[] = nearFirst.reverse().map((b) => ({
      id: b.id,
      partTypes: byDistance(b.items, (it) => distance(cz, it.x, it.z, it.radius, angle))
        .reverse()
        .map((it) => it.id),
    }));
    this.orderCache.set(key, out);
    return out;
  }

  /**
   * A body part's part types farthest first with parts an effect adds to it (`AvatarStructure.getActiveBodyPartIds`
   * adds each at (0, 0, 0) with radius 0.01; `GeometryBodyPart.getParts` sorts them in with the static items,
   * stable, nearest first, drawn from the end): of two added parts at one distance the later is drawn first.
   */
  partTypesWith(geometryType: string, bodyPartId: string, direction: number, added: string[]): string[] {
    const bp = this.type(geometryType).bodyParts.find((b) => b.id === bodyPartId);
    const angle = DIRECTION_ANGLE[direction] ?? 0;
    const cz = this.doc.camera.z;
    const statics = (bp?.items ?? []).map((it) => ({ id: it.id, d: distance(cz, it.x, it.z, it.radius, angle) }));
    const known = new Set(statics.map((s) => s.id));
    const dynamic = added
      .filter((id, i) => !known.has(id) && added.indexOf(id) === i)
      .map((id) => ({ id, d: distance(cz, 0, 0, 0.01, angle) }));
    return byDistance([...statics, ...dynamic], (e) => e.d)
      .reverse()
      .map((e) => e.id);
  }

  /**
   * Drawing order as groups of (body part, part types), bottom first: the geometric order, or, when the
   * hotel ships a draworder.xml, its explicit list for the posture, raised hand and direction (one part
   * type a group).
   */
  ordered(
    avatarSet: string,
    geometryType: string,
    direction: number,
    posture = 'std',
    raisedHand: RaisedHand | null = null,
  ): OrderedBodyPart[] {
    const geometric = this.getBodyPartsAtAngle(avatarSet, geometryType, direction);
    const explicit = this.explicitOrder(posture, raisedHand, direction);
    if (!explicit) return geometric;
    const key = `${avatarSet}|${geometryType}|${direction}|${explicit.id}`;
    const hit = this.orderCache.get(key);
    if (hit) return hit;
    const out = this.applyExplicit(geometric, explicit.parts);
    this.orderCache.set(key, out);
    return out;
  }

  /**
   * draworder.xml's list for a pose. Its actions are postures (`std`, `sit`, `lay`), raised hands
   * (`lh-up`, `rh-up`) and both (`sit.lh-up`); each lists only the directions where it differs, so a
   * direction it lacks (or lists empty) falls through: posture with hand, then the posture alone, then
   * the hand alone (a posture without a list for the direction stands as std does), then `std`.
   */
  explicitOrder(
    posture: string,
    raisedHand: RaisedHand | null,
    direction: number,
  ): { id: string; parts: string[] } | null {
    if (!this.drawOrder) return null;
    const candidates: string[] = [];
    if (raisedHand) candidates.push(posture === 'std' ? raisedHand : `${posture}.${raisedHand}`);
    if (posture !== 'std') candidates.push(posture);
    if (raisedHand) candidates.push(raisedHand);
    candidates.push('std');
    for (const id of candidates) {
      const parts = this.drawOrder.actions.find((x) => x.id === id)?.directions.find((x) => x.id === direction)?.parts;
      if (parts && parts.length > 0) return { id: `${id}@${direction}`, parts };
    }
    return null;
  }

  private applyExplicit(parts: OrderedBodyPart[], order: string[]): OrderedBodyPart[] {
    // Flatten into single-part-type groups in the explicit order; part types missing from the list
    // keep their geometric place after the listed ones of their body part.
    const rank = new Map(order.map((t, i) => [t, i]));
    const all: { bp: string; t: string; r: number; i: number }[] = [];
    let i = 0;
    for (const bp of parts)
      for (const t of bp.partTypes) all.push({ bp: bp.id, t, r: rank.get(t) ?? Number.MAX_SAFE_INTEGER, i: i++ });
    const listed = all.filter((e) => e.r !== Number.MAX_SAFE_INTEGER).sort((a, b) => a.r - b.r);
    const rest = all.filter((e) => e.r === Number.MAX_SAFE_INTEGER);
    return [...listed, ...rest].map((e) => ({ id: e.bp, partTypes: [e.t] }));
  }
}
