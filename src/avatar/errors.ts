// Typed render failures. The HTTP service maps every one of them to its fallback redirect.
// `asset-changed`: a library file changed after the hotel was loaded; the render can be done on the
// hotel loaded after the change.
/** Why a figure could not be drawn: AvatarRenderError's `code` (each one is described there). */
export type AvatarRenderErrorCode =
  | 'unknown-set'
  | 'asset-load'
  | 'asset-changed'
  | 'bad-figure'
  | 'gamedata'
  | 'no-parts'
  | 'nothing-visible';

/**
 * A figure the hotel cannot draw. `code` says why: `unknown-set` (a set id the figure data lacks),
 * `bad-figure` (not `type-set[-colour…]` parts), `asset-load` (no library has a worn set's sprites, or
 * one does not load), `asset-changed` (a library changed on disk after the hotel was read), `gamedata`,
 * `no-parts`, `nothing-visible` (an effect or hand item alone draws no pixel).
 *
 * @example
 * try {
 *   await imager.render({ figure: 'hd-99999999-1' });
 * } catch (err) {
 *   if (err instanceof AvatarRenderError) console.log(err.code); // "unknown-set"
 * }
 */
export class AvatarRenderError extends Error {
  /**
   * @param code - Why the figure cannot be drawn.
   * @param message - What failed, for people: the set, part or file concerned.
   */
  constructor(
    /** Why the figure cannot be drawn (the codes are listed on the class); stable, for code to branch on. */
    readonly code: AvatarRenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AvatarRenderError';
  }
}
