// `hotel-imager publish`: a built corpus folder → a bucket, laid out as bucket-layout.ts says.
//
// Order, so a reader of the bucket (the furni service) never holds a corpus.json naming bytes that are
// not there:
//   1. every file content the new corpus.json lists and the bucket lacks is uploaded to objects/<sha256>
//      (content-addressed: nothing a reader may still use is overwritten);
//   2. a copy of the new corpus.json goes to manifests/ (the retention record), then corpus.json itself
//      (one PUT: readers see the old table or the new one, never a mix);
//   3. only then objects no retained corpus.json lists are deleted. Retained: the new corpus.json, the
//      `keepPrevious` ones before it, and every one that was current within the last `graceMs` — a
//      reader that loaded it and has not polled since still finds all its bytes. Objects uploaded within
//      `graceMs` are not deleted either (another publish may be uploading them right now).
// Incremental: the bucket is listed once and only contents it does not hold are uploaded. A publish
// killed at any point leaves the served corpus.json and everything it lists intact; the next publish
// finds the objects already uploaded and sends only the rest.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  contentTypeForPath,
  CORPUS_JSON_CACHE_CONTROL,
  corpusJsonKey,
  manifestKey,
  manifestPublishedAt,
  MANIFESTS_DIR,
  OBJECT_CACHE_CONTROL,
  objectKey,
  objectSha256,
  OBJECTS_DIR,
} from './bucket-layout.js';
import { DEFAULT_GRACE_MS, DEFAULT_KEEP_PREVIOUS, DEFAULT_PUBLISH_CONCURRENCY } from './publish-settings.js';
import { createS3Client, describeS3Error, httpStatusOf } from './s3-client.js';
import { formatS3Url, parseS3Url, type S3Location, type S3Settings } from './s3-settings.js';
import { sha256Hex } from '../util/hash.js';
import { CORPUS_JSON, parseCorpusJson, type CorpusDoc } from '../formats/corpus-json.js';
import { publishedStills, shrinkProblem, ShrinkError } from '../corpus/shrink.js';
import { explainFsError } from '../util/fs-error.js';

/** Objects above this size go up as a multipart upload (@aws-sdk/lib-storage), in parts of this size. */
export const MULTIPART_THRESHOLD = 8 * 1024 * 1024;

export interface PublishOptions {
  /** Local corpus folder (written by `hotel-imager build`). */
  corpus: string;
  /** s3://BUCKET/PREFIX */
  to: string;
  s3?: S3Settings;
  /** Uploads in flight at once. */
  concurrency?: number;
  /** Previous corpus.json documents whose objects are kept, however old. */
  keepPrevious?: number;
  /** How long a replaced corpus.json's objects stay after it stopped being current. */
  graceMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: PublishProgress) => void;
  /** The clock (tests). */
  now?: () => Date;
  /** Publish even when the bucket would lose more than SHRINK_LIMIT of its stills (items removed on purpose). */
  allowShrink?: boolean;
  /** A client to use instead of one built from `s3` (tests count its requests). */
  client?: S3Client;
}

export interface PublishProgress {
  /** Objects uploaded so far / to upload in this run. */
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
}

export interface PublishSummary {
  location: string;
  /** Files corpus.json lists / distinct contents among them. */
  files: number;
  objects: number;
  /** Contents the bucket's previous corpus.json already listed (not uploaded again). */
  unchanged: number;
  /** Contents found in the bucket although its corpus.json did not list them (an interrupted publish). */
  resumed: number;
  uploaded: number;
  uploadedBytes: number;
  /** False when the bucket's corpus.json was already byte-identical. */
  corpusJsonWritten: boolean;
  deletedObjects: number;
  deletedManifests: number;
  retainedManifests: number;
}

export class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublishError';
  }
}

interface Listed {
  size: number;
  sha256: string;
}

interface LocalCorpus {
  bytes: Buffer;
  sha256: string;
  files: Map<string, Listed>;
}

export async function publishCorpus(opts: PublishOptions): Promise<PublishSummary> {
  const dir = resolve(opts.corpus);
  const where = parseS3Url(opts.to);
  const location = formatS3Url(where);
  const local = await readLocalCorpus(dir);
  const client = opts.client ?? createS3Client(opts.s3);
  const now = opts.now ?? (() => new Date());
  const graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
  try {
    const ctx: Ctx = { client, where, location, signal: opts.signal };
    const previous = await readBucketCorpus(ctx);
    // The build's guard, again for the bucket: a folder holding part of a corpus does not empty it.
    if (previous && !opts.allowShrink) {
      const served = publishedStills(previous.paths);
      const kept = publishedStills(local.files.keys());
      const problem = shrinkProblem(
        served.size,
        [...served].filter((cn) => !kept.has(cn)),
      );
      if (problem) {
        throw new ShrinkError(
          `publish stopped, nothing in ${location} was changed: ${problem}. ` +
            `Is ${dir} the whole corpus (a build that stopped part way, another folder)? ` +
            `If these items were removed on purpose, publish with --allow-shrink ` +
            `(HOTEL_IMAGER_PUBLISH_ALLOW_SHRINK=1).`,
        );
      }
    }
    const present = await listObjects(ctx);

    // Distinct contents, each with the first path that holds it (for its type and to read it from).
    const contents = new Map<string, { path: string; size: number }>();
    for (const [path, f] of local.files) if (!contents.has(f.sha256)) contents.set(f.sha256, { path, size: f.size });
    const missing: [string, { path: string; size: number }][] = [];
    let unchanged = 0;
    let resumed = 0;
    for (const [sha, c] of contents) {
      const there = present.get(sha);
      if (there && there.size === c.size) {
        if (previous?.shas.has(sha)) unchanged++;
        else resumed++;
      } else missing.push([sha, c]);
    }

    const totalBytes = missing.reduce((n, [, c]) => n + c.size, 0);
    const progress: PublishProgress = { done: 0, total: missing.length, bytes: 0, totalBytes };
    opts.onProgress?.({ ...progress });
    await runPool(missing, opts.concurrency ?? DEFAULT_PUBLISH_CONCURRENCY, opts.signal, async ([sha, c]) => {
      await uploadObject(ctx, dir, sha, c.path, c.size);
      progress.done++;
      progress.bytes += c.size;
      opts.onProgress?.({ ...progress });
    });

    // corpus.json last; a rerun over an identical corpus writes nothing.
    const publishedAt = now();
    const corpusJsonWritten = previous?.sha256 !== local.sha256;
    if (corpusJsonWritten) {
      checkAborted(opts.signal);
      await putSmall(
        ctx,
        manifestKey(where.prefix, publishedAt, local.sha256),
        local.bytes,
        'application/json',
        OBJECT_CACHE_CONTROL,
      );
      checkAborted(opts.signal);
      await putSmall(ctx, corpusJsonKey(where.prefix), local.bytes, 'application/json', CORPUS_JSON_CACHE_CONTROL);
    }

    const swept = await sweep(ctx, {
      now: publishedAt,
      graceMs,
      keepPrevious: opts.keepPrevious ?? DEFAULT_KEEP_PREVIOUS,
      present,
      // Whatever happens to the retention record, the two documents of this publish keep their objects.
      alwaysKeep: new Set([...contents.keys(), ...(previous?.shas ?? [])]),
    });
    return {
      location,
      files: local.files.size,
      objects: contents.size,
      unchanged,
      resumed,
      uploaded: progress.done,
      uploadedBytes: progress.bytes,
      corpusJsonWritten,
      ...swept,
    };
  } finally {
    if (!opts.client) client.destroy();
  }
}

interface Ctx {
  client: S3Client;
  where: S3Location;
  location: string;
  signal: AbortSignal | undefined;
}

/** corpus.json of the folder, checked enough to publish: format 1 and a size and sha256 per safe path. */
async function readLocalCorpus(dir: string): Promise<LocalCorpus> {
  const file = join(dir, CORPUS_JSON);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new PublishError(
        `no ${CORPUS_JSON} in ${dir} (--corpus): build the corpus there first (hotel-imager build --out ${dir}), or ` +
          `check the path`,
      );
    throw explainFsError(e, [
      { folder: dir, what: 'the corpus folder', flag: '--corpus', env: 'HOTEL_IMAGER_PUBLISH_CORPUS' },
    ]);
  }
  const files = listedFiles(bytes, file);
  return { bytes, sha256: sha256Hex(bytes), files };
}

function listedFiles(bytes: Buffer, name: string): Map<string, Listed> {
  let doc: CorpusDoc;
  try {
    doc = parseCorpusJson(bytes, name);
  } catch (e) {
    throw new PublishError((e as Error).message);
  }
  const files = new Map<string, Listed>();
  for (const [path, e] of Object.entries(doc.files)) {
    // Paths are read from the folder: nothing that could leave it.
    if (
      path.startsWith('/') ||
      path.includes('\\') ||
      path.split('/').some((s) => s === '' || s === '.' || s === '..')
    ) {
      throw new PublishError(`${name}: files[${JSON.stringify(path)}] is not a plain relative path`);
    }
    files.set(path, { size: e.size, sha256: e.sha256 });
  }
  return files;
}

/** The bucket's current corpus.json (its hash and the contents it lists), or undefined when there is none. */
async function readBucketCorpus(ctx: Ctx): Promise<{ sha256: string; shas: Set<string>; paths: string[] } | undefined> {
  const bytes = await getObject(ctx, corpusJsonKey(ctx.where.prefix));
  if (!bytes) return undefined;
  const sha256 = sha256Hex(bytes);
  try {
    const files = listedFiles(bytes, `${ctx.location}corpus.json`);
    return { sha256, shas: new Set([...files.values()].map((f) => f.sha256)), paths: [...files.keys()] };
  } catch {
    // Unreadable: replaced by this publish; its objects (if any) are not protected by it.
    return { sha256, shas: new Set(), paths: [] };
  }
}

async function getObject(ctx: Ctx, key: string): Promise<Buffer | undefined> {
  try {
    const res = await ctx.client.send(new GetObjectCommand({ Bucket: ctx.where.bucket, Key: key }), signalOpt(ctx));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch (e) {
    if (httpStatusOf(e) === 404) return undefined;
    throw bucketError(ctx, `reading ${key}`, e);
  }
}

interface PresentObject {
  size: number;
  lastModified: Date | undefined;
}

/** objects/ of the prefix: sha256 → size and upload time. */
async function listObjects(ctx: Ctx): Promise<Map<string, PresentObject>> {
  const out = new Map<string, PresentObject>();
  for await (const o of listKeys(ctx, ctx.where.prefix + OBJECTS_DIR)) {
    const sha = objectSha256(ctx.where.prefix, o.key);
    if (sha) out.set(sha, { size: o.size, lastModified: o.lastModified });
  }
  return out;
}

async function* listKeys(
  ctx: Ctx,
  prefix: string,
): AsyncGenerator<{ key: string; size: number; lastModified: Date | undefined }> {
  let token: string | undefined;
  do {
    let page;
    try {
      page = await ctx.client.send(
        new ListObjectsV2Command({
          Bucket: ctx.where.bucket,
          Prefix: prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
        signalOpt(ctx),
      );
    } catch (e) {
      throw bucketError(ctx, `listing ${prefix}`, e);
    }
    for (const o of page.Contents ?? [])
      if (o.Key) yield { key: o.Key, size: o.Size ?? -1, lastModified: o.LastModified };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

async function uploadObject(ctx: Ctx, dir: string, sha: string, path: string, size: number): Promise<void> {
  const file = join(dir, ...path.split('/'));
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch (e) {
    throw new PublishError(
      `${path}: listed in corpus.json but ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  // The bucket is only ever given the bytes corpus.json names (the object key promises them).
  const digest = createHash('sha256').update(body).digest();
  if (body.length !== size || digest.toString('hex') !== sha) {
    throw new PublishError(
      `${path}: the file does not match corpus.json (${body.length} bytes, sha256 ${digest.toString('hex')}; ` +
        `listed ${size}, ${sha}); is a build running?`,
    );
  }
  const params = {
    Bucket: ctx.where.bucket,
    Key: objectKey(ctx.where.prefix, sha),
    Body: body,
    ContentType: contentTypeForPath(path),
    CacheControl: OBJECT_CACHE_CONTROL,
    Metadata: { sha256: sha },
  };
  try {
    if (body.length <= MULTIPART_THRESHOLD) {
      // The store checks the body against this digest and refuses a damaged upload.
      await ctx.client.send(
        new PutObjectCommand({ ...params, ContentLength: body.length, ChecksumSHA256: digest.toString('base64') }),
        signalOpt(ctx),
      );
    } else {
      // Multipart: the SDK sends a SHA-256 checksum with each part; metadata keeps the whole-object digest.
      const upload = new Upload({
        client: ctx.client,
        params: { ...params, ChecksumAlgorithm: 'SHA256' },
        partSize: MULTIPART_THRESHOLD,
        queueSize: 2,
      });
      const onAbort = () => void upload.abort();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await upload.done();
      } finally {
        ctx.signal?.removeEventListener('abort', onAbort);
      }
    }
  } catch (e) {
    if (ctx.signal?.aborted) throw abortError(ctx.signal);
    throw bucketError(ctx, `uploading ${path}`, e);
  }
}

async function putSmall(ctx: Ctx, key: string, body: Buffer, contentType: string, cacheControl: string): Promise<void> {
  try {
    await ctx.client.send(
      new PutObjectCommand({
        Bucket: ctx.where.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: cacheControl,
        ContentLength: body.length,
        ChecksumSHA256: createHash('sha256').update(body).digest('base64'),
      }),
      signalOpt(ctx),
    );
  } catch (e) {
    if (ctx.signal?.aborted) throw abortError(ctx.signal);
    throw bucketError(ctx, `writing ${key}`, e);
  }
}

interface SweepOptions {
  now: Date;
  graceMs: number;
  keepPrevious: number;
  present: Map<string, PresentObject>;
  alwaysKeep: Set<string>;
}

/** Step 3: deletes replaced corpus.json copies and objects no retained corpus.json lists (see the top). */
async function sweep(
  ctx: Ctx,
  o: SweepOptions,
): Promise<{ deletedObjects: number; deletedManifests: number; retainedManifests: number }> {
  const manifests: { key: string; at: Date }[] = [];
  for await (const m of listKeys(ctx, ctx.where.prefix + MANIFESTS_DIR)) {
    const at = manifestPublishedAt(ctx.where.prefix, m.key);
    if (at) manifests.push({ key: m.key, at });
  }
  manifests.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.key < b.key ? -1 : 1));
  const cutoff = o.now.getTime() - o.graceMs;
  const retained: typeof manifests = [];
  const dropped: typeof manifests = [];
  manifests.forEach((m, i) => {
    const replacedAt = manifests[i + 1]?.at.getTime();
    const recent = i >= manifests.length - 1 - o.keepPrevious;
    (replacedAt === undefined || recent || replacedAt > cutoff ? retained : dropped).push(m);
  });
  const keep = new Set(o.alwaysKeep);
  for (const m of retained) {
    const bytes = await getObject(ctx, m.key);
    if (!bytes) continue;
    try {
      for (const f of listedFiles(bytes, m.key).values()) keep.add(f.sha256);
    } catch {
      // A damaged copy protects nothing; the current corpus.json's objects are in alwaysKeep anyway.
    }
  }
  const doomed: string[] = [];
  for (const [sha, p] of o.present) {
    if (keep.has(sha)) continue;
    if (p.lastModified && p.lastModified.getTime() > cutoff) continue;
    doomed.push(objectKey(ctx.where.prefix, sha));
  }
  // Objects first: a copy of corpus.json outlives what it lists, so a rerun after a kill still sees it.
  await deleteKeys(ctx, doomed);
  await deleteKeys(
    ctx,
    dropped.map((m) => m.key),
  );
  return { deletedObjects: doomed.length, deletedManifests: dropped.length, retainedManifests: retained.length };
}

async function deleteKeys(ctx: Ctx, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    checkAborted(ctx.signal);
    const batch = keys.slice(i, i + 1000);
    let res;
    try {
      res = await ctx.client.send(
        new DeleteObjectsCommand({
          Bucket: ctx.where.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
        signalOpt(ctx),
      );
    } catch (e) {
      throw bucketError(ctx, 'deleting old objects', e);
    }
    const failed = res.Errors ?? [];
    if (failed.length > 0) {
      throw new PublishError(
        `${ctx.location}: ${failed.length} of ${batch.length} deletions failed ` +
          `(first: ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''})`,
      );
    }
  }
}

/** Runs `work` over `items`, at most `limit` at once; stops starting new ones at the first failure or abort. */
async function runPool<T>(
  items: T[],
  limit: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      if (signal?.aborted) {
        failure ??= abortError(signal);
        return;
      }
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure;
}

function signalOpt(ctx: Ctx): { abortSignal?: AbortSignal } {
  return ctx.signal ? { abortSignal: ctx.signal } : {};
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new PublishError('publish aborted');
}

function bucketError(ctx: Ctx, what: string, e: unknown): Error {
  if (ctx.signal?.aborted) return abortError(ctx.signal);
  return new PublishError(`${ctx.location}: ${what} failed: ${describeS3Error(e)}`);
}
