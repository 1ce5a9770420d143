// §4.1 parameter rules, §7.2 fallback Location, §8.1 cache keys: pure functions, every table row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAvatarQuery, type ParsedAvatarQuery } from '../../../src/core/avatar/params.js';
import { fallbackLocation } from '../../../src/core/avatar/fallback.js';
import { avatarCacheKey, canonicalAvatarKey } from '../../../src/core/avatar/cache-key.js';
import { parseFrameNum, parseImageFormat, settleLoop } from '../../../src/avatar/request.js';

function parse(q: string): ParsedAvatarQuery {
  const r = parseAvatarQuery(q);
  if (!r.ok) assert.fail(`expected ${q} to parse, got: ${r.reason}`);
  return r.query;
}

const FIG = 'hd-180-1.ch-210-66.lg-270-82';

test('figure wins over user; user alone identifies the avatar', () => {
  assert.deepEqual(parse(`figure=${FIG}&user=bob`).identity, { kind: 'figure', figure: FIG });
  assert.deepEqual(parse('user=bob').identity, { kind: 'user', name: 'bob' });
  // An empty figure does not count as one.
  assert.deepEqual(parse('figure=&user=bob').identity, { kind: 'user', name: 'bob' });
});

test('neither figure nor user: a reason that names the missing figure parameter', () => {
  for (const q of ['', 'direction=2', 'figure=', 'user=', 'user=%20']) {
    const r = parseAvatarQuery(q);
    assert.equal(r.ok, false, q);
    if (!r.ok) assert.match(r.reason, /missing.*figure/i);
  }
});

test('figure over 4 KiB is refused; exactly 4 KiB is accepted', () => {
  const part = 'hd-180-1.';
  const exact = part.repeat(Math.floor(4096 / part.length)).padEnd(4096, '1');
  assert.equal(Buffer.byteLength(exact), 4096);
  assert.equal(parseAvatarQuery(`figure=${exact}`).ok, true);
  const r = parseAvatarQuery(`figure=${exact}1`);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.reason, /4 KiB|4096/);
});

test('direction: default 2, wraps 9→1 and -1→7, non-numeric → 2', () => {
  const dir = (v: string | null): number =>
    parse(`figure=${FIG}` + (v === null ? '' : `&direction=${v}`)).pose.direction;
  assert.equal(dir(null), 2);
  for (let d = 0; d < 8; d++) assert.equal(dir(String(d)), d);
  assert.equal(dir('9'), 1);
  assert.equal(dir('-1'), 7);
  assert.equal(dir('8'), 0);
  assert.equal(dir('17'), 1);
  assert.equal(dir('-9'), 7);
  for (const bad of ['abc', '', '2.5', '0x3', 'NaN', '1e2']) assert.equal(dir(bad), 2, bad);
});

test('head_direction defaults to direction and wraps the same way', () => {
  const hd = (q: string): number => parse(`figure=${FIG}&${q}`).pose.headDirection;
  assert.equal(hd('direction=5'), 5);
  assert.equal(hd('x=1'), 2);
  assert.equal(hd('direction=4&head_direction=3'), 3);
  assert.equal(hd('direction=4&head_direction=9'), 1);
  assert.equal(hd('direction=4&head_direction=-1'), 7);
  assert.equal(hd('direction=4&head_direction=up'), 4);
  assert.equal(hd('direction=12&head_direction=zz'), 4);
});

test('size: absent → l, b → m, unknown → m', () => {
  const size = (v: string | null): string => parse(`figure=${FIG}` + (v === null ? '' : `&size=${v}`)).pose.size;
  assert.equal(size(null), 'l');
  assert.equal(size(''), 'l');
  assert.equal(size('s'), 's');
  assert.equal(size('m'), 'm');
  assert.equal(size('l'), 'l');
  assert.equal(size('b'), 'm');
  assert.equal(size('xl'), 'm');
  assert.equal(size('huge'), 'm');
});

test('booleans: 1/true/yes/on (any case) are true, everything else false', () => {
  for (const name of ['headonly', 'animated'] as const) {
    const get = (v: string | null): boolean => {
      const p = parse(`figure=${FIG}` + (v === null ? '' : `&${name}=${v}`)).pose;
      return name === 'headonly' ? p.headOnly : p.animated;
    };
    for (const t of ['1', 'true', 'yes', 'on', 'TRUE', 'On']) assert.equal(get(t), true, `${name}=${t}`);
    for (const f of [null, '0', 'false', 'no', 'off', '', '2', 'y', 'enabled'])
      assert.equal(get(f), false, `${name}=${f}`);
  }
});

test('frames: 1-24, above 24 clamps, 0/absent/junk → whole loop (0)', () => {
  const frames = (v: string | null): number =>
    parse(`figure=${FIG}&animated=1` + (v === null ? '' : `&frames=${v}`)).pose.frames;
  assert.equal(frames(null), 0);
  assert.equal(frames('0'), 0);
  assert.equal(frames('1'), 1);
  assert.equal(frames('24'), 24);
  assert.equal(frames('25'), 24);
  assert.equal(frames('1000'), 24);
  assert.equal(frames('-3'), 0);
  assert.equal(frames('two'), 0);
});

test('action and gesture are canonical; unknown parameters are ignored but kept for the key', () => {
  const q = parse(`figure=${FIG}&action=sit,wav,bogus&gesture=nor&cb=123`);
  assert.equal(q.pose.action.text, 'sit,wav');
  assert.equal(q.pose.gesture, 'std');
  assert.deepEqual(
    q.pairs.map(([n]) => n),
    ['action', 'cb', 'figure', 'gesture'],
  );
});

test('fallback Location: normalised values under the same names, no animated/frames', () => {
  const q = parse(
    `figure=${FIG}&direction=9&head_direction=-1&size=b&action=wave,sit,wav,carry=3&gesture=nor&headonly=yes&animated=1&frames=30&cb=1`,
  );
  const loc = fallbackLocation('https://upstream.example/habbo-imaging/avatarimage', {
    identity: q.identity,
    pose: q.pose,
  });
  const url = new URL(loc);
  assert.equal(url.origin + url.pathname, 'https://upstream.example/habbo-imaging/avatarimage');
  assert.deepEqual(
    [...url.searchParams],
    [
      ['figure', FIG],
      ['direction', '1'],
      ['head_direction', '7'],
      ['size', 'm'],
      ['action', 'sit,wav,crr=3'],
      ['gesture', 'std'],
      ['headonly', '1'],
    ],
  );
  assert.ok(!loc.includes('animated') && !loc.includes('frames') && !loc.includes('cb='));
});

test('fallback Location for a user keeps the name; a base with its own query is extended', () => {
  const q = parse('user=Some%20One&size=s');
  const loc = fallbackLocation('http://127.0.0.1:9/img?hotel=x', { identity: q.identity, pose: q.pose });
  const url = new URL(loc);
  assert.equal(url.searchParams.get('hotel'), 'x');
  assert.equal(url.searchParams.get('user'), 'Some One');
  assert.equal(url.searchParams.get('size'), 's');
  assert.equal(url.searchParams.get('figure'), null);
});

test('cache key: every parameter as sent plus the renderer version', () => {
  const key = (q: string, animates = false, version = 'r1'): string => {
    const p = parse(q);
    return avatarCacheKey({
      pairs: p.pairs,
      identity: p.identity,
      animates,
      rendererVersion: version,
      resolvedFigure: 'hd-1-1',
    });
  };
  const base = key(`figure=${FIG}&size=m`);
  assert.equal(key(`size=m&figure=${FIG}`), base, 'parameter order in the URL does not matter');
  assert.notEqual(key(`figure=lg-270-82.ch-210-66.hd-180-1&size=m`), base, 'reordered figure string');
  assert.notEqual(key(`figure=${FIG}&size=m&cb=1`), base, 'cache-buster');
  assert.notEqual(key(`figure=${FIG}&size=m&cb=2`), key(`figure=${FIG}&size=m&cb=1`), 'varied ignored parameter');
  assert.notEqual(key(`figure=${FIG}&size=b`), base, 'size=b as sent');
  assert.notEqual(key(`figure=${FIG}&size=m`, false, 'r2'), base, 'renderer version');
  // animated joins the key only for a pose that animates.
  assert.equal(key(`figure=${FIG}&size=m&animated=1&frames=3`, false), base);
  assert.notEqual(key(`figure=${FIG}&size=m&animated=1`, true), base);
  // A user request is keyed on the figure it resolved to.
  assert.equal(key('user=bob&size=m'), key('figure=hd-1-1&size=m'));
  assert.equal(key('size=m&user=ALICE'), key('figure=hd-1-1&size=m'));
});

test('img_format: gif in any case (trimmed) is GIF, everything else PNG; frame_num: integers only', () => {
  for (const v of ['gif', 'GIF', ' Gif ']) assert.equal(parseImageFormat(v), 'gif', v);
  for (const v of [undefined, '', 'png', 'jpg', 'gif89a', 'image/gif'])
    assert.equal(parseImageFormat(v), 'png', String(v));
  assert.equal(parse(`figure=${FIG}&img_format=gif`).pose.format, 'gif');
  assert.equal(parse(`figure=${FIG}`).pose.format, 'png');
  for (const [v, n] of [
    ['0', 0],
    ['7', 7],
    ['-1', -1],
    ['+3', 3],
    [' 12 ', 12],
  ] as const)
    assert.equal(parseFrameNum(v), n, v);
  for (const v of [undefined, '', 'x', '1.5', '1e3', '0x10', '1234567890123456'])
    assert.equal(parseFrameNum(v), undefined, String(v));
  assert.equal(parse(`figure=${FIG}&frame_num=3`).pose.frameNum, 3);
  assert.equal('frameNum' in parse(`figure=${FIG}&frame_num=z`).pose, false);
});

test('cache key: frame_num joins it only when the pose animates; img_format always; keys of URLs without them unchanged', () => {
  const key = (q: string, animates: boolean) => {
    const p = parse(q);
    return canonicalAvatarKey({ pairs: p.pairs, identity: p.identity, animates, rendererVersion: 'v' });
  };
  assert.equal(
    key(`figure=${FIG}&action=wav&animated=1&frames=2`, true),
    `v\naction=wav&animated=1&figure=${encodeURIComponent(FIG)}&frames=2&`,
  );
  assert.equal(
    key(`figure=${FIG}&action=sit&animated=1&frames=2`, false),
    `v\naction=sit&figure=${encodeURIComponent(FIG)}&`,
  );
  assert.equal(
    key(`figure=${FIG}&frame_num=3&img_format=gif`, false),
    `v\nfigure=${encodeURIComponent(FIG)}&img_format=gif&`,
  );
  assert.equal(
    key(`figure=${FIG}&frame_num=3&img_format=gif`, true),
    `v\nfigure=${encodeURIComponent(FIG)}&frame_num=3&img_format=gif&`,
  );
  assert.notEqual(key(`figure=${FIG}&img_format=gif`, false), key(`figure=${FIG}`, false));
});

test('fallback Location: img_format=gif and frame_num forwarded, PNG and an ignored frame_num not', () => {
  const loc = (q: string) => {
    const p = parse(q);
    return new URL(fallbackLocation('http://up/avatarimage', { identity: p.identity, pose: p.pose })).searchParams;
  };
  const gif = loc(`figure=${FIG}&img_format=GIF&frame_num=-2&animated=1&frames=3`);
  assert.equal(gif.get('img_format'), 'gif');
  assert.equal(gif.get('frame_num'), '-2');
  assert.equal(gif.get('animated'), null);
  assert.equal(gif.get('frames'), null);
  const png = loc(`figure=${FIG}&img_format=png&frame_num=x`);
  assert.equal(png.get('img_format'), null);
  assert.equal(png.get('frame_num'), null);
});

test('normalizeRequest: one meaning per parameter (dance from either spelling, GIF and frame_num show the loop)', () => {
  const pose = (q: string) => parse(`figure=${FIG}&${q}`).pose;
  assert.equal(pose('action=dance.2').dance, 2);
  assert.equal(pose('action=dance.2').action.text, 'dance.2');
  assert.equal(pose('dance=3&action=dance.2').dance, 3, 'dance= wins over the action token');
  assert.equal(pose('dance=9').dance, undefined);
  assert.equal(pose('action=dance').dance, undefined, 'the plain dance token is the still');
  assert.equal(pose('action=carry=3,wav,bogus').action.text, 'wav,crr=3');
  assert.equal(pose('img_format=gif').animated, true);
  assert.equal(pose('frame_num=1&frames=5').animated, true);
  assert.equal(pose('frame_num=1&frames=5').frames, 0, 'frame_num picks from the whole loop');
  assert.equal(pose('frames=99&animated=1').frames, 24);
  assert.equal(pose('img_format=gif&frames=3').frames, 3);
  // A pose whose loop has one frame is the still, whatever asked for the loop.
  const still = settleLoop({ figure: FIG, ...pose('img_format=gif&frame_num=2&animated=1&frames=4') }, 1);
  assert.deepEqual([still.animated, still.frames, 'frameNum' in still, still.format], [false, 0, false, 'gif']);
  const loop = settleLoop({ figure: FIG, ...pose('frame_num=2') }, 2);
  assert.deepEqual([loop.animated, loop.frameNum], [true, 2]);
});

test('fallback Location: a dance asked as action=dance.N is forwarded as dance=N too', () => {
  const q = parse(`figure=${FIG}&action=dance.2`);
  const url = new URL(fallbackLocation('http://up/avatarimage', { identity: q.identity, pose: q.pose }));
  assert.equal(url.searchParams.get('action'), 'dance.2');
  assert.equal(url.searchParams.get('dance'), '2');
});
