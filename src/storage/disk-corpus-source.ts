// A corpus in a local folder, as `hotel-imager build` writes it. corpus.json's version is its stat
// signature, so an unchanged file costs one stat per check; listed files are read only from inside the
// folder (a symlink pointing out of it is refused).
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import {
  AssetReadError,
  ManifestReadError,
  type CorpusSource,
  type ListedFile,
  type ManifestRead,
} from './corpus-source.js';
import { CORPUS_JSON } from '../formats/corpus-json.js';

export class DiskCorpusSource implements CorpusSource {
  readonly backend = 'disk';
  readonly location: string;
  private realRoot = '';

  constructor(dir: string) {
    this.location = resolve(dir);
  }

  async readManifest(known: string | undefined): Promise<ManifestRead> {
    const file = join(this.location, CORPUS_JSON);
    let version: string;
    try {
      const st = await stat(file);
      version = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (e) {
      throw new ManifestReadError(
        `corpus.json cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        false,
      );
    }
    if (version === known) return { changed: false };
    try {
      const [bytes, realRoot] = await Promise.all([readFile(file), realpath(this.location)]);
      this.realRoot = realRoot;
      return { changed: true, bytes, version };
    } catch (e) {
      throw new ManifestReadError(
        `corpus.json cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        false,
      );
    }
  }

  async readObject(file: ListedFile): Promise<Buffer> {
    const path = join(this.location, ...file.key.split('/'));
    let real: string;
    try {
      real = await realpath(path);
    } catch (e) {
      throw new AssetReadError(
        'missing',
        `${file.key}: listed in corpus.json but ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      );
    }
    // A symlink may point anywhere; only bytes that really live in the corpus are served.
    if (!real.startsWith(this.realRoot + sep)) {
      throw new AssetReadError('outside', `${file.key}: resolves outside the corpus (${real})`);
    }
    try {
      return await readFile(real);
    } catch (e) {
      throw new AssetReadError('io', `${file.key}: ${(e as Error).message}`);
    }
  }

  async probe(): Promise<string | undefined> {
    try {
      await access(this.location, constants.R_OK | constants.X_OK);
      return undefined;
    } catch (e) {
      return `corpus folder is not readable: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
  }

  describe(): Record<string, unknown> {
    return { dir: this.location };
  }

  close(): void {}
}
