// The library API (src/index.ts, the package's "exports"), on the sample kit: an avatar rendered through
// it is the service's /avatar.png answer byte for byte; buildCorpus is the build; readNitro reads the
// kit's .nitro files; a bundle read and written back is the same bytes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AvatarRenderError,
  buildCorpus,
  openAvatarImager,
  readBundle,
  readNitro,
  version,
  writeBundle,
} from '../src/index.js';
import { ensureSampleKit } from '../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../src/server/imager.js';
import { testAvatarConfig } from './server/avatar/fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
let scratch = '';
let kit = '';
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'api-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  svc = await startAvatarService(testAvatarConfig(kit, 'http://127.0.0.1:9'));
});
after(async () => {
  await svc.close();
  await rm(scratch, { recursive: true, force: true });
});

test('openAvatarImager: the bytes /avatar.png answers, for stills, APNG loops, GIF, frame_num and headonly', async () => {
  const imager = await openAvatarImager(kit);
  const cases: [Parameters<typeof imager.render>[0], string, string, number][] = [
    [{ figure: FIG, direction: 3, size: 'm' }, `figure=${FIG}&direction=3&size=m`, 'image/png', 1],
    [`figure=${FIG}&action=wav&animated=1`, `figure=${FIG}&action=wav&animated=1`, 'image/png', 2],
    [
      { figure: FIG, action: 'wav', img_format: 'gif', size: 's' },
      `figure=${FIG}&action=wav&img_format=gif&size=s`,
      'image/gif',
      2,
    ],
    [{ figure: FIG, action: 'wav', frame_num: 1 }, `figure=${FIG}&action=wav&frame_num=1`, 'image/png', 1],
    [{ figure: FIG, headonly: true, direction: 4 }, `figure=${FIG}&headonly=1&direction=4`, 'image/png', 1],
    [{ figure: FIG, animated: true }, `figure=${FIG}&animated=1`, 'image/png', 1],
  ];
  for (const [params, query, type, frames] of cases) {
    const image = await imager.render(params);
    const res = await fetch(`${svc.url}/avatar.png?${query}`);
    const served = Buffer.from(await res.arrayBuffer());
    assert.equal(res.status, 200, query);
    assert.equal(image.type, type, query);
    assert.equal(res.headers.get('content-type'), type, query);
    assert.equal(image.frames, frames, query);
    assert.equal(res.headers.get('x-imager-frames'), String(frames), query);
    assert.ok(image.data.equals(served), `${query}: the API's bytes are the service's`);
    assert.ok(image.width > 0 && image.height > 0);
  }
  await assert.rejects(imager.render({ figure: 'hd-99999999-1' }), AvatarRenderError);
  await assert.rejects(imager.render('user=Bob'), {
    name: 'TypeError',
    message: 'an avatar needs a figure (user names are looked up by the service, not here)',
  });
  // What the TSDoc of render promises, in the service's words for the same 400s.
  await assert.rejects(imager.render({ figure: '' }), {
    name: 'TypeError',
    message: 'missing required parameter: figure (a figure string such as hd-180-1.ch-210-66), or user (a username)',
  });
  await assert.rejects(imager.render({ figure: 'hd-180-1.'.repeat(456) }), {
    name: 'TypeError',
    message: 'the figure parameter is longer than 4096 bytes (4 KiB)',
  });
});

test('buildCorpus builds the kit; readNitro reads its .nitro files; a bundle round-trips byte for byte', async () => {
  const out = join(scratch, 'corpus');
  const seen: number[] = [];
  const result = await buildCorpus({ assets: kit, out, jobs: 1, onProgress: (p) => seen.push(p.done) });
  assert.equal(result.layout, 'nitro');
  assert.ok(result.built > 0 && result.renders > 0 && result.icons > 0 && result.bundles > 0, JSON.stringify(result));
  assert.ok(result.ok > 0);
  assert.equal(result.problems.length, result.failed + result.skipped);
  assert.equal(seen.at(-1), result.built);
  const corpus = JSON.parse(await readFile(join(out, 'corpus.json'), 'utf8')) as {
    counts: { renders: number; bundles: number };
  };
  assert.equal(corpus.counts.renders, result.renders);
  const again = await buildCorpus({ assets: kit, out, jobs: 1 });
  assert.equal(again.built, 0, 'an unchanged corpus is not rebuilt');

  const furni = join(kit, 'bundled', 'furniture');
  const name = (await readdir(furni)).find((n) => n.endsWith('.nitro'))!;
  const files = readNitro(await readFile(join(furni, name)), name);
  const classname = name.replace(/\.nitro$/, '');
  assert.ok(files.has(`${classname}.json`), [...files.keys()].join(', '));
  assert.equal((JSON.parse(files.get(`${classname}.json`)!.toString()) as { name: string }).name, classname);
  assert.throws(() => readNitro(Buffer.from('not a nitro file')), /nitro/i);

  const revisions = await readdir(join(out, 'hof_furni'));
  const bundleFile = join(out, 'hof_furni', revisions[0]!, (await readdir(join(out, 'hof_furni', revisions[0]!)))[0]!);
  const bytes = await readFile(bundleFile);
  const bundle = await readBundle(bytes, bundleFile);
  assert.ok(bundle.sprites.size > 0);
  assert.ok((await writeBundle(bundle)).equals(bytes), 'read and written back: the same bytes');
  bundle.manifest.still = { state: bundle.manifest.still.state, direction: (bundle.manifest.still.direction + 2) % 8 };
  const edited = await readBundle(await writeBundle(bundle));
  assert.deepEqual(edited.manifest.still, bundle.manifest.still);
  await assert.rejects(readBundle(Buffer.alloc(40)), /bundle/i);
});

test('version is the package version', async () => {
  assert.equal(
    version,
    (JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version,
  );
});
