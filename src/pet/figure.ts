// A pet's figure string as the client reads it (PetFigureData): `<type> <palette> <colour> <n> (<layer> <part>
// <palette>)×n`, space separated; the colour is hex (a tint over every layer), a part of -1 keeps the layer's own
// sprite and a palette of -1 the pet's palette. `<type> <palette> <colour> head …` is the head-only form. The
// emulator writes one per pet (arcturusPetFigure); pages send one in `figure=`.

/** One custom part: the layer it replaces, the part drawn there (-1: the layer's own), its palette (-1: the pet's). */
export interface PetCustomPart {
  layerId: number;
  partId: number;
  paletteId: number;
}

export interface PetFigure {
  /** Index into the client's pet type list (`pet.types`: 0 dog, 1 cat, …). */
  typeId: number;
  paletteId: number;
  /** 0xRRGGBB: multiplied into every layer (white leaves the art as drawn). */
  color: number;
  headOnly: boolean;
  customParts: PetCustomPart[];
}

export class PetFigureError extends Error {}

/** Figure strings longer than this are refused (a real one, with the most parts, is under 60 characters). */
export const MAX_PET_FIGURE_LENGTH = 256;

const INT = /^-?\d{1,9}$/;

/**
 * Reads a pet figure string; throws PetFigureError naming what is wrong. Stricter than the client (which reads
 * `parseInt` of anything): a page's typo is a 400, not a picture of a dog.
 * @example parsePetFigure('15 2 ffffff 2 2 -1 1 3 -1 1') // horse, palette 2, two custom parts
 */
export function parsePetFigure(figure: string): PetFigure {
  if (figure.length > MAX_PET_FIGURE_LENGTH)
    throw new PetFigureError(`a pet figure is at most ${MAX_PET_FIGURE_LENGTH} characters`);
  const parts = figure.trim().split(/\s+/);
  const [type, palette, color] = parts;
  if (!type || !INT.test(type) || Number(type) < 0)
    throw new PetFigureError(`a pet figure starts with its type, a whole number ≥ 0 (got "${figure}")`);
  if (palette !== undefined && !INT.test(palette))
    throw new PetFigureError(`the pet's palette must be a whole number (got "${palette}")`);
  if (color !== undefined && !/^[0-9a-fA-F]{1,6}$/.test(color))
    throw new PetFigureError(`the pet's colour must be hex RRGGBB (got "${color}")`);
  const headOnly = parts[3] === 'head';
  const countAt = headOnly ? 4 : 3;
  const count = parts[countAt];
  const customParts: PetCustomPart[] = [];
  if (count !== undefined) {
    if (!INT.test(count) || Number(count) < 0)
      throw new PetFigureError(`the count of custom parts must be a whole number ≥ 0 (got "${count}")`);
    const values = parts.slice(countAt + 1);
    if (values.length !== Number(count) * 3)
      throw new PetFigureError(
        `${count} custom part(s) need ${Number(count) * 3} numbers (layer part palette each), got ${values.length}`,
      );
    for (let i = 0; i < values.length; i += 3) {
      const [layer, part, pal] = values.slice(i, i + 3) as [string, string, string];
      if (![layer, part, pal].every((v) => INT.test(v)))
        throw new PetFigureError(`a custom part is three whole numbers (got "${layer} ${part} ${pal}")`);
      customParts.push({ layerId: Number(layer), partId: Number(part), paletteId: Number(pal) });
    }
  } else if (parts.length > countAt) {
    throw new PetFigureError(`unexpected "${parts.slice(countAt).join(' ')}" in the pet figure`);
  }
  return {
    typeId: Number(type),
    paletteId: palette === undefined ? 0 : Number(palette),
    color: color === undefined ? 0xffffff : Number.parseInt(color, 16),
    headOnly,
    customParts,
  };
}

/** The figure string of a parsed figure, as the client writes it (PetFigureData.figureString): one spelling. */
export function petFigureString(f: PetFigure): string {
  const head = f.headOnly ? ' head' : '';
  const parts = f.customParts.map((p) => ` ${p.layerId} ${p.partId} ${p.paletteId}`).join('');
  return `${f.typeId} ${f.paletteId} ${f.color.toString(16)}${head} ${f.customParts.length}${parts}`;
}

/** The columns of an Arcturus `users_pets` row a pet's figure is made of. */
export interface ArcturusPetRow {
  type: number;
  race: number;
  color: string;
  hairStyle: number;
  hairColor: number;
  saddle: boolean;
  /** Monster plant body, colour, mouth, mouth colour, nose, nose colour, eyes, eyes colour (`mp_*`). */
  mp: {
    type: number;
    color: number;
    mouth: number;
    mouthColor: number;
    nose: number;
    noseColor: number;
    eyes: number;
    eyesColor: number;
  };
  gnomeData: string;
}

/** Pet types whose figure the emulator builds its own way (Arcturus PetManager's classes). */
const HORSE = 15;
const MONSTERPLANT = 16;
const GNOMES = new Set([26, 27]);

/**
 * The figure string Arcturus sends for a stored pet (RoomPetComposer; HorsePet, MonsterplantPet.getLook,
 * GnomePet.getLook): a horse's tail and hair styles and its saddle, a monster plant's body, mouth, nose and
 * eyes, a gnome's stored parts; every other pet gets two parts (tail and emoticon layers) in palette 0.
 */
export function arcturusPetFigure(row: ArcturusPetRow): string {
  if (row.type === MONSTERPLANT) {
    const m = row.mp;
    return (
      `${MONSTERPLANT} 0 FFFFFF 5 0 -1 10 1 ${m.type} ${m.color} 2 ${m.mouth} ${m.mouthColor} ` +
      `3 ${m.nose} ${m.noseColor} 4 ${m.eyes} ${m.eyesColor}`
    );
  }
  if (GNOMES.has(row.type)) return `${row.type} 0 FFFFFF ${row.gnomeData.trim()}`;
  const head = `${row.type} ${row.race} ${row.color}`;
  if (row.type === HORSE) {
    const hair = `${row.hairStyle} ${row.hairColor}`;
    return `${head} ${row.saddle ? 3 : 2} 2 ${hair} 3 ${hair}${row.saddle ? ' 4 9 0' : ''}`;
  }
  return `${head} 2 2 -1 0 3 -1 0`;
}
