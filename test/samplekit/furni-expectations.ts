// What a correct pipeline does with each hand-made kit item: the rules it exercises and the outcome
// (which state and direction the still shows, which files exist). docs/sample-kit-furni.md is the
// same table in prose; tests of the kit check the data really has these properties.

export type FurniRule =
  | 'static-single-layer'
  | 'equal-z-layer-index'
  | 'shadow-layer'
  | 'ink-add'
  | 'ink-subtract'
  | 'ink-darken'
  | 'ink-copy'
  | 'layer-alpha'
  | 'direction-layer-overrides'
  | 'directions-2-4'
  | 'directions-0-2-4-6'
  | 'nearest-direction'
  | 'flip-alias'
  | 'blank-frame'
  | 'sparse-colour-ids'
  | 'variant-absent-from-colour-table'
  | 'variant-rows-only'
  | 'state-2-most-visible'
  | 'tie-visible-frame-count-decides'
  | 'tie-all-higher-state-wins'
  | 'blank-frame-is-not-visible'
  | 'frame-repeat'
  | 'loop-count'
  | 'random'
  | 'transition-keys-100'
  | 'transition-repeated-id-keys'
  | 'transition-internal-id-keys'
  | 'icon-one-layer'
  | 'icon-two-layers'
  | 'icon-z-order'
  | 'no-icon'
  | 'corrupt-bundle'
  | 'missing-bundle'
  | 'wall-item'
  | 'layer-offset'
  | 'frame-offset'
  | 'multi-tile'
  | 'icon-visualization-first'
  | 'no-logic-directions'
  | 'gzip-container'
  | 'implicit-state-0'
  | 'near-transparent-off-frame'
  | 'placeholder-pixel'
  | 'fuller-state-wins'
  | 'badge-layer'
  | 'guild-colours';

export interface FurniExpectation {
  classname: string;
  rules: FurniRule[];
  /** The still: resting state and the direction drawn for a request of direction 2. Null: no render. */
  still: { state: number; direction: number; visibleLayers: number } | null;
  /** Resting states by id: visible layers at their first frame (judged by seen pixels) and distinct frames. */
  states?: Record<number, { visibleLayers: number; frames: number }>;
  /** Number of `_icon_` layers; 0 means no catalogue icon can be made. */
  iconLayers: number;
  /** Variant classnames whose colour id is absent from the colour table: they render untinted. */
  untintedVariants?: string[];
  /** What the still looks like, for a human comparing a picture. */
  looks: string;
}

export const FURNI_EXPECTATIONS: readonly FurniExpectation[] = [
  {
    classname: 'kit_crate',
    rules: ['static-single-layer', 'directions-2-4', 'flip-alias', 'icon-one-layer'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 1,
    looks:
      'one orange box marked "A2", red flag on the top-left corner; direction 4 is its mirror image ("A2" reads backwards)',
  },
  {
    classname: 'kit_stack_eqz',
    rules: ['equal-z-layer-index', 'directions-2-4', 'flip-alias'],
    still: { state: 0, direction: 2, visibleLayers: 3 },
    iconLayers: 1,
    looks: 'three overlapping boxes, all z 5: blue A (back) under green B under red C (front, on top)',
  },
  {
    classname: 'kit_table_sd',
    rules: ['shadow-layer', 'icon-two-layers', 'multi-tile'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 2,
    looks:
      '2x2 table: brown legs (A) under an orange top (B, z 1) marked "B2"; sd_0_0 is a black diamond (shadow, drawn first at alpha 48 when shadows are on); sd_2_0 aliases sd_0_0 without flip',
  },
  {
    classname: 'kit_chair_4dir',
    rules: ['directions-0-2-4-6', 'flip-alias'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'teal seat "A" and purple backrest "B" (z 2, on top); 4 = flipH alias of 2, 6 = flipH alias of 0, so 4 and 6 show mirrored digits',
  },
  {
    classname: 'kit_booth_dirlayers',
    rules: ['direction-layer-overrides', 'directions-0-2-4-6'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'blue A (z 10) and yellow B (z 0). dir 0: A over B. dir 2: override B z 20, so B over A. dir 4: override A alpha 96, A over B but see-through. dir 6: override B x 10 y -6 z 20, B over A and shifted 10 px right, 6 px up',
  },
  {
    classname: 'kit_lamp_add',
    rules: ['ink-add'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'dark lamp with a white shade; layer B (ink ADD) is a dark gold diamond that brightens the shade to near white/yellow and shows as a soft glow outside it',
  },
  {
    classname: 'kit_xray_subtract',
    rules: ['ink-subtract'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'cyan screen box; layer B (SUBTRACT, colour 0x703010) darkens the band where it overlaps the box (cyan minus 0x703010); the part of B right of the box has no backdrop and draws nothing',
  },
  {
    classname: 'kit_rug_darken',
    rules: ['ink-darken', 'multi-tile'],
    still: { state: 0, direction: 0, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'pink/yellow/green concentric rug (only direction 0 exists, so a request for 2 gets 0); layer B (DARKEN, grey 0x808080) darkens the right part of the rug; past the rug edge it shows as plain grey',
  },
  {
    classname: 'kit_panel_copy',
    rules: ['ink-copy'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      'green box; layer B (ink COPY) is a purple square with alpha 160 in its pixels, blended over the box like normal ink',
  },
  {
    classname: 'kit_glass_alpha',
    rules: ['layer-alpha', 'no-logic-directions'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks:
      "brown cabinet with a red square; layer B is an opaque cyan pane drawn at layer alpha 128, so the cabinet and the red square show through. logic.model has no directions (as in some real bundles): the visualization's 2 and 4 decide",
  },
  {
    classname: 'kit_totem_nodir2',
    rules: ['nearest-direction'],
    still: { state: 0, direction: 3, visibleLayers: 1 },
    iconLayers: 1,
    looks:
      'directions 0 (red "0"), 3 (green "3") and 6 (blue "6") only; a request for 2 draws 3 (45° away; 0 is 90° away)',
  },
  {
    classname: 'kit_sofa_colors',
    rules: ['sparse-colour-ids', 'variant-absent-from-colour-table', 'directions-2-4'],
    still: { state: 0, direction: 2, visibleLayers: 3 },
    iconLayers: 1,
    untintedVariants: ['kit_sofa_colors*5'],
    looks:
      'brown frame A (never tinted), white/grey cushions B and pillows C. Colour table ids 1, 3, 7, 12 only: *1 red B/pink C, *3 green/light green, *7 blue/light blue, *12 gold/dark gold. *5 is absent from the table: same pixels as the base classname (untinted)',
  },
  {
    classname: 'kit_vase_colors',
    rules: ['variant-rows-only', 'variant-absent-from-colour-table', 'icon-two-layers'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 2,
    untintedVariants: ['kit_vase_colors*4'],
    looks:
      'white vase A tinted by colour 0 (blue) / 2 (red) / 3 (green, no row); flowers B untinted. FurnitureData has only *0, *2, *4 (no base row); *4 is absent from the table and renders the white vase',
  },
  {
    classname: 'kit_lamp_state2',
    rules: ['state-2-most-visible', 'blank-frame', 'flip-alias'],
    still: { state: 2, direction: 2, visibleLayers: 3 },
    states: {
      0: { visibleLayers: 1, frames: 1 },
      1: { visibleLayers: 2, frames: 1 },
      2: { visibleLayers: 3, frames: 1 },
      3: { visibleLayers: 2, frames: 3 },
    },
    iconLayers: 1,
    looks:
      'dark lamp A + yellow bulb B1 (ink ADD) + two orange squares C1; no pink D squares (those belong to state 3)',
  },
  {
    classname: 'kit_fan_tieframes',
    rules: ['tie-visible-frame-count-decides', 'frame-repeat', 'blank-frame'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: {
      0: { visibleLayers: 1, frames: 1 },
      1: { visibleLayers: 2, frames: 4 },
      2: { visibleLayers: 2, frames: 2 },
    },
    iconLayers: 1,
    looks:
      'grey fan body A and blade B1 (cyan square straight up), no green/red light C; state 1 wins over the higher state 2 on frame count (4 > 2). State 1 is the spec 2.5 example: 4 sprites, frameRepeat 2 = 8 ticks, loopCount 0 (unbounded), 4 distinct frames, a 480 ms loop',
  },
  {
    classname: 'kit_sign_tieall',
    rules: ['tie-all-higher-state-wins', 'frame-repeat'],
    still: { state: 2, direction: 2, visibleLayers: 2 },
    states: {
      0: { visibleLayers: 1, frames: 1 },
      1: { visibleLayers: 2, frames: 3 },
      2: { visibleLayers: 2, frames: 3 },
    },
    iconLayers: 1,
    looks: 'white board A with a GREEN plate "B4" (state 2, frame 0); red plates B1-B3 are state 1',
  },
  {
    classname: 'kit_orb_blankframe',
    rules: ['blank-frame-is-not-visible', 'blank-frame', 'frame-repeat'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    states: { 0: { visibleLayers: 2, frames: 2 }, 1: { visibleLayers: 2, frames: 1 } },
    iconLayers: 1,
    looks:
      'dark stand A + BLUE orb B0. State 1 adds layer C whose frame 1 is a blank 1x1 asset (and C has no frame-0 asset): by assets state 1 has 3 layers, by pixels 2, so the tie goes to state 0 on frame count',
  },
  {
    classname: 'kit_clock_repeat',
    rules: ['frame-repeat'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: { 0: { visibleLayers: 2, frames: 1 }, 1: { visibleLayers: 2, frames: 4 } },
    iconLayers: 1,
    looks:
      'white clock face, red hand pointing up ("0"); state 1 turns the hand through 4 positions, each held 3 ticks (12 ticks a loop)',
  },
  {
    classname: 'kit_popper_loop',
    rules: ['loop-count', 'frame-repeat', 'blank-frame'],
    still: { state: 1, direction: 2, visibleLayers: 3 },
    states: { 0: { visibleLayers: 1, frames: 1 } },
    iconLayers: 1,
    looks:
      'purple popper A, confetti B1 (two squares), balloon C1. In state 1 layer B plays 1,2,3 (frameRepeat 2) twice (layer loopCount 2) then holds B3; layer C plays its sequence (sequence loopCount 1, frameRepeat 3) once then holds C2',
  },
  {
    classname: 'kit_dice_random',
    rules: ['random', 'frame-repeat'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: { [-1]: { visibleLayers: 2, frames: 2 }, 0: { visibleLayers: 2, frames: 1 } },
    iconLayers: 1,
    looks:
      'white die A with a red "1" (state 1, frame sequence 0, frame 0); state 0 shows a grey "?", state -1 (negative id, as real dice have) alternates "?" and a blue "*". Layer B of state 1 has random 1 and three sequences (1-2-3, 4-5-6, 6-1-4): a deterministic still uses sequence 0',
  },
  {
    classname: 'kit_door_transition',
    rules: ['transition-keys-100'],
    still: { state: 1, direction: 2, visibleLayers: 3 },
    states: { 0: { visibleLayers: 2, frames: 1 }, 1: { visibleLayers: 3, frames: 1 } },
    iconLayers: 1,
    looks:
      'grey door frame A, open leaf B1, yellow light C1; NO pink D squares. Animations "100" (transitionTo 1; 4 visible layers) and "101" (transitionFrom 1; 3) both show D: taking "100" for a state gives a wrong still',
  },
  {
    classname: 'kit_gate_transdup',
    rules: ['transition-repeated-id-keys', 'multi-tile'],
    still: { state: 1, direction: 2, visibleLayers: 3 },
    states: { 0: { visibleLayers: 2, frames: 1 }, 1: { visibleLayers: 3, frames: 1 } },
    iconLayers: 1,
    looks:
      'two grey posts A, red bar raised (B1), green lamp D1; NO orange half-raised bar (B2) and no cyan streaks C. State 0 lists layer 2 as an empty object {} (frame 0, which has no asset). Keys "1_1" (transitionTo 1) and "0_1" (transitionTo 0) are transitions: parsing "1_1" as state 1 replaces the real state 1',
  },
  {
    classname: 'kit_hatch_transid',
    rules: ['transition-internal-id-keys'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: { 0: { visibleLayers: 2, frames: 1 }, 1: { visibleLayers: 2, frames: 1 } },
    iconLayers: 1,
    looks:
      'dark hatch A, teal lid B1 raised; no yellow square C and no pink lid B2. Transitions keyed "1000001" (transitionTo 1) and "2000001" (transitionFrom 1) the way the client numbers them internally; state 1 wins the 2/2 tie as the higher id',
  },
  {
    classname: 'kit_wall_poster',
    rules: ['wall-item', 'static-single-layer', 'directions-2-4', 'flip-alias'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 1,
    looks:
      'white poster on the left wall with a blue inset and a red corner square at the top right; direction 4 is the mirror',
  },
  {
    classname: 'kit_wall_led',
    rules: ['wall-item', 'ink-add', 'frame-repeat', 'blank-frame', 'icon-visualization-first'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: { 0: { visibleLayers: 1, frames: 1 }, 1: { visibleLayers: 2, frames: 3 } },
    iconLayers: 1,
    looks:
      'dark wall board A with three ADD lights, the first one gold (B1). The size-1 visualization comes first in the list and has no directions (as in several real bundles); the icon is still icon_a',
  },
  {
    classname: 'kit_wall_shelf',
    rules: ['wall-item', 'layer-alpha'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    iconLayers: 1,
    looks: 'white wall shelf A and a green panel B at layer alpha 160; *2 tints the shelf (layer 0) 0x6080ff',
  },
  {
    classname: 'kit_noicon',
    rules: ['no-icon'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 0,
    looks: 'pink box "A2"; the bundle has a size-1 visualization but no `_icon_` asset, so there is no catalogue icon',
  },
  {
    classname: 'kit_offsets',
    rules: ['layer-offset', 'frame-offset'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: { 0: { visibleLayers: 2, frames: 1 }, 1: { visibleLayers: 2, frames: 3 } },
    iconLayers: 1,
    looks: 'grey slab A; red block B moved by its layer offset x -8, y +4; in state 1 frames add x/y 0/0, 6/3, 12/6',
  },
  {
    classname: 'kit_big_3x2',
    rules: ['multi-tile', 'shadow-layer', 'flip-alias', 'icon-visualization-first'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 1,
    looks:
      '3x2 teal platform with a yellow box "A2"; shadow sd_2_0 drawn, sd_4_0 its flipH alias. The size-1 visualization comes first and has no directions',
  },
  {
    classname: 'kit_corrupt_trunc',
    rules: ['corrupt-bundle'],
    still: null,
    iconLayers: 0,
    looks: 'bundle cut in half: reading it fails (container truncated)',
  },
  {
    classname: 'kit_corrupt_garbage',
    rules: ['corrupt-bundle'],
    still: null,
    iconLayers: 0,
    looks: 'bundle is 1021 bytes of noise starting ff ff: reading it fails',
  },
  {
    classname: 'kit_corrupt_json',
    rules: ['corrupt-bundle'],
    still: null,
    iconLayers: 0,
    looks: 'valid container whose JSON is cut in half: the JSON does not parse',
  },
  {
    classname: 'kit_missing_bundle',
    rules: ['missing-bundle'],
    still: null,
    iconLayers: 0,
    looks: 'FurnitureData row but no bundle file',
  },
  {
    classname: 'kit_icon_zorder',
    rules: ['icon-z-order', 'icon-two-layers', 'flip-alias'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 2,
    looks:
      'purple box "A2"; the icon is a blue square (layer 0, z 2) over a red one offset 5,5 (layer 1, z 1): blue wins where they overlap',
  },
  {
    classname: 'kit_poster_gzip',
    rules: ['gzip-container', 'wall-item', 'static-single-layer'],
    still: { state: 0, direction: 2, visibleLayers: 1 },
    iconLayers: 1,
    looks:
      'yellow poster with a green inset on the left wall; every file in its .nitro is a gzip member, not a zlib stream (as the real poster1 … poster1006 are)',
  },
  {
    classname: 'kit_corrupt_gzip',
    rules: ['corrupt-bundle', 'gzip-container'],
    still: null,
    iconLayers: 0,
    looks: 'valid container whose JSON is a gzip member cut in half: reading it fails (gzip stream ends early)',
  },
  {
    classname: 'kit_seedpack_noframe',
    rules: ['implicit-state-0'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    states: { 1: { visibleLayers: 0, frames: 1 } },
    iconLayers: 1,
    looks:
      'green pack A2 with a white label B0. The only animation is state 1 and it shows frame 1, which has no asset: state 0 (no animation: frame 0 of every layer) is the still',
  },
  {
    classname: 'kit_bag_speck',
    rules: ['near-transparent-off-frame'],
    still: { state: 1, direction: 2, visibleLayers: 2 },
    states: {
      0: { visibleLayers: 2, frames: 1 },
      1: { visibleLayers: 2, frames: 1 },
      2: { visibleLayers: 0, frames: 1 },
    },
    iconLayers: 1,
    looks:
      'purple bag A2 with a yellow tag. State 2 (cracked) shows 1x1 frames at alpha 3 and 13: by "any pixel with alpha > 0" it ties with states 0 and 1 and wins as the higher id, a 1x1 speck',
  },
  {
    classname: 'kit_bowl_depleting',
    rules: ['fuller-state-wins', 'placeholder-pixel'],
    still: { state: 0, direction: 2, visibleLayers: 2 },
    states: {
      0: { visibleLayers: 2, frames: 1 },
      1: { visibleLayers: 2, frames: 1 },
      2: { visibleLayers: 2, frames: 1 },
      3: { visibleLayers: 1, frames: 1 },
    },
    iconLayers: 1,
    looks:
      "blue bowl A2 with a full orange heap (state 0). States 1 and 2 show smaller heaps (same layers, same frames: the spec's higher id alone would show the crumbs of state 2); state 3 is the empty bowl plus a single opaque black placeholder pixel, not a visible layer",
  },
  {
    classname: 'kit_guild_badge',
    rules: ['badge-layer', 'guild-colours'],
    still: { state: 0, direction: 2, visibleLayers: 3 },
    iconLayers: 1,
    looks:
      "brown pole A2 with a light grey (COLOR1, 0xEEEEEE) and a dark grey (COLOR2, 0x4B4B4B) cloth; NO white 39x39 square to the right: that is the BADGE layer's placeholder, never drawn",
  },
];
