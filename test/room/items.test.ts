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

test('state: parseFloat of the legacy string for a floor item, truncated for a wall item', () => {
  assert.equal(furniState('1', ''), 1);
  assert.equal(furniState('1.5', ''), 1.5);
  assert.equal(furniState('1.5', '', 'wall'), 1);
  assert.equal(furniState('1e2', ''), 100);
  assert.equal(furniState('2,1,2,#FFFFFF,255', ''), 2);
  assert.equal(furniState('1:126:255:112', ''), 1);
  assert.equal(furniState('M:hd-180', ''), 0);
  assert.equal(furniState('{"state":"3","rarity":"7"}', ''), 3);
  assert.equal(furniState('', ''), 0);
  assert.equal(furniState('Infinity', ''), 0);
});

test('state: the logic type reads it: a dimmer is on − 1, a ball rests at 0, an ice storm keeps the thousands', () => {
  assert.equal(furniState('2,1,2,#FFFFFF,255', 'furniture_roomdimmer', 'wall'), 1);
  assert.equal(furniState('1,1,2,#FFFFFF,255', 'furniture_roomdimmer', 'wall'), 0);
  assert.equal(furniState('1', 'furniture_roomdimmer', 'wall'), 0);
  assert.equal(furniState('2,1,2,#FFFFFF,255', 'furniture_multistate'), 2);
  assert.equal(furniState('13', 'furniture_pushable'), 0);
  assert.equal(furniState('2500', 'furniture_es'), 2);
  assert.equal(furniState('1', 'furniture_es'), 0);
  assert.equal(furniState('123', 'furniture_score'), 123);
});
