// The avatar half of the sample kit written to a temporary folder and loaded as a hotel, for the test
// files that render on it: `const kit = useKitHotel('name')`, then `kit.hotel` and `kit.dir` in tests.
import { before, after } from 'node:test';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { avatarKitFiles } from '../../src/samplekit/avatar/index.js';
import {
  loadAvatarHotel,
  renderAvatar,
  type AvatarHotel,
  type AvatarRender,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

export interface KitHotel {
  /** The folder the kit is written to (Nitro layout). */
  dir: string;
  hotel: AvatarHotel;
}

/** Registers before/after hooks that write and remove the kit; the fields are set once `before` ran. */
export function useKitHotel(label: string): KitHotel {
  const kit = { dir: '', hotel: undefined as unknown as AvatarHotel };
  before(async () => {
    kit.dir = await mkdtemp(join(tmpdir(), `avatar-${label}-`));
    for (const f of await avatarKitFiles()) {
      const p = join(kit.dir, f.path);
      await mkdir(dirname(p), { recursive: true });
      await writeFile(p, f.data);
    }
    kit.hotel = await loadAvatarHotel(kit.dir);
  });
  after(async () => {
    if (kit.dir) await rm(kit.dir, { recursive: true, force: true });
  });
  return kit;
}

/** Renders `figure` on the kit: size m, direction 2, no action, with `over` replacing fields. */
export function kitRenderer(
  kit: KitHotel,
  figure: string,
): {
  req: (over?: Partial<RequestFields>) => AvatarRequest;
  render: (over?: Partial<RequestFields>) => Promise<AvatarRender>;
} {
  const req = (over: Partial<RequestFields> = {}): AvatarRequest => plainRequest(figure, over);
  return { req, render: (over = {}) => renderAvatar(kit.hotel, req(over)) };
}

/** The RGBA of one pixel. */
export function px(img: RgbaImage, x: number, y: number): [number, number, number, number] {
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, img.data[i + 3]!];
}

/** A pixel's colour as 0xRRGGBB. */
export const rgb = (p: [number, number, number, number]): number => (p[0] << 16) | (p[1] << 8) | p[2];
