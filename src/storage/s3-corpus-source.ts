// A corpus published to a bucket by `hotel-imager publish` (see bucket-layout.ts). corpus.json's version
// is its ETag, so a check for a new one is a conditional GET (304 when unchanged); listed files are read
// from their content-addressed objects. Every call is bounded by the client's timeout.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { corpusJsonKey, objectKey } from './bucket-layout.js';
import {
  AssetReadError,
  ManifestReadError,
  type CorpusSource,
  type ListedFile,
  type ManifestRead,
} from './corpus-source.js';
import { createS3Client, describeS3Error, httpStatusOf } from './s3-client.js';
import { DEFAULT_S3_TIMEOUT_MS, formatS3Url, parseS3Url, type S3Location, type S3Settings } from './s3-settings.js';

export class S3CorpusSource implements CorpusSource {
  readonly backend = 's3';
  readonly location: string;
  private readonly where: S3Location;
  private readonly client: S3Client;
  private readonly timeoutMs: number;

  constructor(
    url: string,
    private readonly settings: S3Settings = {},
  ) {
    this.where = parseS3Url(url);
    this.location = formatS3Url(this.where);
    this.client = createS3Client(settings);
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  }

  async readManifest(known: string | undefined): Promise<ManifestRead> {
    const key = corpusJsonKey(this.where.prefix);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.where.bucket,
          Key: key,
          ...(known !== undefined ? { IfNoneMatch: known } : {}),
        }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
      const bytes = Buffer.from(await res.Body!.transformToByteArray());
      return { changed: true, bytes, version: res.ETag ?? `unversioned-${Date.now()}` };
    } catch (e) {
      const status = httpStatusOf(e);
      if (status === 304) return { changed: false };
      if (status === 404)
        throw new ManifestReadError(
          `corpus.json cannot be read: not in the bucket (${this.location}corpus.json)`,
          false,
        );
      throw new ManifestReadError(`bucket unreachable: ${describeS3Error(e)}`, true);
    }
  }

  async readObject(file: ListedFile): Promise<Buffer> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.where.bucket, Key: objectKey(this.where.prefix, file.sha256) }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (e) {
      if (httpStatusOf(e) === 404)
        throw new AssetReadError(
          'missing',
          `${file.key}: listed in corpus.json but its object ${file.sha256} is not in the bucket`,
        );
      throw new AssetReadError('io', `${file.key}: bucket read failed: ${describeS3Error(e)}`);
    }
  }

  async probe(): Promise<string | undefined> {
    // Reading corpus.json (done by every health check) is the reachability check.
    return undefined;
  }

  describe(): Record<string, unknown> {
    return {
      bucket: this.where.bucket,
      prefix: this.where.prefix,
      ...(this.settings.endpoint !== undefined ? { endpoint: this.settings.endpoint } : {}),
    };
  }

  close(): void {
    this.client.destroy();
  }
}
