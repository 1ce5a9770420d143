// The data of step 2 (request → plan → draw): what the plan of one avatar image holds. Types only, so
// the planners (plan.ts for the pose, effect-frame.ts for effect ticks) and the drawer (draw.ts) share
// them without importing each other. A plan is built once per request and never changed after.
import { type ActiveAction, type PartStep, type Pose } from './actions.js';
import { type OutputWindow, type Placement } from './canvas.js';
import { type AvatarColorData } from './effects.js';
import { type FigurePart } from './figure.js';
import { type RgbaImage } from '../imaging/image.js';

/** One part of a body part under its action (`AvatarImageCache.renderBodyPart`'s part list). */
export interface PlannedPart {
  readonly bodyPart: string;
  readonly part: FigurePart;
  /** The action of the body part: every part of it draws this action unless a frame names its own. */
  readonly governing: ActiveAction;
  /** Animation steps of this part under its action (empty = frame 0, no asset action of its own). */
  readonly steps: readonly PartStep[];
  readonly animates: boolean;
  readonly direction: number;
}

/** A body part's parts in the order the client processes them (`renderBodyPart`), which is bottom first. */
export interface PlannedBodyPart {
  readonly id: string;
  readonly governing: ActiveAction;
  readonly direction: number;
  readonly parts: readonly PlannedPart[];
}

/** Everything the drawing of one part needs, once its action, frame and direction are known. */
export interface PartDraw {
  bodyPart: string;
  type: string;
  id: number | string;
  tint: number | undefined;
  assetAction: string;
  frame: number;
  direction: number;
  /** Body part offset on the plane. */
  dx: number;
  dy: number;
  /** Effect renders: the animation that placed or moved this part. */
  effect?: string;
}

/** An effect sprite of one tick: drawn from the effect library, behind or in front of the avatar. */
export interface SpriteDraw {
  id: string;
  library: string;
  asset: string;
  frame: number;
  /** Offset on the plane from the avatar's registration (sprite top-left = registration − asset offset + this). */
  dx: number;
  dy: number;
  /** The client's ink 33: additive. */
  add: boolean;
  effect: string;
}

/** What one effect tick draws (`AvatarVisualization.update` with the avatar's image of that tick). */
export interface EffectTick {
  /** The avatar's parts, bottom first. */
  parts: PartDraw[];
  behind: SpriteDraw[];
  front: SpriteDraw[];
  /** Offset of the whole avatar image (the effect's `avatar` sprite: a hoverboard lifts its rider). */
  avatarDx: number;
  avatarDy: number;
  colour: AvatarColorData | undefined;
  /** The animation whose colour treatment applies (`fx.12`). */
  colourBy?: string;
}

/** The pose of one request without sprites: enough to count its loop and to know its libraries. */
export interface PoseStructure {
  readonly pose: Pose;
  readonly bodyParts: readonly PlannedBodyPart[];
  /** Every planned part, bottom first (the geometric order, or the hotel's draworder.xml). */
  readonly drawOrder: readonly PlannedPart[];
  /** Where each part of `drawOrder` is: [index in `bodyParts`, index in its `parts`]. */
  readonly drawIndex: readonly (readonly [number, number])[];
  /** Figure libraries the image needs, in the client's search order. */
  readonly libraries: readonly string[];
  /** Effect libraries the image needs: each active effect's own, then those it borrows sprites from. */
  readonly effectLibraries: readonly string[];
  /** Worn sets the hotel has no part index for: drawable only if a loaded library holds a sprite of them. */
  readonly uncheckedSets: readonly { label: string; parts: readonly { type: string; id: number }[] }[];
  /** Size s on a hotel with small sprites: try `sh_` sprites (drawn doubled) before `h_`. */
  readonly small: boolean;
  readonly placement: Placement;
  readonly smallPlacement: Placement;
  readonly window: OutputWindow;
  /** Distinct frames of the pose's own loop inside the crop (1 = still). */
  readonly poseLoop: number;
  /** Effect renders: the effect actions, the output frames as runs of equal ticks, and each run's first tick. */
  readonly effect?: {
    readonly actions: readonly ActiveAction[];
    /** Output frames: [first tick, tick count] runs of equal consecutive ticks of the whole loop. */
    readonly runs: readonly (readonly [number, number])[];
    readonly tickAt: (t: number) => EffectTick;
  };
  /** Output frames of the whole loop (1 = still). */
  readonly loop: number;
}

/** One sprite placed on the plane: what draw.ts composites. */
export interface PlannedLayer {
  readonly sprite: RgbaImage;
  /** `sh_` sprites are drawn at twice their size on the normal plane. */
  readonly doubled: boolean;
  /** Top-left on the output window's plane. */
  readonly x: number;
  readonly y: number;
  readonly flip: boolean;
  readonly tint: number | undefined;
  /** The client's additive ink (effect sprites): drawn as light. */
  readonly add: boolean;
  /** What /render lists for this layer. */
  readonly described: DrawnLayer;
}

/** One output frame: the avatar's layers, and for effect renders the sprites around it and its treatment. */
export interface PlannedFrame {
  readonly behind: readonly PlannedLayer[];
  readonly avatar: readonly PlannedLayer[];
  readonly front: readonly PlannedLayer[];
  /** Effect renders draw the avatar as one image (coloured, then put between the sprites), as the client does. */
  readonly avatarImage: boolean;
  readonly colour: AvatarColorData | undefined;
  /** Client ticks (1/6 s) this frame lasts. */
  readonly ticks: number;
}

/** The plan of one image: its canvas and every frame it shows, sprites resolved. */
export interface AvatarPlan {
  readonly window: OutputWindow;
  readonly frames: readonly PlannedFrame[];
}

export interface DrawnLayer {
  /** Animation frame this layer belongs to. */
  frame: number;
  /** Draw order within the frame, 0 = bottom. */
  order: number;
  bodyPart: string;
  /** Part type of the figure (`lh`), and the one whose sprite was drawn (`rh` when mirrored). */
  partType: string;
  drawnPartType: string;
  /** A figure part's id, or an effect's part id (`fx5_1`, `1`). */
  partId: number | string;
  library: string;
  asset: string;
  /** Top-left in output pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  flip: boolean;
  /** `#rrggbb` multiply colour, or null. */
  tint: string | null;
  /** Effect renders only: the animation (`fx.2`, `dance.1`) this layer comes from or is moved by. */
  effect?: string;
  /** Effect sprites only: `add` for the client's additive ink 33. */
  ink?: string;
}
