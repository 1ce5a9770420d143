// The S3 flags `publish` and `serve furni` share. Region and credentials are not flags: the SDK reads
// them from the standard AWS environment (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_PROFILE, …).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_S3_TIMEOUT_MS, type S3Settings } from '../storage/s3-settings.js';

export interface S3Flags {
  s3Endpoint?: string;
  s3ForcePathStyle?: boolean;
  s3Timeout: number;
}

function endpoint(v: string): string {
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('expected an http:// or https:// URL, e.g. http://127.0.0.1:9000');
  }
  return v;
}

function timeoutMs(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100) throw new InvalidArgumentError('expected milliseconds ≥ 100');
  return n;
}

/** A boolean flag's value ("--x" alone is true): 1/true/yes/on or 0/false/no/off, any case. */
export function flag(v: string): boolean {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off|)$/i.test(v)) return false;
  throw new InvalidArgumentError('expected true or false');
}

export function addS3Options(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--s3-endpoint <url>', 'S3-compatible endpoint (MinIO, R2, Ceph), e.g. http://127.0.0.1:9000; default: AWS')
        .env('HOTEL_IMAGER_S3_ENDPOINT')
        .argParser(endpoint),
    )
    .addOption(
      new Option('--s3-force-path-style [bool]', 'address the bucket in the path (http://host/bucket/key), as MinIO and Ceph want')
        .env('HOTEL_IMAGER_S3_FORCE_PATH_STYLE')
        .argParser(flag),
    )
    .addOption(
      new Option('--s3-timeout <ms>', 'time one S3 call may take, retries included')
        .env('HOTEL_IMAGER_S3_TIMEOUT_MS')
        .argParser(timeoutMs)
        .default(DEFAULT_S3_TIMEOUT_MS),
    );
}

export function s3Settings(o: S3Flags): S3Settings {
  return {
    ...(o.s3Endpoint !== undefined ? { endpoint: o.s3Endpoint } : {}),
    forcePathStyle: o.s3ForcePathStyle === true,
    timeoutMs: o.s3Timeout,
  };
}
