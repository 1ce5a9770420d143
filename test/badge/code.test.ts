// Badge codes: the client's slicing of short and long parts, t parts, the official hash, bad codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalParts, parseBadgeCode, type BadgeCodePart } from '../../src/badge/index.js';

function parts(code: string): [string, number, number, number][] {
  const r = parseBadgeCode(code);
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.parts.map((p: BadgeCodePart) => [p.kind, p.id, p.color, p.position]);
}

test('short form: letter, 2-digit id, 2-digit colour, position', () => {
  assert.deepEqual(parts('b05114'), [['base', 5, 11, 4]]);
  assert.deepEqual(parts('b27124s36124s05110'), [
    ['base', 27, 12, 4],
    ['symbol', 36, 12, 4],
    ['symbol', 5, 11, 0],
  ]);
});

test('long form (Arcturus, Nitro): 3-digit id, 2-digit colour, position', () => {
  assert.deepEqual(parts('b001034s211244'), [
    ['base', 1, 3, 4],
    ['symbol', 211, 24, 4],
  ]);
});

test('4 digits: the client reads a 3-digit id and a 1-digit colour, position 0', () => {
  assert.deepEqual(parts('b0511'), [['base', 51, 1, 0]]);
});

test('t parts are symbols 100 ids up, in either form; several bases are kept in order', () => {
  assert.deepEqual(parts('b01014t05114'), [
    ['base', 1, 1, 4],
    ['symbol', 105, 11, 4],
  ]);
  assert.deepEqual(parts('t054093'), [['symbol', 154, 9, 3]]);
  assert.deepEqual(parts('b01010b02023b03036'), [
    ['base', 1, 1, 0],
    ['base', 2, 2, 3],
    ['base', 3, 3, 6],
  ]);
});

test('the official 32-hex hash after the parts is dropped', () => {
  const r = parseBadgeCode('b27124s36124s05114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea');
  assert.ok(r.ok);
  assert.equal(r.hash, 'a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea');
  assert.deepEqual(
    r.parts.map((p) => p.text),
    ['b27124', 's36124', 's05114'],
  );
  // A code that is parts throughout is never cut, even when its last 32 characters could be hex.
  const all = 'b05114b05114b05114b05114b05114b05114';
  const whole = parseBadgeCode(all);
  assert.ok(whole.ok);
  assert.equal(whole.hash, undefined);
  assert.equal(whole.parts.length, 6);
});

test('what is not a badge code says why', () => {
  const reason = (code: string) => {
    const r = parseBadgeCode(code);
    assert.ok(!r.ok, `${code} should not parse`);
    return r.reason;
  };
  assert.match(reason(''), /is not a badge code: it is empty/);
  assert.match(reason('hello'), /does not start with a part/);
  assert.match(reason('b051'), /part "b051" has 3 digits; a part has 4 to 6/);
  assert.match(reason('s2112445'), /part "s2112445" has 7 digits/);
  assert.match(reason('B05114'), /does not start with a part/);
  assert.match(reason('b05114-s05114'), /after 1 part\(s\), "-s05114" is not a part/);
  assert.match(reason('b05X'), /part "b05X" is not a Shockwave-era part/);
  assert.match(reason('b0503Xs091145X'), /part "s091145X" is not a Shockwave-era part/);
  assert.match(reason('b0503X-s09114'), /after 1 part\(s\), "-s09114" is not a part/);
  // Hex that is not a whole 32-digit hash is no hash.
  assert.match(reason('b05114a8a35b3ed8'), /after 1 part\(s\), "a8a35b3ed8" is not a part/);
});

test('the canonical text is the same for every spelling of the same parts', () => {
  const canon = (code: string) => {
    const r = parseBadgeCode(code);
    assert.ok(r.ok);
    return canonicalParts(r.parts);
  };
  assert.equal(canon('b05114s10124'), canon('b005114s010124'));
  assert.equal(canon('t05114'), canon('s105114'));
  assert.notEqual(canon('b05114'), canon('s05114'));
  assert.notEqual(canon('b05114s10124'), canon('s10124b05114'));
});

test('a code with an X position is a Shockwave-era code, sliced as Badger reads it: 4 digits id(2) colour(2)', () => {
  const r = parseBadgeCode('b0503Xs09114s05013s05015');
  assert.ok(r.ok, r.ok ? '' : r.reason);
  assert.equal(r.layout, 'shockwave');
  assert.deepEqual(
    r.parts.map((p) => [p.kind, p.id, p.color, p.position]),
    [
      ['base', 5, 3, -1],
      ['symbol', 9, 11, 4],
      ['symbol', 5, 1, 3],
      ['symbol', 5, 1, 5],
    ],
  );
  // In such a code a bare 4-digit part is id(2) colour(2) too (the client form would read base 50, colour 3).
  const bare = parseBadgeCode('b0503Xb0712');
  assert.ok(bare.ok);
  assert.deepEqual(
    bare.parts.map((p) => [p.id, p.color, p.position]),
    [
      [5, 3, -1],
      [7, 12, -1],
    ],
  );
  // Every code without an X reads as before, in the client's layout.
  const client = parseBadgeCode('b0503s09114');
  assert.ok(client.ok);
  assert.equal(client.layout, 'client');
  assert.deepEqual(client.parts[0]!.id, 50);
  // The official hash after an old code is dropped as after any other.
  const hashed = parseBadgeCode('b0503Xs09114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea');
  assert.ok(hashed.ok);
  assert.equal(hashed.layout, 'shockwave');
  assert.equal(hashed.parts.length, 2);
});

test('a Shockwave-era code never shares a canonical text with a client code', () => {
  const a = parseBadgeCode('b0503Xs09114');
  const b = parseBadgeCode('b05030s09114');
  assert.ok(a.ok && b.ok);
  assert.equal(canonicalParts(a.parts, a.layout), 'shockwave:b5.3.-1;s9.11.4');
  assert.equal(canonicalParts(b.parts, b.layout), 'b5.3.0;s9.11.4');
});
