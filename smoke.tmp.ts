import { startAvatarService } from './src/server/avatar/index.js';
import { defaultAvatarConfig } from './src/server/avatar/config.js';
const R = '/work/shared/realdata';
const inst = await startAvatarService({ ...defaultAvatarConfig(), host: '127.0.0.1', port: 0, workers: 1, assetsDir: R + '/nitro', badgeElementsFile: R + '/badge/guilds_elements.csv', logLevel: 'warn' });
for (const u of ['/habbo-imaging/badge/b27124s36124s05114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea.gif', '/habbo-imaging/badge/b27124s36124s05114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea.gif', '/habbo-imaging/badge/?b=b06114s211244', '/habbo-imaging/badge/b0511', '/habbo-imaging/badge/zzz', '/habbo-imaging/badge/b0503Xs09114s05013s05015.gif', '/render/badge/b06114s211244', '/habbo-imaging/badge/b05114.jpg', '/habbo-imaging/badge/' + 'b05114'.repeat(21)]) {
  const r = await fetch(inst.url + u);
  const body = Buffer.from(await r.arrayBuffer());
  console.log(u.slice(0, 80), r.status, r.headers.get('content-type'), r.headers.get('etag'), r.headers.get('x-imager-cache'), r.headers.get('cache-control'), body.length, r.status !== 200 ? body.toString().slice(0, 300) : '');
}
const o = await fetch(inst.url + '/habbo-imaging/badge/b05114', { method: 'OPTIONS' });
console.log('OPTIONS', o.status, [...o.headers].join(' | '));
const p = await fetch(inst.url + '/habbo-imaging/badge/b05114', { method: 'POST', body: 'x' });
console.log('POST', p.status, p.headers.get('allow'));
await inst.close();
