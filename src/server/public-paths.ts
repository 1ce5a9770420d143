// The paths the public reaches through a proxy in front of both services, and which service answers
// each: the one list the shipped nginx config (deploy/nginx/hotel-imager.conf) and docs/deployment.md's
// nginx block route by. test/deploy/nginx-routes.test.ts holds both to it, running them in nginx against
// both services and sending every example below. `/metrics` stays on each service's own port: it shows
// traffic and versions, and a scrape through a load balancer would reach a different instance each time.
import {
  AVATAR_ROUTE_PATHS,
  COMMA_AVATAR_PREFIX,
  EFFECT_PATH_PREFIX,
  HAND_ITEM_PATH_PREFIX,
} from './avatar/avatar-handler.js';
import { CONVERT_PATH } from './avatar/convert-handler.js';
import { BADGE_FILL_PATH, BADGE_PATH, BADGE_RENDER_PATH } from './badge/paths.js';
import { ROOM_PATH, ROOM_RENDER_PATH, THUMBNAIL_PATH } from './room/paths.js';
import { CHROMA_FURNI_PATH, VORTEX_FURNITURE_PATH } from './hotel-furni/furni-handler.js';

export type PublicService = 'avatar' | 'furni';

export interface PublicRoute {
  service: PublicService;
  /** An nginx location: `= /path` for one path, `/prefix/` for a folder, `/` for everything else. */
  location: string;
  /** Request targets this location must route there (what the nginx test sends). */
  examples: readonly string[];
}

const FIGURE = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80';
const BADGE = 'b03034s04094s02110s03118';

/** In nginx's order of precedence for the examples: exact locations, then the longest prefix. */
export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  { service: 'avatar', location: '= /avatar.png', examples: [`/avatar.png?figure=${FIGURE}`] },
  { service: 'avatar', location: '= /avatar', examples: [`/avatar?figure=${FIGURE}&size=s`] },
  {
    service: 'avatar',
    location: '/habbo-imaging/',
    examples: [
      // The classic imager's paths (the avatar route), then the group badge in each form it takes.
      ...AVATAR_ROUTE_PATHS.filter((p) => p.startsWith('/habbo-imaging/')).map((p) => `${p}?figure=${FIGURE}`),
      `${COMMA_AVATAR_PREFIX}${FIGURE},s-0.g-1.d-4.h-4.a-0,33c49f659a50a3d1b3505791a6f69334.gif`,
      `${CONVERT_PATH}?figure=1000118001270012900121001`,
      // An effect's own sprites and a held item, alone (vortex-imager's paths).
      `${EFFECT_PATH_PREFIX}1.png`,
      `${HAND_ITEM_PATH_PREFIX}1.png?drk=1`,
      `${BADGE_PATH}/${BADGE}.gif`,
      `${BADGE_PATH}/${BADGE}.png`,
      `${BADGE_PATH}/${BADGE}`,
      `${BADGE_PATH}/?b=${BADGE}`,
      `${BADGE_PATH}?b=${BADGE}`,
      `${BADGE_FILL_PATH}/${BADGE}.gif`,
      `${BADGE_PATH}/b0503Xs09114s05013s05015.gif`,
      // A room (the sample kit's demo room).
      `${ROOM_PATH}/1.png`,
      `${ROOM_PATH}/1.gif`,
      // Furni on demand: Chroma's query (Havana's CMS templates), vortex-imager's query and path form.
      `${CHROMA_FURNI_PATH}?sprite=kit_table_sd&direction=2&canvas=transparent`,
      `${CHROMA_FURNI_PATH}?sprite=kit_table_sd&direction=2&icon=1&canvas=transparent`,
      `${VORTEX_FURNITURE_PATH}?class=kit_table_sd&direction=4&size=l`,
      `${VORTEX_FURNITURE_PATH}/kit_table_sd.png`,
    ],
  },
  { service: 'avatar', location: '= /render', examples: [`/render?figure=${FIGURE}`] },
  {
    service: 'avatar',
    location: '/render/',
    examples: [`${BADGE_RENDER_PATH}/${BADGE}`, `${BADGE_RENDER_PATH}?b=${BADGE}`, `${ROOM_RENDER_PATH}/1`],
  },
  // The Nitro client's camera.url: room thumbnails for the navigator.
  { service: 'avatar', location: '/thumbnail/', examples: [`${THUMBNAIL_PATH}/1.png`] },
  {
    service: 'furni',
    location: '/',
    examples: [
      '/furni-renders/kit_table_sd.png',
      '/catalog-thumbs/kit_table_sd.png',
      '/hof_furni/1/kit_table_sd.bundle',
      '/player/kit_table_sd',
      '/healthz',
      '/version',
      '/',
    ],
  },
];

/** Paths the public proxy refuses (404 from the proxy itself): each service answers them on its own port. */
export const PRIVATE_PATHS: readonly string[] = ['/metrics'];

/**
 * The `location` lines of the proxy's server block, with the upstream names the shipped config uses
 * (`avatar`, `furni`). The config files carry exactly these lines; the proxy settings sit on the server.
 */
export function nginxLocations(): string[] {
  const width = Math.max(...PUBLIC_ROUTES.map((r) => r.location.length), ...PRIVATE_PATHS.map((p) => p.length + 2));
  const lines = PUBLIC_ROUTES.filter((r) => r.location !== '/').map(
    (r) => `location ${r.location.padEnd(width)} { proxy_pass http://${r.service}; }`,
  );
  for (const p of PRIVATE_PATHS) lines.push(`location ${`= ${p}`.padEnd(width)} { return 404; }`);
  const rest = PUBLIC_ROUTES.find((r) => r.location === '/')!;
  lines.push(`location ${'/'.padEnd(width)} { proxy_pass http://${rest.service}; }`);
  return lines;
}
