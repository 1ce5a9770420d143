// An avatar standing in the room: a bot's row (figure, tile, rotation, dance, effect) drawn by the avatar
// renderer as one sprite, its feet on the tile's screen point (AvatarVisualization).
import { type AvatarRequest, renderAvatar } from '../../avatar/index.js';
import { UPRIGHT_H } from '../../avatar/canvas.js';
import { parseAction } from '../../avatar/request.js';
import { depthOf, project } from '../geometry.js';
import { type RoomBot } from '../model.js';
import { type RgbaImage } from '../../imaging/image.js';
import { avatarFrameUpdates } from '../motion.js';
import { doorDisplacement } from '../planes.js';
import { type ObjectContext, OFF_MAP, onMap, type RoomObject } from './room-object.js';

export async function* avatars(ctx: ObjectContext): AsyncGenerator<RoomObject> {
  const hotel = ctx.assets.avatarHotel;
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
    const req = botRequest(bot, !!ctx.animated);
    let object: RoomObject;
    try {
      const r = await renderAvatar(hotel, req);
      const at = project(ctx.scale, bot.x, bot.y, bot.z);
      const sx = Math.round(at.x);
      const sy = Math.round(at.y);
      const spriteOf = (img: RgbaImage) => ({
        image: img,
        // AvatarVisualization: centred on the tile.
        left: sx - Math.floor(img.width / 2),
        // AvatarVisualization hangs the client's avatar canvas (90 × 130 at scale 64) a quarter scale below the
        // tile point with its feet 16 px above its bottom: the feet land on the tile's screen point. Ours
        // stand at UPRIGHT_H.ry of the imager's picture (half of it at size 32).
        top: sy - (UPRIGHT_H.ry * ctx.scale) / 64,
        relativeDepth: -0.01,
      });
      const sprite = spriteOf(r.frames[0]!);
      const layers = r.layers.filter((l) => l.frame === 0).map((l) => `${l.library}:${l.asset}`);
      // An animated room: the avatar's loop at its own clock (each frame its delay in updates) from the room's
      // first frame; a still: its first frame.
      const lasts = r.frames.map((_, k) => avatarFrameUpdates(r.delays[k]!));
      const period = lasts.reduce((n, u) => n + u, 0);
      const frameAt = (since: number) => {
        let u = since % period;
        let k = 0;
        while (u >= lasts[k]!) u -= lasts[k++]!;
        return k;
      };
      const sprites = r.frames.map((img, k) => (k === 0 ? sprite : spriteOf(img)));
      object = {
        depth: depthOf(bot.x, bot.y, bot.z, sx) + doorDisplacement(ctx.door, bot.x, bot.y, bot.z),
        entry: {
          id: bot.id,
          kind: 'bot',
          classname: bot.name,
          tile: { x: bot.x, y: bot.y, z: bot.z },
          direction: req.direction,
          state: 0,
        },
        frame: (tick) => ({ sprites: [sprites[frameAt(tick.since ?? 0)]!], layers }),
        period: () => (r.frames.length > 1 ? period : 1),
      };
    } catch (e) {
      skip((e as Error).message);
      continue;
    }
    yield object;
  }
}

/**
 * The avatar request a bot's row makes: its figure standing (or dancing) in its direction, one frame (its
 * whole loop in an animated room).
 */
function botRequest(bot: RoomBot, animated: boolean): AvatarRequest {
  const direction = ((bot.rot % 8) + 8) % 8;
  return {
    figure: bot.figure,
    direction,
    headDirection: direction,
    size: 'm',
    // A bot's dance comes from its row, not a request: the one action it can have.
    action: parseAction(bot.dance > 0 && bot.dance <= 4 ? `dance.${bot.dance}` : 'std'),
    gesture: '',
    headOnly: false,
    animated,
    frames: animated ? 0 : 1,
    ...(bot.effect > 0 ? { effect: bot.effect } : {}),
    ...(bot.dance > 0 && bot.dance <= 4 ? { dance: bot.dance } : {}),
  };
}
