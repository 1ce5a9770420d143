// The /render debugging page: the composite and a table of every layer the renderer drew.
// Everything that came from the request is HTML-escaped.
import { CONTENT_TYPES, type AvatarRequest } from '../../avatar/index.js';
import { escapeHtml } from '../../http/respond.js';
import { type DebugAnswer } from '../../core/avatar/avatar-service.js';

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && Number.isInteger(value) && value > 0xffff) {
    return escapeHtml(`${value} (#${value.toString(16).padStart(6, '0')})`);
  }
  return escapeHtml(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

function layerTable(layers: unknown[]): string {
  const columns: string[] = [];
  for (const layer of layers) {
    if (layer && typeof layer === 'object') {
      for (const k of Object.keys(layer)) if (!columns.includes(k)) columns.push(k);
    }
  }
  const head = `<tr><th>#</th>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`;
  const rows = layers.map((layer, i) => {
    const rec = (layer && typeof layer === 'object' ? layer : { value: layer }) as Record<string, unknown>;
    return `<tr><td>${i}</td>${columns.map((c) => `<td>${cell(rec[c])}</td>`).join('')}</tr>`;
  });
  return `<table>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em;background:#f4f4f4;color:#222}
img{background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px;border:1px solid #999;
image-rendering:pixelated}
table{border-collapse:collapse;margin-top:1em;background:#fff}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;font-family:monospace}
.pair{display:flex;gap:2em;align-items:flex-end}.err{color:#a00}
pre{background:#fff;padding:.5em;border:1px solid #ccc;overflow:auto}`;

/** The renderer's request as JSON, its action as the canonical text (a Set has no JSON form). */
function requestJson(req: AvatarRequest): string {
  return JSON.stringify({ ...req, action: req.action.text }, null, 2);
}

export function renderDebugPage(answer: DebugAnswer, rawQuery: string): string {
  const q = escapeHtml(rawQuery);
  let body: string;
  if (answer.kind === 'bad-request') {
    body = `<p class="err">Bad request: ${escapeHtml(answer.reason)}</p>`;
  } else if (answer.kind === 'failed') {
    body =
      `<p class="err">Render failed (${escapeHtml(answer.reason)}): ${escapeHtml(answer.detail)}</p>` +
      (answer.req ? `<h2>Request</h2><pre>${escapeHtml(requestJson(answer.req))}</pre>` : '');
  } else {
    const { output, req } = answer;
    const type = CONTENT_TYPES[req.format ?? 'png'];
    const dataUri = `data:${type};base64,${output.body.toString('base64')}`;
    body =
      `<div class="pair">` +
      `<figure><img alt="this render" src="${dataUri}" width="${output.width}" height="${output.height}">` +
      `<figcaption>this render: ${output.width} × ${output.height}, ${output.frames} frame(s), ` +
      `${escapeHtml(type)}, ${output.body.length} bytes</figcaption></figure>` +
      `<figure><img alt="/avatar.png" src="avatar.png?${q}">` +
      `<figcaption><a href="avatar.png?${q}">/avatar.png?${q}</a></figcaption></figure></div>` +
      `<h2>Request</h2><pre>${escapeHtml(requestJson(req))}</pre>` +
      `<h2>Cache key</h2><p>SHA-256 <code>${escapeHtml(answer.key)}</code> of:</p>` +
      `<pre>${escapeHtml(answer.canonicalKey)}</pre>` +
      `<h2>Drawn layers (${output.layers.length}, in draw order)</h2>\n${layerTable(output.layers)}`;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>avatar render: ${q}</title><style>${STYLE}</style></head>
<body><h1>Avatar render</h1>
<p><code>?${q}</code></p>
${body}
</body></html>
`;
}
