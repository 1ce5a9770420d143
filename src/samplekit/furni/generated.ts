// Generated furni for benchmarks at the published scale (~17,000 items): cheap, deterministic
// variations of four templates in ten colours. Item i is a pure function of i, so rows and bundles
// can be produced one at a time without holding the whole set in memory.
import { type AssetLibrary } from '../../formats/asset-library.js';
import { type PlacedSprite, blankSprite, drawSprite } from './draw.js';
import { FurniBuilder, anim, animLayer, vis64, visIcon } from './builder.js';
import { CYCLE, WHITE, YELLOW, BLACK } from './palette.js';
import { type RowInput, hexColor } from './furnidata.js';

export const GENERATED_PREFIX = 'kit_gen_';
const TEMPLATES = ['box', 'duo', 'blinker', 'plaque'] as const;
type Template = (typeof TEMPLATES)[number];

export interface GeneratedSpec {
  index: number;
  classname: string;
  template: Template;
  colorIndex: number;
  kind: 'floor' | 'wall';
  id: number;
  revision: number;
  variants: number[];
  /** Same key = same sprite images under the same names relative to the classname. */
  spriteSetKey: string;
}

/** The i-th generated item (1-based). */
export function generatedSpec(i: number): GeneratedSpec {
  const template = TEMPLATES[Math.floor((i - 1) / CYCLE.length) % TEMPLATES.length]!;
  const colorIndex = (i - 1) % CYCLE.length;
  return {
    index: i,
    classname: `${GENERATED_PREFIX}${String(i).padStart(5, '0')}`,
    template,
    colorIndex,
    kind: template === 'plaque' ? 'wall' : 'floor',
    id: 1_000_000 + i,
    revision: 70_000 + (i % 97),
    variants: template === 'duo' && i % 3 === 0 ? [1, 2] : [],
    spriteSetKey: `${template}/${colorIndex}`,
  };
}

const DUO_COLORS: Record<number, number> = { 1: 0xd04040, 2: 0x4060d0 };

export function generatedRows(spec: GeneratedSpec): RowInput[] {
  const base: RowInput = {
    kind: spec.kind,
    id: spec.id,
    classname: spec.classname,
    revision: spec.revision,
    name: `Generated ${spec.template} ${spec.index}`,
    description: 'Sample kit: generated benchmark item',
    defaultdir: 0,
    xdim: 1,
    ydim: 1,
    partcolors: ['#FFFFFF'],
  };
  const rows = [base];
  for (const v of spec.variants) {
    rows.push({
      ...base,
      id: spec.id * 10 + v,
      classname: `${spec.classname}*${v}`,
      name: `${base.name} colour ${v}`,
      partcolors: [hexColor(DUO_COLORS[v]!)],
    });
  }
  return rows;
}

/** Drawn sprites by sprite-set key; create one per kit build. */
export class GeneratedSprites {
  private readonly sets = new Map<string, Map<string, PlacedSprite>>();

  get(spec: GeneratedSpec): Map<string, PlacedSprite> {
    let set = this.sets.get(spec.spriteSetKey);
    if (!set) {
      set = drawTemplate(spec.template, spec.colorIndex);
      this.sets.set(spec.spriteSetKey, set);
    }
    return set;
  }
}

function drawTemplate(t: Template, colorIndex: number): Map<string, PlacedSprite> {
  const color = CYCLE[colorIndex]!;
  const tag = `${t[0]!.toUpperCase()}${colorIndex}`;
  const s = new Map<string, PlacedSprite>();
  const icon = drawSprite((c) => {
    c.box(0, 0, 10, 10, color);
    c.label(tag[0]!, 5, -3);
  });
  switch (t) {
    case 'box':
      s.set(
        '64_a_2_0',
        drawSprite((c) => {
          c.box(0, 0, 20, 20 + colorIndex * 2, color);
          c.label(tag, 10, -8);
        }),
      );
      s.set(
        '64_sd_2_0',
        drawSprite((c) => c.diamond(0, 0, 26, BLACK, null)),
      );
      break;
    case 'duo':
      s.set(
        '64_a_2_0',
        drawSprite((c) => {
          c.box(0, 0, 22, 10, color);
          c.label(tag, 11, -2);
        }),
      );
      s.set(
        '64_b_2_0',
        drawSprite((c) => c.box(0, -10, 16, 16, WHITE)),
      );
      break;
    case 'blinker':
      s.set(
        '64_a_2_0',
        drawSprite((c) => {
          c.box(0, 0, 10, 28, color);
          c.label(tag, 5, -12);
        }),
      );
      s.set('64_b_2_0', blankSprite());
      s.set(
        '64_b_2_1',
        drawSprite((c) => c.box(0, -28, 8, 8, YELLOW)),
      );
      s.set(
        '64_b_2_2',
        drawSprite((c) => c.box(0, -28, 8, 8, WHITE)),
      );
      break;
    case 'plaque':
      s.set(
        '64_a_2_0',
        drawSprite((c) => {
          c.wallPanel(0, 0, 14, 24, color);
          c.label(tag, 0, -14);
        }),
      );
      break;
  }
  s.set('icon_a', icon);
  return s;
}

/** The asset library of a generated item, built from the shared sprites. */
export function generatedLibrary(spec: GeneratedSpec, sprites: GeneratedSprites): AssetLibrary {
  const b = new FurniBuilder(spec.classname);
  const set = sprites.get(spec);
  for (const [suffix, sprite] of set) b.sprite(suffix, sprite);
  for (const suffix of set.keys()) {
    const m = /^64_([a-z]+)_2_(\d+)$/.exec(suffix);
    if (m) b.alias(`64_${m[1]}_4_${m[2]}`, suffix, true);
  }
  const dims = spec.kind === 'wall' ? { x: 1, y: 0.2, z: 1 } : { x: 1, y: 1, z: 1 };
  const directions = { '2': {}, '4': {} };
  switch (spec.template) {
    case 'box':
    case 'plaque':
      return b.library({
        logicType: 'furniture_basic',
        visualizationType: 'furniture_static',
        dimensions: dims,
        directions: [2, 4],
        visualizations: [vis64({ layerCount: 1, directions }), visIcon(1)],
      });
    case 'duo': {
      const colors = { '1': { '1': DUO_COLORS[1]! }, '2': { '1': DUO_COLORS[2]! } };
      return b.library({
        logicType: 'furniture_basic',
        visualizationType: 'furniture_static',
        dimensions: dims,
        directions: [2, 4],
        visualizations: [vis64({ layerCount: 2, directions, colors }), visIcon(1)],
      });
    }
    case 'blinker': {
      const animations = {
        '0': anim({ '1': animLayer([0]) }),
        '1': anim({ '1': animLayer([1, 2], { frameRepeat: 6, loopCount: 0 }) }),
      };
      return b.library({
        logicType: 'furniture_multistate',
        visualizationType: 'furniture_animated',
        dimensions: dims,
        directions: [2, 4],
        visualizations: [vis64({ layerCount: 2, layers: { '1': { ink: 'ADD' } }, directions, animations }), visIcon(1)],
      });
    }
  }
}
