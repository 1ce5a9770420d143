/** A file that cannot be read as the format it claims to be. Names the file and what is wrong. */
export class FormatError extends Error {
  constructor(
    readonly format: string,
    readonly file: string,
    readonly reason: string,
    readonly offset?: number,
  ) {
    super(`${format} ${file}: ${reason}${offset !== undefined ? ` (at byte ${offset})` : ''}`);
    this.name = 'FormatError';
  }
}
