import { mkdtemp, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editSet, figureFile, mapLibrary, renumberedLibrary, writeWhole } from './test/helpers/hotel-edits.js';
const dir = await mkdtemp(join(tmpdir(), 'dbg-'));
await cp('/tmp/kit1', dir, { recursive: true });
const { startAvatarService } = await import('./src/server/avatar/index.js');
const { testAvatarConfig } = await import('./test/server/avatar-fixtures.js');
const s = await startAvatarService(testAvatarConfig(dir, 'http://127.0.0.1:9', { reloadIntervalMs: 100, clientRatePerSecond: 0, logLevel: 'info' }));
const NEW = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40.ha-9090-62';
console.log((await fetch(s.url + `/avatar.png?figure=${NEW}&size=m`, { redirect: 'manual' })).status);
await writeWhole(figureFile(dir, 'hat_U_kitnew'), await renumberedLibrary(dir, 'hat_U_kitcap', 'hat_U_kitnew', { 'ha:5001': 5090 }));
await mapLibrary(dir, 'hat_U_kitnew', [{ id: 5090, type: 'ha' }]);
await editSet(dir, 'ha', 9090, { gender: 'U', club: 0, colorable: true, selectable: true, parts: [{ id: 5090, type: 'ha', colorable: true, index: 0, colorindex: 1 }] });
for (let i = 0; i < 100; i++) {
  const r = await fetch(s.url + `/avatar.png?figure=${NEW}&size=m`, { redirect: 'manual' });
  await r.arrayBuffer();
  if (r.status === 200) { console.log('200 after', i); break; }
  await new Promise((r) => setTimeout(r, 50));
}
const h = await fetch(s.url + '/healthz');
console.log(h.status, await h.text());
await s.close();
console.log('closed');
