// Typed plain structures for the Flash-era avatar XML documents. Each type follows its XML element
// closely (element → interface, attribute → field in camelCase, repeated child → array) so a reader of
// the XML recognises them. Numbers are parsed; absent optional attributes stay undefined.

// ---------------------------------------------------------------------------------------------------
// HabboAvatarAnimation.xml  <animationSet><action id><part set-type><frame number assetpartdefinition
// repeats/>…</part><offsets><frame id repeats><directions><direction id><bodypart id dx dy/>…
// animation.xml (older clients) is the same document without assetpartdefinition, repeats and offsets.
// ---------------------------------------------------------------------------------------------------

export interface AnimationSetXml {
  actions: AnimationActionXml[];
}

export interface AnimationActionXml {
  /** Action id: `Move`, `Wave`, … in HabboAvatarAnimation.xml; the state token (`wlk`, `wav`) in animation.xml. */
  id: string;
  parts: AnimationPartXml[];
  /** Per-frame body part offsets (e.g. the head bobbing in Laugh); empty when the action has none. */
  offsets: AnimationOffsetFrameXml[];
}

export interface AnimationPartXml {
  /** `set-type`: the part type this sequence drives (`bd`, `lh`, `ey`, …). */
  setType: string;
  frames: AnimationFrameXml[];
}

export interface AnimationFrameXml {
  /** `number`: the sprite frame number used for this step. */
  number: number;
  /** `assetpartdefinition`: the asset action token used for this step (`wlk`, `wav`, `std`, …). */
  assetPartDefinition?: string;
  /** `repeats`: how many animation ticks this step lasts (absent = 1). */
  repeats?: number;
}

export interface AnimationOffsetFrameXml {
  id: number;
  repeats?: number;
  directions: AnimationOffsetDirectionXml[];
}

export interface AnimationOffsetDirectionXml {
  id: number;
  bodyParts: { id: string; dx: number; dy: number }[];
}

// ---------------------------------------------------------------------------------------------------
// HabboAvatarGeometry.xml  <geometry direction><camera><x/><y/><z/></camera><canvas scale><geometry id
// width height dx dy/>…<avatarset id [main]>(nested avatarset|bodypart id)…<type id><bodypart id x y z
// radius><item id x y z radius nx ny nz double/>…
// ---------------------------------------------------------------------------------------------------

export interface AvatarGeometryXml {
  /** Root `direction` attribute. */
  direction: number;
  camera: { x: number; y: number; z: number };
  canvases: GeometryCanvasXml[];
  /** Top-level `<avatarset>` elements (usually one, `full`). */
  avatarSets: AvatarSetXml[];
  /** `<type>` elements: `vertical`, `sitting`, `horizontal`, `swim`, … */
  types: GeometryTypeXml[];
}

export interface GeometryCanvasXml {
  /** `scale`: `h` (normal) or `sh` (small). */
  scale: string;
  geometries: { id: string; width: number; height: number; dx: number; dy: number }[];
}

export interface AvatarSetXml {
  id: string;
  /** `main="1"`. */
  main: boolean;
  /** Nested `<avatarset>` children. */
  avatarSets: AvatarSetXml[];
  /** Ids of the direct `<bodypart id>` children. */
  bodyParts: string[];
}

export interface GeometryTypeXml {
  id: string;
  bodyParts: GeometryBodyPartXml[];
}

export interface GeometryBodyPartXml {
  id: string;
  x: number;
  y: number;
  z: number;
  radius: number;
  items: GeometryItemXml[];
}

export interface GeometryItemXml {
  /** The part type (`bd`, `ch`, `hr`, …). */
  id: string;
  x: number;
  y: number;
  z: number;
  radius: number;
  nx: number;
  ny: number;
  nz: number;
  /** `double="1"`: drawn on both sides (used for the body itself). */
  double: boolean;
}

// ---------------------------------------------------------------------------------------------------
// HabboAvatarPartSets.xml and partsets.xml  <partSets><partSet><part set-type [flipped-set-type]
// [remove-set-type] [swim]/>…</partSet><activePartSet id><activePart set-type/>…
// ---------------------------------------------------------------------------------------------------

export interface PartSetsXml {
  /** Parts of the single `<partSet>` element(s), in document order. */
  parts: PartSetPartXml[];
  activePartSets: ActivePartSetXml[];
}

export interface PartSetPartXml {
  setType: string;
  /** `flipped-set-type`: the part type drawn instead when the direction is mirrored (rh ↔ lh). */
  flippedSetType?: string;
  /** `remove-set-type`: the part type this part hides when present (hrb removes hr). */
  removeSetType?: string;
  /** `swim="0"`: not drawn while swimming. Absent = true. */
  swim: boolean;
}

export interface ActivePartSetXml {
  /** `figure`, `head`, `speak`, `gesture`, `handRight`, `handLeft`, `walk`, `sit`, `itemRight`, … */
  id: string;
  /** `set-type` of each `<activePart>`. */
  setTypes: string[];
}

// ---------------------------------------------------------------------------------------------------
// draworder.xml  <actionSet><action id><direction id><partList><part set-type/>…
// ---------------------------------------------------------------------------------------------------

export interface DrawOrderXml {
  actions: DrawOrderActionXml[];
}

export interface DrawOrderActionXml {
  /** Action state token (`std`, `wlk`, `lay`, …). */
  id: string;
  directions: DrawOrderDirectionXml[];
}

export interface DrawOrderDirectionXml {
  id: number;
  /** `set-type` of each `<part>` in `<partList>`, first drawn first (bottom). */
  parts: string[];
}
