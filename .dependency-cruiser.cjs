// The import rules of README.md ("Layout of the code"), checked on every `npm test` (scripts/test.mjs):
// no import circles in src/, and imports point down the layers.
const layer = (name, mayImport) => ({
  name: `layer-${name}`,
  comment: `src/${name}/ imports only ${mayImport.length ? mayImport.map((m) => m + '/').join(', ') : 'none of ours'} (README, Layout of the code)`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: '^src/', pathNot: [`^src/${name}/`, ...mayImport.map((m) => `^src/${m}/`)] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles in src/ (type-only imports count too: a circle of types is still a knot to untie).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    layer('util', []),
    layer('settings', []),
    layer('imaging', []),
    layer('formats', ['imaging', 'util']),
    layer('hotel', ['formats', 'imaging', 'util']),
    layer('furni', ['formats', 'imaging', 'hotel', 'util']),
    layer('avatar', ['formats', 'imaging', 'hotel', 'util']),
    layer('badge', ['formats', 'imaging', 'hotel', 'util']),
    layer('pet', ['furni', 'formats', 'imaging', 'hotel', 'util']),
    layer('room', ['avatar', 'furni', 'pet', 'formats', 'imaging', 'hotel', 'util']),
    // The furni build, and where a built corpus lives (read by the furni service core, written by publish).
    layer('corpus', ['formats', 'furni', 'hotel', 'imaging', 'util']),
    layer('storage', ['corpus', 'formats', 'util']),
    // What any service needs to speak HTTP: below the service core and the routes.
    layer('http', ['settings', 'util']),
    // The hotel's own database (the emulator's MySQL/MariaDB): the query catalogue and a pooled client.
    layer('database', ['settings', 'util']),
    // The service core (avatar service, badges, rooms, the furni corpus service): framework-free, below the routes.
    layer('core', [
      'avatar',
      'badge',
      'database',
      'formats',
      'furni',
      'hotel',
      'http',
      'imaging',
      'pet',
      'room',
      'settings',
      'storage',
      'util',
    ]),
    {
      name: 'core-framework-free',
      comment: 'The service core answers with plain values; only src/http/ and src/server/ know the HTTP framework.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: 'node_modules/(fastify|@fastify/)' },
    },
    {
      name: 'core-cache-below-services',
      comment:
        'src/core/cache/ (the cache tiers every image kind shares) imports no image kind of the core (README, Layout of the code).',
      severity: 'error',
      from: { path: '^src/core/cache/' },
      to: { path: '^src/core/', pathNot: '^src/core/cache/' },
    },
    {
      name: 'core-render-below-services',
      comment:
        'src/core/render/ (the render workers avatars and furni on demand share) imports no image kind of the core (README, Layout of the code).',
      severity: 'error',
      from: { path: '^src/core/render/' },
      to: { path: '^src/core/', pathNot: ['^src/core/render/', '^src/core/cache/'] },
    },
    {
      name: 'core-peers',
      comment:
        'The image kinds of the core (src/core/avatar/, src/core/badge/, …) are peers: none imports another; they share the cache tiers (src/core/cache/) and the render workers (src/core/render/) (README, Layout of the code).',
      severity: 'error',
      from: { path: '^src/core/([^/]+)/', pathNot: ['^src/core/cache/', '^src/core/render/'] },
      to: { path: '^src/core/([^/]+)/', pathNot: ['^src/core/$1/', '^src/core/cache/', '^src/core/render/'] },
    },
    {
      name: 'routes-apart',
      comment:
        "The routes of one service (src/server/avatar/, badge/, furni/) never import another's; shared answers live in src/http/ (README, Layout of the code).",
      severity: 'error',
      from: { path: '^src/server/([^/]+)/' },
      to: { path: '^src/server/([^/]+)/', pathNot: '^src/server/$1/' },
    },
    {
      name: 'facade-uses-the-core',
      comment: 'The library API (src/index.ts) calls the core, never the HTTP routes.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/server/' },
    },
    // convert/, samplekit/, server/ and cli/ sit on top; the top never imports cli/.
    {
      name: 'cli-on-top',
      comment: 'Only cli/ imports cli/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'tests-stay-out',
      comment: 'src/ never imports tests, benchmarks or scripts.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no compiler API for the cruiser to parse with: swc reads the sources (type imports included).
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
