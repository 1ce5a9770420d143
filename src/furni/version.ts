// Bump when any rendering rule, output encoding or bundle layout changes: every item is rebuilt.
export const RENDERER_VERSION = 'furni-render-6';
