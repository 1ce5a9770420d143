// The avatar half of the sample kit written to a temporary folder and loaded as a hotel, for the test
// files that render on it: `const kit = useKitHotel('name')`, then `kit.hotel` and `kit.dir` in tests.
import { before, after } from 'node:test';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { avatarKitFiles } from '../../src/samplekit/avatar/index.js';
import { loadAvatarHotel, type AvatarHotel } from '../../src/avatar/index.js';

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
