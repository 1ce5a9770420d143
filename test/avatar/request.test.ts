import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  clampFrames,
  handItemAction,
  normalizeAction,
  normalizeGesture,
  normalizeRequest,
  parseAction,
  parseGender,
  usesExtras,
  withoutToken,
  withPart,
  wrapDirection,
} from '../../src/avatar/request.js';

test('normalizeAction: canonical order, aliases, unknown and bad tokens dropped, std when empty', () => {
  const cases: [string, string][] = [
    ['', 'std'],
    ['std', 'std'],
    ['wav,sit', 'sit,wav'],
    ['SIT, Wav ,wav', 'sit,wav'],
    ['crr=2,sit,wav', 'sit,wav,crr=2'],
    ['carry=5', 'crr=5'],
    ['use=3', 'drk=3'],
    ['sign=11', 'sig=11'],
    ['crr=abc', 'std'],
    ['crr=-1', 'std'],
    ['crr=123456', 'std'],
    ['crr', 'std'],
    ['crr=1,crr=2', 'crr=1'],
    ['foo,bar', 'std'],
    ['lay,spk,respect,blow,laugh,dance,sleep,wlk', 'lay,wlk,respect,blow,laugh,dance,spk,sleep'],
  ];
  for (const [raw, want] of cases) assert.equal(normalizeAction(raw), want, raw);
});

test('normalizeGesture: the seven gestures, nor and unknown → std', () => {
  for (const g of ['std', 'sml', 'sad', 'agr', 'srp', 'spk', 'eyb']) assert.equal(normalizeGesture(g), g);
  assert.equal(normalizeGesture('SML'), 'sml');
  for (const g of ['nor', '', 'xyz', 'wav']) assert.equal(normalizeGesture(g), 'std');
});

test('directions wrap, frames clamp', () => {
  assert.deepEqual(
    [9, -1, 7, 8, 16, -9].map((d) => wrapDirection(d)),
    [1, 7, 7, 0, 0, 7],
  );
  assert.equal(wrapDirection(Number.NaN), 2);
  assert.deepEqual([0, -3, 1, 24, 25, 100].map(clampFrames), [0, 0, 1, 24, 24, 24]);
});

test('parseAction: the structured action the plan and render inputs read, its canonical text beside it', () => {
  const a = parseAction('Carry=6, sit,WAV,dance.2,bogus,wav');
  assert.deepEqual([...a.plain].sort(), ['sit', 'wav']);
  assert.deepEqual([...a.items], [['crr', 6]]);
  assert.equal(a.dance, 2);
  assert.equal(a.text, 'sit,wav,crr=6,dance.2');
  const none = parseAction('');
  assert.deepEqual([none.plain.size, none.items.size, none.dance, none.text], [0, 0, undefined, 'std']);
  // normalizeRequest passes the parsed action on as it is; `dance=` wins over the token for the pose's dance.
  const pose = normalizeRequest(
    new Map([
      ['action', 'dance.2,crr=6,sit,wav'],
      ['dance', '3'],
    ]),
  );
  assert.equal(pose.action.text, 'sit,wav,crr=6,dance.2');
  assert.deepEqual([...pose.action.items], [['crr', 6]]);
  assert.equal(pose.dance, 3);
});

test('withoutToken: the head-only crop drops lay and keeps the rest; an action without the token is returned as it is', () => {
  assert.equal(withoutToken(parseAction('lay,spk,crr=1'), 'lay').text, 'crr=1,spk');
  assert.equal(withoutToken(parseAction('lay'), 'lay').text, 'std');
  const sit = parseAction('sit,wav');
  assert.equal(withoutToken(sit, 'lay'), sit);
  assert.deepEqual([...sit.plain].sort(), ['sit', 'wav'], 'the original is not changed');
});

test('src/ parses action text in one place: normalizeRequest (and normalizeAction, its text for callers)', () => {
  const calls: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\bparseAction\(/.test(line) && !/function parseAction\(/.test(line)) calls.push(`${p}:${i + 1}`);
          });
      }
    }
  };
  const src = join(import.meta.dirname, '..', '..', 'src');
  walk(src);
  const file = join(src, 'avatar', 'request.ts');
  const text = readFileSync(file, 'utf8').split('\n');
  const where = (needle: string) => `${file}:${text.findIndex((l) => l.includes(needle)) + 1}`;
  // The room's bots are the one other edge: their posture and dance come from the rows, not a query.
  const room = join(src, 'room', 'objects', 'avatar.ts');
  const roomText = readFileSync(room, 'utf8').split('\n');
  const roomCall = `${room}:${roomText.findIndex((l) => l.includes('action: parseAction(p.posture')) + 1}`;
  assert.deepEqual(
    calls.sort(),
    [
      where('return parseAction(raw).text;'),
      where("const action = parseAction(query.get('action') ?? '');"),
      roomCall,
    ].sort(),
  );
});

test('gender: M or F, trimmed, any case; anything else leaves the figure its own', () => {
  assert.deepEqual(['M', 'f', ' F ', 'm'].map(parseGender), ['M', 'F', 'F', 'M']);
  for (const g of [undefined, '', 'U', 'male', 'MF', '1']) assert.equal(parseGender(g), undefined, String(g));
});

test('normalizeRequest: the extra parameters join the request only when they change something', () => {
  const plain = normalizeRequest(new Map([['size', 'm']]));
  const same = normalizeRequest(
    new Map([
      ['size', 'm'],
      ['crop', '0'],
      ['bg', 'nope'],
      ['zoom', '1'],
      ['gender', 'x'],
    ]),
  );
  assert.deepEqual(same, plain);
  assert.equal(usesExtras(plain), false);
  const asked = normalizeRequest(
    new Map([
      ['crop', 'true'],
      ['bg', '#00ff00'],
      ['zoom', '9'],
      ['gender', 'f'],
    ]),
  );
  assert.deepEqual(
    [asked.crop, asked.background, asked.zoom, asked.gender, asked.part],
    [true, { rgb: 0x00ff00, alpha: 255 }, 4, 'F', undefined],
  );
  assert.equal(usesExtras(asked), true);
  assert.equal(withPart(plain, 'effect').part, 'effect');
  assert.equal(plain.part, undefined, 'withPart does not change the pose it is given');
  // No query parameter selects a kind of layer: only the effect and hand-item paths do.
  assert.equal(normalizeRequest(new Map([['part', 'effect']])).part, undefined);
});

test("handItemAction: vortex-imager's hand-item path: carry, or drink with drk=1, its item first", () => {
  assert.equal(handItemAction('7', false, undefined), 'crr=7');
  assert.equal(handItemAction('7', true, ''), 'drk=7');
  assert.equal(parseAction(handItemAction('7', false, 'sit,crr=3')).text, 'sit,crr=7');
  assert.equal(parseAction(handItemAction('12', true, 'wav')).text, 'drk=12,wav');
});
