// The bundle player page (/player/<classname>) in headless Chromium (Debian package `chromium`, driven
// by playwright-core with no browser download): for a static, a multistate and an animated kit item it
// reads the bundle in the browser, builds the sprite sheet and plays it with CSS steps(); the test
// stops the animation at two points of the loop and compares the screenshots with the APNG the service
// renders for the same state. Also, in Node: the page's reader module decodes every kit bundle to the
// manifest the server's reader gives. Skips (saying why) when Chromium is not installed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readBundleManifest } from '../../../src/formats/furni-bundle.js';
import { decodePngSync } from '../../../src/imaging/png.js';
import { type RgbaImage } from '../../../src/imaging/image.js';
import { builtKitCorpus, rawRequest, withTestServer } from './http-helpers.js';
import { decodeApng } from '../../helpers/apng-decode.js';

const CHROMIUM = process.env.HOTEL_IMAGER_CHROMIUM ?? '/usr/bin/chromium';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
let tmp: { dir: string; cleanup: () => Promise<void> };
let corpus: string;
let listed: Record<string, unknown>;

before(async () => {
  ({ tmp, corpus, listed } = await builtKitCorpus('furni-player-'));
});
after(() => tmp.cleanup());

interface Reader {
  readBundle(bytes: Uint8Array): Promise<{ manifest: unknown; header: { version: number } }>;
}

test("the player's reader module (plain JavaScript) decodes every kit bundle to the manifest the server reads", async () => {
  const reader = (await import(pathToFileURL(join(repo, 'player', 'bundle-reader.js')).href)) as Reader;
  const bundles = Object.keys(listed).filter((k) => k.startsWith('hof_furni/'));
  assert.ok(bundles.length > 20);
  for (const k of bundles) {
    const bytes = await readFile(join(corpus, k));
    const mine = await reader.readBundle(new Uint8Array(bytes));
    assert.deepEqual(mine.manifest, JSON.parse(JSON.stringify(readBundleManifest(bytes, k).manifest)), k);
  }
  const broken = Buffer.from(await readFile(join(corpus, bundles[0]!)));
  broken[broken.length - 1] ^= 1;
  await assert.rejects(reader.readBundle(new Uint8Array(broken)), /CRC-32/);
});

/** Screenshot pixels (opaque, on the page's white) against an APNG frame drawn over white. */
function maxDifference(shot: RgbaImage, frame: RgbaImage): number {
  assert.deepEqual([shot.width, shot.height], [frame.width, frame.height], 'the sprite box is the APNG canvas');
  let max = 0;
  for (let i = 0; i < frame.data.length; i += 4) {
    const a = frame.data[i + 3]!;
    for (let c = 0; c < 3; c++) {
      const over = Math.round((frame.data[i + c]! * a + 255 * (255 - a)) / 255);
      max = Math.max(max, Math.abs(over - shot.data[i + c]!));
    }
  }
  return max;
}

test('headless Chromium plays the sprite sheet with CSS steps(): frames change where the item animates and match the APNG', {
  timeout: 120_000,
}, async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`no Chromium at ${CHROMIUM} (Debian package chromium; .ci/run installs it)`);
    return;
  }
  const { chromium } = await import('playwright-core');
  const shotsDir = process.env.HOTEL_IMAGER_PLAYER_SHOTS;
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: true }, async (srv) => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 600, height: 400 }, deviceScaleFactor: 1 });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const cases: { cn: string; state?: string; animates: boolean }[] = [
        { cn: 'kit_crate', animates: false },
        { cn: 'kit_lamp_state2', animates: false },
        { cn: 'kit_lamp_state2', state: '3', animates: true },
        { cn: 'kit_fan_tieframes', animates: true },
      ];
      for (const c of cases) {
        await page.goto(`${srv.url}/player/${c.cn}`);
        await page.waitForFunction('document.body.dataset.ready !== undefined');
        if (c.state !== undefined) {
          await page.selectOption('#state', c.state);
          await page.waitForFunction("document.body.dataset.ready?.startsWith('{')");
        }
        const expectedState =
          c.state ??
          String(
            readBundleManifest(
              await readFile(join(corpus, Object.keys(listed).find((k) => k.endsWith(`/${c.cn}.bundle`))!)),
            ).manifest.still.state,
          );
        const info = JSON.parse(
          ((await page.evaluate('document.body.dataset.ready')) as string | undefined) ?? 'null',
        ) as { state: number; direction: number; frames: number; width: number; height: number; loopMs: number };
        assert.ok(info, `${c.cn}: the page reports a sheet (${errors.join('; ')})`);
        assert.equal(
          String(info.state),
          expectedState,
          `${c.cn}: the page opens on the still's state (the on-state) unless one is picked`,
        );
        const apng = decodeApng(
          (await rawRequest(srv.port, 'GET', `/furni-renders/${c.cn}__st${info.state}_d${info.direction}.apng`)).body,
        );
        assert.equal(info.frames, apng.numFrames, `${c.cn}: the sheet has the APNG's frame count`);
        assert.equal(info.loopMs, apng.numFrames * 120, `${c.cn}: frameCount × 120 ms`);
        // Two points of the loop: the middle of frame 0 and of the last frame.
        const points = [0, apng.numFrames - 1];
        const shots: RgbaImage[] = [];
        for (const f of points) {
          // Paused at a time inside frame f: what steps() shows there.
          await page.evaluate(
            `(() => { const a = document.getElementById('sprite').getAnimations()[0]; a.pause(); a.currentTime = ${f * 120 + 60}; })()`,
          );
          const box = (await page.locator('#sprite').boundingBox())!;
          const png = await page.screenshot({
            clip: { x: Math.round(box.x), y: Math.round(box.y), width: info.width, height: info.height },
          });
          if (shotsDir) await writeFile(join(shotsDir, `${c.cn}${c.state ? `-st${c.state}` : ''}-f${f}.png`), png);
          const shot = decodePngSync(png);
          shots.push(shot);
          const diff = maxDifference(shot, apng.frames[f]!.image);
          assert.ok(
            diff <= 3,
            `${c.cn} frame ${f}: the screenshot matches the APNG frame (max channel difference ${diff})`,
          );
        }
        const same = Buffer.from(shots[0]!.data).equals(Buffer.from(shots[1]!.data));
        assert.equal(
          !same,
          c.animates,
          `${c.cn}${c.state ? ` state ${c.state}` : ''}: frames ${c.animates ? 'differ' : 'match'} across the loop`,
        );
      }
      assert.deepEqual(errors, []);
      // The page is served for a known classname only.
      assert.equal((await rawRequest(srv.port, 'GET', '/player/kit_nothing')).status, 404);
      const js = await rawRequest(srv.port, 'GET', '/player/bundle-reader.js');
      assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
    } finally {
      await browser.close();
    }
  });
});
