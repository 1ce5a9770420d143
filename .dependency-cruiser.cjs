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
    // corpus/, convert/, samplekit/, storage/, server/ and cli/ sit on top; the top never imports cli/.
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
