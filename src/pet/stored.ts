// A pet as the emulator stores it (Arcturus `users_pets`, or a room file's pet with a `figure` of its own): the
// figure string the emulator sends for it and the posture it shows. Rooms place it (RoomPet is this); the pet
// picture's `id=` draws it alone.
import { type Row, rowFlag, rowInt, rowNumber, rowText } from '../util/row-values.js';
import { arcturusPetFigure } from './figure.js';

export interface StoredPet {
  readonly id: number;
  readonly name: string;
  /** The figure string the emulator sends for it (arcturusPetFigure). */
  readonly figure: string;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Body direction 0–7. */
  readonly rot: number;
  /** The posture it is drawn in (`std`; a dead monster plant `rip`), a name from its library's postures. */
  readonly posture: string;
}

/** The monster plant's type: a dead one lies as `rip` (MonsterplantPet.cycle), every other pet stands. */
const MONSTERPLANT = 16;

/** A pet row (users_pets, or a file's pet with a `figure` of its own) as the emulator places it. */
export function petOf(r: Row): StoredPet {
  const type = rowInt(r.type);
  const figure =
    typeof r.figure === 'string'
      ? r.figure
      : arcturusPetFigure({
          type,
          race: rowInt(r.race),
          color: rowText(r.color),
          hairStyle: rowInt(r.hair_style, -1),
          hairColor: rowInt(r.hair_color),
          saddle: rowFlag(r.saddle),
          mp: {
            type: rowInt(r.mp_type),
            color: rowInt(r.mp_color),
            mouth: rowInt(r.mp_mouth),
            mouthColor: rowInt(r.mp_mouth_color),
            nose: rowInt(r.mp_nose),
            noseColor: rowInt(r.mp_nose_color),
            eyes: rowInt(r.mp_eyes),
            eyesColor: rowInt(r.mp_eyes_color),
          },
          gnomeData: rowText(r.gnome_data),
        });
  const posture = typeof r.posture === 'string' && r.posture ? r.posture : undefined;
  return {
    id: rowInt(r.id),
    name: rowText(r.name),
    figure,
    x: rowInt(r.x),
    y: rowInt(r.y),
    z: rowNumber(r.z),
    rot: rowInt(r.rot),
    posture: posture ?? (type === MONSTERPLANT && rowFlag(r.mp_is_dead) ? 'rip' : 'std'),
  };
}
