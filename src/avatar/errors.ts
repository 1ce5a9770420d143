// Typed render failures. The HTTP service maps every one of them to its fallback redirect.
export type AvatarRenderErrorCode = 'unknown-set' | 'asset-load' | 'bad-figure' | 'gamedata' | 'no-parts';

export class AvatarRenderError extends Error {
  constructor(
    readonly code: AvatarRenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AvatarRenderError';
  }
}
