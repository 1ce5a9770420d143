// How a stored item row reads as the client reads it: the floor a floor-hole item cuts away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floorHole, furniState } from '../../src/room/items.js';

test('floor hole: state 0 of a furniture_floor_hole item cuts its logic size at its tile, unturned', () => {
  const dims = { x: 2, y: 3 };
  assert.deepEqual(floorHole('furniture_floor_hole', furniState('0', ''), { x: 4, y: 5 }, dims), {
    x: 4,
    y: 5,
    width: 2,
    height: 3,
  });
  // An empty extra_data is state 0 too (ObjectDataBase.state).
  assert.notEqual(floorHole('furniture_floor_hole', furniState('', ''), { x: 0, y: 0 }, dims), null);
  assert.equal(floorHole('furniture_floor_hole', 1, { x: 4, y: 5 }, dims), null);
  assert.equal(floorHole('furniture_multistate', 0, { x: 4, y: 5 }, dims), null);
});
