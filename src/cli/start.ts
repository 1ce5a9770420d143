// `hotel-imager start` (what `npm start` runs): the furni asset service and the avatar service on the
// built-in sample kit, building what they need on first start. The kit is written once per generator
// version and the corpus build is incremental, so later starts are quick.
import { dirname, join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { runBuild } from '../build/run.js';
import { ensureSampleKit } from '../samplekit/index.js';
import { DEFAULT_FURNI_PORT } from '../server/furni/index.js';
import { avatarConfigFromFlags, defaultSampleKitDir, runAvatarService } from './serve-avatar.js';
import { runFurniService } from './serve-furni.js';

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('serve furni assets (port 8080) and avatars (port 8081) from the built-in sample kit, building it on first start')
    .addOption(new Option('--furni-port <n>', 'furni asset service port').env('HOTEL_IMAGER_FURNI_PORT').argParser(port).default(DEFAULT_FURNI_PORT))
    .addOption(new Option('--avatar-port <n>', 'avatar service port').env('HOTEL_IMAGER_AVATAR_PORT').argParser(port).default(8081))
    .addOption(new Option('--host <addr>', 'address both services listen on').env('HOTEL_IMAGER_HOST').default('0.0.0.0'))
    .action(async (o: { furniPort: number; avatarPort: number; host: string }) => {
      const kit = defaultSampleKitDir();
      const { written } = await ensureSampleKit(kit);
      process.stderr.write(`sample kit: ${kit}${written ? ' (written)' : ''}\n`);
      const corpus = join(dirname(kit), 'furni-corpus');
      const built = await runBuild({ assets: kit, out: corpus });
      process.stderr.write(
        `furni corpus: ${corpus} (${built.rebuilt} items built, ${built.unchanged} unchanged; ` +
          `${built.corpus.counts.renders} renders, ${built.corpus.counts.icons} icons, ${built.corpus.counts.bundles} bundles)\n`,
      );
      await runFurniService({ corpus, port: o.furniPort, host: o.host });
      await runAvatarService(avatarConfigFromFlags({ assets: kit, port: String(o.avatarPort), host: o.host }));
    });
}
