// The badge debug page (/render/badge/<code>, /render/badge?b=<code>): the badge at 1× and 4× on a light
// and a dark background, then every part the code names: its images, colour, cell and place, and what
// was skipped and why. Everything that came from the request is HTML-escaped.
import { BADGE_CONTENT_TYPES } from '../../badge/index.js';
import { escapeHtml } from '../../http/respond.js';
import { type BadgeDebugAnswer } from '../../core/badge/badge-service.js';
import { BADGE_PATH } from './paths.js';

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em;background:#f4f4f4;color:#222}
img{image-rendering:pixelated;border:1px solid #999}.light{background:#fff}.dark{background:#222}
table{border-collapse:collapse;margin-top:1em;background:#fff}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;font-family:monospace}
.pair{display:flex;gap:1.5em;align-items:flex-end}.err{color:#a00}
pre{background:#fff;padding:.5em;border:1px solid #ccc;overflow:auto}
.swatch{display:inline-block;width:1em;height:1em;border:1px solid #555;vertical-align:middle;margin-right:.3em}`;

const hex = (v: number) => `#${v.toString(16).padStart(6, '0')}`;

export function renderBadgeDebugPage(answer: BadgeDebugAnswer, shown: string): string {
  let body: string;
  if (answer.kind === 'text') {
    body = `<p class="err">${answer.status}: ${escapeHtml(answer.reason.trim())}</p>`;
  } else {
    const { plan, request } = answer;
    const type = BADGE_CONTENT_TYPES[request.format];
    const url = `${BADGE_PATH}/${encodeURIComponent(request.code)}.${request.format}`;
    let pictures = '<p class="err">Nothing drawn: no part of this code has an image.</p>';
    if (answer.body) {
      const src = `data:${type};base64,${answer.body.toString('base64')}`;
      const fig = (cls: string, scale: number) =>
        `<figure><img class="${cls}" alt="badge" src="${src}" width="${plan.width * scale}" ` +
        `height="${plan.height * scale}"><figcaption>${scale}× on ${cls}</figcaption></figure>`;
      pictures =
        `<div class="pair">${fig('light', 1)}${fig('dark', 1)}${fig('light', 4)}${fig('dark', 4)}</div>` +
        `<p>${plan.width} × ${plan.height}, ${escapeHtml(type)}, ${answer.body.length} bytes · ` +
        `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
    }
    const rows = plan.layers.map((l, i) => {
      const value =
        l.colorValue === undefined
          ? 'not in the table (drawn black, as the client does)'
          : escapeHtml(JSON.stringify(l.colorValue));
      const colour =
        l.tint === undefined
          ? 'untinted (drawn as it is)'
          : `<span class="swatch" style="background:${hex(l.tint)}"></span>${hex(l.tint)} from colour ${l.color} = ` +
            value;
      return (
        `<tr><td>${i}</td><td>${l.part}</td><td>${escapeHtml(l.code)}</td><td>${l.kind} ${l.id}</td>` +
        `<td>${escapeHtml(l.image)}</td><td>${l.width}×${l.height}</td><td>${colour}</td>` +
        `<td>${l.position} → cell (${l.cell[0]}, ${l.cell[1]})</td><td>${l.x}, ${l.y}</td></tr>`
      );
    });
    const parts = request.parts
      .map((p) => `${p.text}: ${p.kind} ${p.id}, colour ${p.color}, position ${p.position}`)
      .join('\n');
    body =
      pictures +
      `<h2>Parts</h2><pre>${escapeHtml(parts)}</pre>` +
      `<h2>Drawn images (${plan.layers.length}, in draw order)</h2>` +
      `<table><thead><tr><th>#</th><th>part</th><th>code</th><th>element</th><th>image</th><th>size</th>` +
      `<th>colour</th><th>position</th><th>x, y</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>` +
      (plan.skipped.length
        ? `<h2>Skipped</h2><ul>${plan.skipped.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`
        : '') +
      `<h2>Cache key</h2><p>SHA-256 <code>${escapeHtml(answer.key)}</code> of:</p>` +
      `<pre>${escapeHtml(answer.canonicalKey)}</pre>` +
      `<p>Badge data identity <code>${escapeHtml(answer.identity)}</code></p>`;
  }
  const title = escapeHtml(shown);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>badge render: ${title}</title><style>${STYLE}</style></head>
<body><h1>Badge render</h1>
<p><code>${title}</code></p>
${body}
</body></html>
`;
}
