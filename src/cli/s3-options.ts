// The S3 flags `publish` and `serve furni` share. Region and credentials are not flags: the SDK reads
// them from the standard AWS environment (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_PROFILE, …).
import { DEFAULT_S3_TIMEOUT_MS, type S3Settings } from '../storage/s3-settings.js';
import { boolean, milliseconds, url } from '../settings/values.js';
import { option, type OptionValues } from './options.js';

export const S3_OPTIONS = {
  s3Endpoint: option({
    flag: '--s3-endpoint <url>',
    env: 'HOTEL_IMAGER_S3_ENDPOINT',
    help: 'S3-compatible endpoint (MinIO, R2, Ceph), e.g. http://127.0.0.1:9000',
    parse: url(),
    defaultText: 'AWS',
  }),
  // A value is optional so the variable can say false; the flag alone is true.
  s3ForcePathStyle: option({
    flag: '--s3-force-path-style [bool]',
    env: 'HOTEL_IMAGER_S3_FORCE_PATH_STYLE',
    help: 'address the bucket in the path (http://host/bucket/key), as MinIO and Ceph want',
    parse: boolean,
    default: false,
  }),
  s3Timeout: option({
    flag: '--s3-timeout <ms>',
    env: 'HOTEL_IMAGER_S3_TIMEOUT_MS',
    help: 'time one S3 call may take, retries included',
    parse: milliseconds(100),
    default: DEFAULT_S3_TIMEOUT_MS,
  }),
};

export type S3Flags = OptionValues<typeof S3_OPTIONS>;

export function s3Settings(o: S3Flags): S3Settings {
  return {
    ...(o.s3Endpoint !== undefined ? { endpoint: o.s3Endpoint } : {}),
    forcePathStyle: o.s3ForcePathStyle,
    timeoutMs: o.s3Timeout,
  };
}
