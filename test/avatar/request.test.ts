import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAction, normalizeGesture, wrapDirection, clampFrames } from '../../src/avatar/request.js';

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
