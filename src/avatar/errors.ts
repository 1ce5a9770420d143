// Typed render failures. The HTTP service maps every one of them to its fallback redirect.
// `asset-changed`: a library file changed after the hotel was loaded; the render can be done on the
// hotel loaded after the change.
export type AvatarRenderErrorCode = 'unknown-set' | 'asset-load' | 'asset-changed' | 'bad-figure' | 'gamedata' | 'no-parts';

export class AvatarRenderError extends Error {
  constructor(
    readonly code: AvatarRenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AvatarRenderError';
  }
}
