// One S3 client setup for `publish` and `serve furni`: region and credentials from the standard AWS
// environment (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, …, read by the SDK's
// default chain), an endpoint and path-style addressing for S3-compatible stores (MinIO, R2, Ceph), and
// bounded time per request: a store that is down or hangs costs at most `timeoutMs`, never a hang.
import { S3Client } from '@aws-sdk/client-s3';
import { DEFAULT_S3_MAX_ATTEMPTS, DEFAULT_S3_TIMEOUT_MS, type S3Settings } from './s3-settings.js';

export function createS3Client(settings: S3Settings = {}): S3Client {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  return new S3Client({
    region: settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(settings.endpoint !== undefined ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle ?? false,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    maxAttempts: settings.maxAttempts ?? DEFAULT_S3_MAX_ATTEMPTS,
    // Per attempt: a refused or reset connection fails fast and is retried; a silent one is cut off.
    requestHandler: { connectionTimeout: Math.min(timeoutMs, 2000), requestTimeout: timeoutMs },
  });
}

/** The HTTP status of an SDK error (304 and 404 arrive as errors), or undefined for a network failure. */
export function httpStatusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/** A short reason for logs and /healthz: the S3 error code, or the network error's code or message. */
export function describeS3Error(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return 'timed out';
  const code = e.code ?? (e.name && e.name !== 'Error' && e.name !== 'Unknown' ? e.name : undefined);
  const text = [code, e.message && e.message !== code && e.message !== 'UnknownError' ? e.message : undefined]
    .filter(Boolean)
    .join(': ');
  return status ? `HTTP ${status}${text ? ` ${text}` : ''}` : text || String(err);
}
