import { FormatError } from '../errors.js';

/** A SWF file that cannot be read: names the file and, where known, the byte offset of the problem. */
export class SwfFormatError extends FormatError {
  constructor(file: string, reason: string, offset?: number) {
    super('swf', file, reason, offset);
    this.name = 'SwfFormatError';
  }
}
