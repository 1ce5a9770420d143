// The bundle player page (`/player/<classname>`): a small static page that fetches the item's published
// bundle, decodes it in the browser with player/bundle-reader.js (the reference reader of
// docs/bundle-format.md) and plays a state with CSS steps() as contract F2.5 describes. The page's files
// live in the repository's player/ folder (plain browser JavaScript, no build step); this module serves
// them and fills the page with the bundle's URL, looked up in the corpus table.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FastifyInstance } from 'fastify';
import { decodeSegment } from '../../core/furni/asset-path.js';
import { type CorpusStore } from '../../core/furni/corpus-store.js';

/** player/ at the package root: three folders up from src/server/furni/ and from dist/server/furni/. */
export const PLAYER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../player');

const SCRIPTS: Record<string, string> = { 'bundle-reader.js': 'bundle-reader.js', 'player.js': 'player.js' };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class PlayerPage {
  private readonly template: string;
  private readonly scripts = new Map<string, Buffer>();

  constructor(
    private readonly store: CorpusStore,
    dir = PLAYER_DIR,
  ) {
    this.template = readFileSync(join(dir, 'index.html'), 'utf8');
    for (const [route, file] of Object.entries(SCRIPTS)) this.scripts.set(route, readFileSync(join(dir, file)));
  }

  /** The page for a base classname, or undefined when the corpus has no bundle for it. */
  page(rawName: string): string | undefined {
    const classname = decodeSegment(rawName);
    if (classname === undefined || /%2a/i.test(rawName)) return undefined;
    const base = classname.split('*')[0]!;
    const bundle = this.store.bundleOf(base);
    if (!bundle) return undefined;
    const bundleUrl = '/' + bundle.key.split('/').map(encodeURIComponent).join('/');
    return this.template
      .replaceAll('{{classname}}', escapeHtml(base))
      .replaceAll('{{bundleUrl}}', escapeHtml(bundleUrl));
  }

  register(app: FastifyInstance): void {
    const notFound = {
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=60',
    };
    app.get('/player/:name', (request, reply) => {
      const raw = (request.raw.url ?? '').split('?')[0]!.slice('/player/'.length);
      const script = this.scripts.get(raw);
      if (script) {
        // The scripts change with the service version: cached briefly, revalidated by nobody.
        reply
          .headers({
            'content-type': 'text/javascript; charset=utf-8',
            'cache-control': 'public, max-age=300',
            'access-control-allow-origin': '*',
            'x-content-type-options': 'nosniff',
          })
          .send(script);
        return;
      }
      const html = this.page(raw);
      if (html === undefined) {
        reply.code(404).headers(notFound).send('not found');
        return;
      }
      reply
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
        })
        .send(html);
    });
  }
}
