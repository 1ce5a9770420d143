// Where a bucket corpus is and how to reach it: the s3:// address and the client settings shared by
// `publish` and `serve furni`. No SDK import here, so commands that never touch S3 do not load it.

export interface S3Settings {
  /** e.g. http://127.0.0.1:9000 for MinIO; absent for AWS itself. */
  endpoint?: string;
  /** Bucket in the path (http://host/bucket/key) instead of the host name; MinIO and Ceph want it. */
  forcePathStyle?: boolean;
  /** Overrides AWS_REGION / AWS_DEFAULT_REGION; us-east-1 when none is set. */
  region?: string;
  /** Explicit credentials (tests); otherwise the SDK's default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Milliseconds one S3 call may take, retries included. */
  timeoutMs?: number;
  /** Attempts per call (1 = no retry). */
  maxAttempts?: number;
}

export const DEFAULT_S3_TIMEOUT_MS = 5000;
export const DEFAULT_S3_MAX_ATTEMPTS = 3;

export interface S3Location {
  bucket: string;
  /** '' or a key prefix ending in '/'. */
  prefix: string;
}

/** s3://bucket or s3://bucket/some/prefix[/] → bucket and normalised prefix; a clear error otherwise. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error(`not an s3:// address: ${url} (expected s3://BUCKET/PREFIX)`);
  const bucket = m[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`not a valid bucket name: ${bucket}`);
  const raw = (m[2] ?? '').replace(/\/+$/, '');
  if (raw.split('/').some((s) => s === '' || s === '.' || s === '..') && raw !== '') {
    throw new Error(`prefix has an empty, . or .. segment: ${raw}`);
  }
  return { bucket, prefix: raw === '' ? '' : `${raw}/` };
}

export function isS3Url(s: string): boolean {
  return s.startsWith('s3://');
}

export function formatS3Url(loc: S3Location): string {
  return `s3://${loc.bucket}/${loc.prefix}`;
}
