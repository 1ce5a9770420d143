// FurnitureData.json rows in the exact field order and types of the Nitro file real hotels serve.
// Wall rows carry fewer fields than floor rows, as in the real file.

export interface FloorRow {
  id: number;
  classname: string;
  revision: number;
  category: string;
  name: string;
  description: string;
  adurl: string;
  offerid: number;
  buyout: boolean;
  rentofferid: number;
  rentbuyout: boolean;
  bc: boolean;
  excludeddynamic: boolean;
  customparams: string;
  specialtype: number;
  furniline: string;
  defaultdir: number;
  xdim: number;
  ydim: number;
  partcolors: { color: string[] };
  canstandon: boolean;
  cansiton: boolean;
  canlayon: boolean;
}

export type WallRow = Omit<
  FloorRow,
  'defaultdir' | 'xdim' | 'ydim' | 'partcolors' | 'canstandon' | 'cansiton' | 'canlayon'
>;

export interface FurnitureDataJson {
  roomitemtypes: { furnitype: FloorRow[] };
  wallitemtypes: { furnitype: WallRow[] };
}

export interface RowInput {
  kind: 'floor' | 'wall';
  id: number;
  classname: string;
  revision: number;
  name: string;
  description: string;
  defaultdir: number;
  xdim: number;
  ydim: number;
  partcolors: string[];
  cansiton?: boolean;
  canstandon?: boolean;
  /** The furni line the row names (default `samplekit`). */
  furniline?: string;
}

export function furniRow(r: RowInput): FloorRow | WallRow {
  const common: WallRow = {
    id: r.id,
    classname: r.classname,
    revision: r.revision,
    category: '',
    name: r.name,
    description: r.description,
    adurl: '',
    offerid: r.id,
    buyout: false,
    rentofferid: -1,
    rentbuyout: false,
    bc: false,
    excludeddynamic: false,
    customparams: '',
    specialtype: 1,
    furniline: r.furniline ?? 'samplekit',
  };
  if (r.kind === 'wall') return common;
  return {
    ...common,
    defaultdir: r.defaultdir,
    xdim: r.xdim,
    ydim: r.ydim,
    partcolors: { color: r.partcolors },
    canstandon: r.canstandon ?? false,
    cansiton: r.cansiton ?? false,
    canlayon: false,
  };
}

/** `#RRGGBB` as furnidata writes catalogue swatches. */
export function hexColor(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0').toUpperCase()}`;
}
