// The room debug page (/render/room/<id>): the picture on a light and a dark background, then what the
// renderer reported: the heightmap and door, the decorations, every plane, the masks cut, each drawn item
// with its tile, state, direction, depth order and box, and what was skipped and why; what was read from
// the source (and whether the room had more rows than the bound), and the cache key. Everything that came
// from a request or the hotel's rows is HTML-escaped.
import { escapeHtml } from '../../http/respond.js';
import { type RoomAnswer, type RoomDebugAnswer } from '../../core/room/room-service.js';
import { canonicalOptions } from '../../core/room/params.js';
import { ROOM_PATH } from './paths.js';

const STYLE = [
  'body{font:14px system-ui,sans-serif;margin:1.5em;background:#f4f4f4;color:#222}',
  'img{image-rendering:pixelated;border:1px solid #999;max-width:100%}.light{background:#fff}.dark{background:#222}',
  'table{border-collapse:collapse;margin-top:1em;background:#fff}',
  'td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;font-family:monospace}',
  '.pair{display:flex;gap:1.5em;align-items:flex-end;flex-wrap:wrap}.err{color:#a00}',
  'pre{background:#fff;padding:.5em;border:1px solid #ccc;overflow:auto}',
].join('\n');

const headRow = (names: string[]) => `<thead><tr>${names.map((n) => `<th>${n}</th>`).join('')}</tr></thead>`;

const ITEM_COLUMNS = [
  'order',
  'kind',
  'id',
  'classname',
  'tile / wall position',
  'dir',
  'state',
  'colour',
  'footprint',
  'depth',
  'box',
  'layers drawn (bottom to top)',
];

const e = (v: unknown) => escapeHtml(String(v));

export function renderRoomDebugPage(
  answer: RoomDebugAnswer | Extract<RoomAnswer, { kind: 'text' }>,
  shown: string,
): string {
  let body: string;
  if (answer.kind === 'text') {
    body = `<p class="err">${answer.status}: ${e(answer.reason.trim())}</p>`;
  } else {
    const { picture, read, request } = answer;
    const r = picture.report;
    const url = `${ROOM_PATH}/${request.roomId}.png?${canonicalOptions(request).replace(/&[a-z]+=-/g, '')}`;
    const src = `data:image/png;base64,${answer.body.toString('base64')}`;
    const fig = (cls: string) =>
      `<figure><img class="${cls}" alt="room" src="${src}" width="${picture.width}" height="${picture.height}">` +
      `<figcaption>on ${cls}</figcaption></figure>`;
    const door = r.door
      ? `${r.door.x}, ${r.door.y} at ${r.door.z} (${r.door.wall === 'l' ? 'left' : 'right'})`
      : 'none';
    const bound: string[] = [];
    if (read.moreItems)
      bound.push(
        `the room has more than ${read.room.items.length} items: only the first ones (by id) were read and drawn`,
      );
    if (read.moreBots)
      bound.push(`the room has more than ${read.room.bots.length} bots: only the first ones were read`);
    const planes = r.planes.map(
      (p) => `<tr><td>${e(p.kind)}</td><td>${e(p.wall ?? '')}</td><td>${e(p.color)}</td><td>${p.count}</td></tr>`,
    );
    const items = [...r.items]
      .sort((a, b) => a.depthOrder - b.depthOrder)
      .map(
        (i) =>
          `<tr><td>${i.depthOrder}</td><td>${i.kind}</td><td>${i.id}</td><td>${e(i.classname)}</td>` +
          `<td>${i.kind === 'wall' ? e(i.wallPosition ?? '') : `${i.tile.x}, ${i.tile.y}, ${i.tile.z}`}</td>` +
          `<td>${i.direction}</td><td>${i.state}</td><td>${i.colorId ?? ''}</td>` +
          `<td>${i.footprint ? `${i.footprint.x}×${i.footprint.y}` : ''}</td><td>${e(i.depth)}</td>` +
          `<td>${i.box.x}, ${i.box.y} ${i.box.width}×${i.box.height}</td>` +
          `<td>${i.layers.map(e).join('<br>')}</td></tr>`,
      );
    const skipped = r.skipped.map((s) => `<li>${s.kind} ${s.id} ${e(s.classname)}: ${e(s.reason)}</li>`);
    const masks = r.masks.map(
      (m) => `<li>${e(m.id)}: ${m.pixelsCut} pixels cut${m.reason ? ` (${e(m.reason)})` : ''}</li>`,
    );
    body =
      `<div class="pair">${fig('light')}${fig('dark')}</div>` +
      `<p>${picture.width} × ${picture.height}, ${answer.body.length} bytes, size ${r.size} · ` +
      `<a href="${e(url)}">${e(url)}</a></p>` +
      (bound.length ? `<p class="err">${bound.map(e).join('<br>')}</p>` : '') +
      `<h2>Room</h2><pre>${e(
        [
          `source: ${answer.source}`,
          `heightmap: ${r.heightmap.width} × ${r.heightmap.height}, ${r.heightmap.tiles} tiles`,
          `door: ${door}`,
          `origin (centre of tile 0,0 at height 0): ${r.origin.x}, ${r.origin.y}`,
          `wall top: ${r.wallTop}; walls ${read.room.hideWalls ? 'hidden by the room' : 'shown'}`,
          `decorations: floor ${r.decorations.floor}, wall ${r.decorations.wall}, ` +
            `landscape ${r.decorations.landscape}`,
          `items read: ${read.room.items.length}, bots read: ${read.room.bots.length}`,
        ].join('\n'),
      )}</pre>` +
      `<h2>Planes (${r.planes.length})</h2>` +
      `<table>${headRow(['kind', 'wall', 'colour', 'count'])}<tbody>${planes.join('')}</tbody></table>` +
      (masks.length ? `<h2>Masks</h2><ul>${masks.join('')}</ul>` : '') +
      `<h2>Drawn (${r.items.length}, in depth order: 0 is drawn first)</h2>` +
      `<table>${headRow(ITEM_COLUMNS)}<tbody>\n${items.join('\n')}\n</tbody></table>` +
      (skipped.length
        ? `<h2>Skipped (${skipped.length})</h2><ul>${skipped.join('')}</ul>`
        : '<p>Nothing skipped.</p>') +
      `<h2>Cache key</h2><p>SHA-256 <code>${e(answer.key)}</code> of:</p><pre>${e(answer.canonicalKey)}</pre>` +
      `<p>Room assets identity <code>${e(answer.identity)}</code></p>`;
  }
  const title = escapeHtml(shown);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>room render: ${title}</title><style>${STYLE}</style></head>
<body><h1>Room render</h1>
<p><code>${title}</code></p>
${body}
</body></html>
`;
}
