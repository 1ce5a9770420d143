// Defaults of `hotel-imager publish` (see publish.ts), apart from it so the command line can show them
// without loading the S3 SDK.

/** Uploads in flight at once. */
export const DEFAULT_PUBLISH_CONCURRENCY = 8;
/** Previous corpus.json versions whose objects are kept, however old. */
export const DEFAULT_KEEP_PREVIOUS = 1;
/** How long a replaced corpus.json's objects stay after it stopped being current. */
export const DEFAULT_GRACE_MS = 60 * 60 * 1000;
