// An avatar in the room: a bot's row (figure, tile, rotation, dance, effect) drawn by the avatar renderer as one
// sprite, standing with its feet on the tile's screen point (AvatarVisualization), or seated or laid on the items
// under it as the emulator sets its status (posture.ts) and the client then places it (unit-placement.ts).
import { type AvatarRequest, renderAvatar } from '../../avatar/index.js';
import { parseAction } from '../../avatar/request.js';
import { depthOf, project } from '../geometry.js';
import { type RoomBot } from '../model.js';
import { type RgbaImage } from '../../imaging/image.js';
import { AVATAR_UPDATES_PER_FRAME, avatarFrameCounter } from '../motion.js';
import { doorDisplacement } from '../planes.js';
import { type Posture } from '../posture.js';
import { drawnDirection, unitPlacement } from '../unit-placement.js';
import { type ObjectContext, OFF_MAP, onMap, type RoomObject } from './room-object.js';
import { furniPosture } from './unit-posture.js';

export async function* avatars(ctx: ObjectContext): AsyncGenerator<RoomObject> {
  const hotel = ctx.assets.avatarHotel;
  const floorItems = ctx.items.filter((i) => i.kind === 'floor');
  for (const bot of ctx.bots) {
    const skip = (reason: string) => ctx.skip({ id: bot.id, kind: 'bot', classname: bot.name, reason });
    if (!hotel) {
      skip('no avatar hotel loaded');
      continue;
    }
    if (!onMap(ctx.map, bot.x, bot.y, bot.z)) {
      skip(OFF_MAP);
      continue;
    }
    // The status the emulator gives a bot on a seat or bed (none with furni off: the bot stands).
    const p = await furniPosture(ctx.assets, floorItems, bot);
    // A dancing bot or one with an effect moves in a still too: the client shows the frame its clock is on.
    const req = botRequest(bot, p, !!ctx.animated || bot.effect > 0 || (p.posture === 'std' && bot.dance > 0));
    let object: RoomObject;
    try {
      const r = await renderAvatar(hotel, req);
      const img = r.frames[0]!;
      // The client's location: (x, y, z + the posture height), its canvas moved for the posture.
      const z = p.z + p.height;
      const at = project(ctx.scale, p.x, p.y, z);
      const sx = Math.round(at.x);
      const sy = Math.round(at.y);
      // Placed at the direction drawn (lying: 4 or 2); the request has the unit's own, the renderer turns it.
      const drawn = drawnDirection(p.posture, p.direction);
      const place = unitPlacement(hotel, p.posture, drawn, img.width);
      const spriteOf = (image: RgbaImage) => ({
        image,
        left: sx + place.left,
        top: sy + place.top,
        relativeDepth: place.relativeDepth,
      });
      const sprite = spriteOf(img);
      const layers = r.layers.filter((l) => l.frame === 0).map((l) => `${l.library}:${l.asset}`);
      // The avatar's loop as the client's frame counter plays it (avatarFrameCounter: one tick of the loop every
      // AVATAR_UPDATES_PER_FRAME updates, tick 1 at the room's first frame): in an animated room from its first
      // frame, in a still at the still's tick.
      const tickFrame = r.frameTicks.flatMap((n, k) => Array.from({ length: n }, () => k));
      const frameAt = (since: number) =>
        r.frames.length > 1 ? tickFrame[avatarFrameCounter(since) % tickFrame.length]! : 0;
      const sprites = r.frames.map((img, k) => (k === 0 ? sprite : spriteOf(img)));
      object = {
        depth: depthOf(p.x, p.y, z, sx) + doorDisplacement(ctx.door, p.x, p.y, z),
        entry: {
          id: bot.id,
          kind: 'bot',
          classname: bot.name,
          tile: { x: p.x, y: p.y, z },
          direction: drawn,
          state: 0,
          ...(p.posture !== 'std' ? { posture: { type: p.posture, height: p.height } } : {}),
        },
        frame: (tick) => ({ sprites: [sprites[frameAt(tick.since ?? tick.tick)]!], layers }),
        period: () => (r.frames.length > 1 ? AVATAR_UPDATES_PER_FRAME * tickFrame.length : 1),
      };
    } catch (e) {
      skip((e as Error).message);
      continue;
    }
    yield object;
  }
}

/**
 * The avatar request a bot's row makes: its figure in its posture (std, sit, lay) at the unit's direction (the
 * renderer turns a lying one to the direction drawn, as AvatarImage.appendAction does), or
 * dancing when standing (a seated unit stops dancing: the emulator's sit branch), one frame (its whole loop in
 * an animated room).
 */
function botRequest(bot: RoomBot, p: Posture, animated: boolean): AvatarRequest {
  const direction = p.direction;
  const dance = p.posture === 'std' && bot.dance > 0 && bot.dance <= 4 ? bot.dance : 0;
  return {
    figure: bot.figure,
    direction,
    headDirection: direction,
    size: 'm',
    // A bot's posture and dance come from its rows, not a request.
    action: parseAction(p.posture !== 'std' ? p.posture : dance > 0 ? `dance.${dance}` : 'std'),
    gesture: '',
    headOnly: false,
    animated,
    frames: animated ? 0 : 1,
    ...(bot.effect > 0 ? { effect: bot.effect } : {}),
    ...(dance > 0 ? { dance } : {}),
  };
}
