// The badge settings of `serve avatar`: flags win over environment variables, which win over the
// defaults (no table or parts folder named: look in the asset folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultAvatarConfig } from '../../../src/core/avatar/config.js';
import { avatarConfigFromFlags } from '../../../src/cli/serve-avatar.js';

test('badge settings: none by default, from HOTEL_IMAGER_AVATAR_BADGE_*, flags win', () => {
  const d = defaultAvatarConfig();
  assert.equal(d.badgeElementsFile, undefined);
  assert.equal(d.badgePartsDir, undefined);
  assert.equal(avatarConfigFromFlags({}, {}).badgeElementsFile, undefined);
  const env = {
    HOTEL_IMAGER_AVATAR_BADGE_ELEMENTS: '/srv/export/guilds_elements.csv',
    HOTEL_IMAGER_AVATAR_BADGE_PARTS: '/srv/c_images/Badgeparts',
  };
  const fromEnv = avatarConfigFromFlags({}, env);
  assert.equal(fromEnv.badgeElementsFile, '/srv/export/guilds_elements.csv');
  assert.equal(fromEnv.badgePartsDir, '/srv/c_images/Badgeparts');
  const flags = avatarConfigFromFlags({ badgeElements: '/tmp/t.json' }, env);
  assert.equal(flags.badgeElementsFile, '/tmp/t.json');
  assert.equal(flags.badgePartsDir, '/srv/c_images/Badgeparts');
});
