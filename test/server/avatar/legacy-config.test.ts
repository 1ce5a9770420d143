// The pre-v18 figure list setting of `serve avatar`: none by default (gamedata/figuredata_oldschool.xml in
// the asset folder), HOTEL_IMAGER_AVATAR_LEGACY_FIGUREDATA, and the flag winning over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultAvatarConfig } from '../../../src/core/avatar/config.js';
import { avatarConfigFromFlags } from '../../../src/cli/serve-avatar.js';

test('legacy figure list: none by default, from HOTEL_IMAGER_AVATAR_LEGACY_FIGUREDATA, the flag wins', () => {
  assert.equal(defaultAvatarConfig().legacyFigureFile, undefined);
  assert.equal(avatarConfigFromFlags({}, {}).legacyFigureFile, undefined);
  const env = { HOTEL_IMAGER_AVATAR_LEGACY_FIGUREDATA: '/srv/old/figuredata_oldschool.xml' };
  assert.equal(avatarConfigFromFlags({}, env).legacyFigureFile, '/srv/old/figuredata_oldschool.xml');
  assert.equal(avatarConfigFromFlags({ legacyFiguredata: '/tmp/x.xml' }, env).legacyFigureFile, '/tmp/x.xml');
});
