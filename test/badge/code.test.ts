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
  assert.match(reason('b0503Xs09114s05013s05015'), /Shockwave-era web badge format/);
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
