// A pet in the room: a users_pets row drawn from its library (the client's pet type list names it) as the pet
// visualization draws it, its sprites placed from its tile's screen point like a floor item's (PetVisualization
// is a furniture visualization), in its posture: its stored one (a dead monster plant's rip), else seated on a
// seat or laid on a bed under it as the emulator sets every unit's status (posture.ts). The client places a pet
// at z + the status height and, unlike an avatar, moves none of its sprites for the posture.
import { parsePetFigure } from '../../pet/figure.js';
import { petPeriod, petSprites } from '../../pet/render.js';
import { depthOf, project } from '../geometry.js';
import { doorDisplacement } from '../planes.js';
import { type ObjectContext, OFF_MAP, onMap, placeSprites, type RoomObject } from './room-object.js';
import { furniPosture } from './unit-posture.js';

export async function* pets(ctx: ObjectContext): AsyncGenerator<RoomObject> {
  const floorItems = ctx.items.filter((i) => i.kind === 'floor');
  for (const pet of ctx.pets) {
    const skip = (reason: string) => ctx.skip({ id: pet.id, kind: 'pet', classname: pet.name, reason });
    if (!onMap(ctx.map, pet.x, pet.y, pet.z)) {
      skip(OFF_MAP);
      continue;
    }
    let figure: ReturnType<typeof parsePetFigure>;
    try {
      figure = parsePetFigure(pet.figure);
    } catch (e) {
      skip(`its figure "${pet.figure}": ${(e as Error).message}`);
      continue;
    }
    const found = await ctx.assets.pet(figure.typeId);
    if (!found.ok) {
      skip(found.reason);
      continue;
    }
    const model = found.model;
    const p = await furniPosture(ctx.assets, floorItems, pet);
    // A stored posture (rip) stays: the emulator's seat and bed rule only replaces standing.
    const posture = pet.posture !== 'std' ? pet.posture : p.posture;
    const z = p.z + p.height;
    const direction = ((Math.trunc(p.direction) % 8) + 8) % 8;
    const at = project(ctx.scale, p.x, p.y, z);
    const sx = Math.round(at.x);
    const sy = Math.round(at.y);
    yield {
      depth: depthOf(p.x, p.y, z, sx) + doorDisplacement(ctx.door, p.x, p.y, z),
      entry: {
        id: pet.id,
        kind: 'pet',
        classname: model.furni.def.classname,
        tile: { x: p.x, y: p.y, z },
        direction,
        state: 0,
        ...(posture !== 'std' ? { posture: { type: posture, height: p.height } } : {}),
      },
      period: () => petPeriod(model, { posture, gesture: '', direction }),
      frame: (tick) => {
        const pose = { posture, gesture: '', direction, headDirection: direction, tick: tick.tick };
        return placeSprites(petSprites(model, figure, pose), sx, sy);
      },
    };
  }
}
