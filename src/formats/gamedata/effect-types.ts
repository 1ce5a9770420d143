// The avatar effect documents as real Nitro hotels ship them: `gamedata/EffectMap.json` (which library
// holds which effect) and the `animations` block of an effect library's JSON (nitro-renderer's
// IAssetAnimation). Only the fields the client reads are typed; the rest is kept untouched.

export interface EffectMapEntry {
  /** `2` for an fx effect, `dance.1` for a dance. */
  id: string | number;
  /** Library name: `bundled/effect/<lib>.nitro`. */
  lib: string;
  /** `fx` or `dance`. */
  type: string;
  revision?: number;
}

export interface EffectMapDoc {
  effects: EffectMapEntry[];
}

export interface EffectFramePartJson {
  id: string;
  frame?: number;
  action?: string;
  dx?: number;
  dy?: number;
  dz?: number;
  /** Direction offset added to the body part's (or sprite's) direction. */
  dd?: number;
  base?: string;
  /** Part types drawn with another part id while this layer lasts (`bd` → `fx159_1`). */
  items?: { id: string; base: string }[];
}

export interface EffectFrameJson {
  repeats?: number;
  bodyparts?: EffectFramePartJson[];
  fxs?: EffectFramePartJson[];
}

export interface EffectSpriteJson {
  id: string;
  member?: string;
  ink?: number;
  staticY?: number | boolean;
  /** 1 = the sprite has a sprite per direction (else direction 0 and the layers' `dd`). */
  directions?: number | boolean;
  directionList?: { id: number; dx?: number; dy?: number; dz?: number }[];
}

export interface EffectAddJson {
  id: string;
  align: string;
  base?: string;
  ink?: number;
  blend?: string;
}

export interface EffectAnimationJson {
  /** `fx.2`, `dance.1`: the action state and parameter the animation belongs to. */
  name: string;
  desc?: string;
  resetOnToggle?: boolean;
  frames?: EffectFrameJson[];
  sprites?: EffectSpriteJson[];
  avatars?: { ink?: number; foreground?: string; background?: string }[];
  directions?: { offset?: number }[];
  removes?: { id: string }[];
  adds?: EffectAddJson[];
  shadows?: { id: string }[];
  overrides?: { name: string; override: string; frames?: EffectFrameJson[] }[];
}
