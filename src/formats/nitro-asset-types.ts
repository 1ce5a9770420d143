// The JSON document inside a `.nitro` asset bundle, in the schema real Nitro bundles use
// (nitro-renderer's IAssetData). Furni and figure libraries share it; furni fill more fields.

export interface NitroAssetEntry {
  x?: number;
  y?: number;
  source?: string;
  flipH?: boolean;
  flipV?: boolean;
  usesPalette?: boolean;
}

/** A visualization layer's fields as the data sets them; an absent field takes the client's default. */
export interface NitroLayer {
  /** Horizontal offset of the layer's sprites, in pixels (default 0). */
  x?: number;
  /** Vertical offset of the layer's sprites, in pixels (default 0). */
  y?: number;
  /** Draw order among the item's layers: a higher z is drawn on top (default 0). */
  z?: number;
  /** Opacity 0-255 (default 255). */
  alpha?: number;
  /** Blend mode: `ADD`, `SUBTRACT`, `DARKEN`, `COPY`, …; absent draws normally. */
  ink?: string;
  /** A name the client gives the layer meaning by (`BADGE` marks a group badge's layer); default "". */
  tag?: string;
  /** The client ignores clicks on this layer (default false). */
  ignoreMouse?: boolean;
}

export interface NitroFrame {
  id: number;
  x?: number;
  y?: number;
  randomX?: number;
  randomY?: number;
  offsets?: Record<string, { direction: number; x?: number; y?: number }>;
}

export interface NitroFrameSequence {
  loopCount?: number;
  random?: number | boolean;
  frames: Record<string, NitroFrame>;
}

export interface NitroAnimationLayer {
  loopCount?: number;
  frameRepeat?: number;
  random?: number | boolean;
  frameSequences: Record<string, NitroFrameSequence>;
}

export interface NitroAnimation {
  transitionTo?: number;
  transitionFrom?: number;
  immediateChangeFrom?: string;
  randomStart?: boolean;
  layers: Record<string, NitroAnimationLayer>;
}

export interface NitroVisualization {
  size: number;
  layerCount: number;
  angle: number;
  layers?: Record<string, NitroLayer>;
  directions?: Record<string, { layers?: Record<string, NitroLayer> }>;
  colors?: Record<string, { layers: Record<string, { color: number }> }>;
  animations?: Record<string, NitroAnimation>;
  postures?: unknown;
  gestures?: unknown;
}

export interface NitroSpriteFrame {
  frame: { x: number; y: number; w: number; h: number };
  rotated?: boolean;
  trimmed?: boolean;
  spriteSourceSize?: { x: number; y: number; w: number; h: number };
  sourceSize?: { w: number; h: number };
  pivot?: { x: number; y: number };
}

export interface NitroSpritesheet {
  meta: { image: string; format?: string; size: { w: number; h: number }; scale?: number | string };
  frames: Record<string, NitroSpriteFrame>;
}

export interface NitroAssetData {
  name: string;
  type?: string;
  logicType?: string;
  visualizationType?: string;
  assets?: Record<string, NitroAssetEntry>;
  palettes?: Record<string, unknown>;
  logic?: {
    model?: {
      dimensions?: { x: number; y: number; z: number; centerZ?: number };
      directions?: number[];
    };
    [key: string]: unknown;
  };
  visualizations?: NitroVisualization[];
  spritesheet?: NitroSpritesheet;
  [key: string]: unknown;
}
