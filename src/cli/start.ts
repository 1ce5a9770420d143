// `hotel-imager start` (what `npm start` runs): the furni asset service and the avatar service on the
// built-in sample kit, building what they need on first start. The kit is written once per generator
// version and the corpus build is incremental, so later starts are quick.
import { dirname, join } from 'node:path';
import { type Command } from 'commander';
import { runBuild } from '../corpus/run.js';
import { ensureSampleKit } from '../samplekit/index.js';
import { defaultAvatarConfig } from '../core/avatar/config.js';
import { DEFAULT_FURNI_PORT } from '../server/furni/index.js';
import { checkPortFree, DEFAULT_HOST } from '../http/http-server.js';
import { port } from '../settings/values.js';
import { setDecodeBudget } from '../imaging/decode-budget.js';
import { addOptions, DECODE_BUDGET_OPTION, explainPortInUse, option, readOptions } from './options.js';
import { avatarConfigFromFlags, defaultSampleKitDir, runAvatarService, SERVE_AVATAR_OPTIONS } from './serve-avatar.js';
import { runFurniService } from './serve-furni.js';
import { stopOnSignals } from './shutdown.js';

export const START_OPTIONS = {
  furniPort: option({
    flag: '--furni-port <n>',
    env: 'HOTEL_IMAGER_FURNI_PORT',
    help: 'furni asset service port',
    parse: port,
    default: DEFAULT_FURNI_PORT,
  }),
  avatarPort: option({
    flag: '--avatar-port <n>',
    env: 'HOTEL_IMAGER_AVATAR_PORT',
    help: 'avatar service port',
    parse: port,
    default: defaultAvatarConfig().port,
  }),
  host: option({
    flag: '--host <addr>',
    env: 'HOTEL_IMAGER_HOST',
    help: 'address both services listen on (0.0.0.0: every interface; 127.0.0.1: this machine only)',
    default: DEFAULT_HOST,
  }),
  decodeBudget: DECODE_BUDGET_OPTION,
  database: option({ ...SERVE_AVATAR_OPTIONS.databaseUrl.spec }),
};

export function registerStartCommand(program: Command): void {
  const cmd = program
    .command('start')
    .description(
      'serve furni assets (port 8080) and avatars (port 8081) from the built-in sample kit, building it on first start',
    );
  addOptions(cmd, START_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, START_OPTIONS);
    setDecodeBudget(o.decodeBudget);
    // Both ports before the sample kit and its corpus are made: a port in use is said at once.
    await withPortHint(checkPortFree(o.host, o.furniPort), 'furni', o.furniPort);
    await withPortHint(checkPortFree(o.host, o.avatarPort), 'avatar', o.avatarPort);
    const kit = defaultSampleKitDir();
    const { written } = await ensureSampleKit(kit);
    process.stderr.write(`sample kit: ${kit}${written ? ' (written)' : ''}\n`);
    const corpus = join(dirname(kit), 'furni-corpus');
    // The sample kit is ours: a kit version with fewer items replaces the old corpus without the shrink guard.
    const built = await runBuild({ assets: kit, out: corpus, allowShrink: true });
    process.stderr.write(
      `furni corpus: ${corpus} (${built.rebuilt} items built, ${built.unchanged} unchanged; ` +
        `${built.corpus.counts.renders} renders, ${built.corpus.counts.icons} icons, ${built.corpus.counts.bundles} ` +
        `bundles)\n`,
    );
    const avatarConfig = avatarConfigFromFlags({
      assets: kit,
      port: String(o.avatarPort),
      host: o.host,
      decodeBudget: String(o.decodeBudget),
      ...(o.database !== undefined ? { database: o.database } : {}),
    });
    // HOTEL_IMAGER_TRUST_PROXY (read with the avatar settings) holds for both services.
    const furni = await withPortHint(
      runFurniService(
        { corpus, port: o.furniPort, host: o.host, trustProxy: avatarConfig.trustProxy },
        { signals: false },
      ),
      'furni',
      o.furniPort,
    );
    let avatar: Awaited<ReturnType<typeof runAvatarService>>;
    try {
      avatar = await withPortHint(runAvatarService(avatarConfig, { signals: false }), 'avatar', o.avatarPort);
    } catch (e) {
      await furni.close();
      throw e;
    }
    // One handler closes both: the avatar service may still be writing its disk cache when furni is done.
    stopOnSignals([furni.close, avatar.close]);
    process.stderr.write(startSummary(o.host, furni.port, portOf(avatar.url)));
  });
}

/** The address a browser on this machine uses for a service bound to `host`. */
function browserHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/**
 * What a newcomer reads after `npm start`: where each service is, with one URL of each kind to open.
 * The request log that follows is JSON, one line per request.
 */
export function startSummary(host: string, furniPort: number, avatarPort: number): string {
  const furni = `http://${browserHost(host)}:${furniPort}`;
  const avatar = `http://${browserHost(host)}:${avatarPort}`;
  const figure = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';
  return [
    '',
    'hotel-imager is serving the built-in sample kit:',
    `  furni service   ${furni}/furni-renders/kit_sofa_colors*3.png`,
    `                  ${furni}/catalog-thumbs/kit_table_sd.png   ${furni}/healthz`,
    `  avatar service  ${avatar}/avatar.png?figure=${figure}&direction=3`,
    `                  ${avatar}/render?figure=${figure}&action=wav   (debug page)   ${avatar}/healthz`,
    'Ctrl-C stops both. Request log lines (JSON) follow.',
    '',
  ].join('\n');
}

/** A port another program holds is the likeliest first-start failure: say which flag moves it. */
async function withPortHint<T>(starting: Promise<T>, service: 'furni' | 'avatar', port: number): Promise<T> {
  try {
    return await starting;
  } catch (e) {
    const flag = service === 'furni' ? '--furni-port' : '--avatar-port';
    const env = service === 'furni' ? 'HOTEL_IMAGER_FURNI_PORT' : 'HOTEL_IMAGER_AVATAR_PORT';
    throw explainPortInUse(e, { service, port, flag, env, command: 'npm start --' });
  }
}
