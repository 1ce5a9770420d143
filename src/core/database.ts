// The avatar service's hotel database: the catalogue (an operator's overrides read and checked), the
// client, a reachability probe, and one log line per change of state (never one per request).
import {
  DatabaseError,
  type DatabaseEvent,
  defaultCatalogue,
  HotelDatabase,
  readQueryFile,
} from '../database/index.js';

export interface DatabaseSettings {
  databaseUrl?: string;
  databaseQueriesFile?: string;
  databasePool: number;
  databaseTimeoutMs: number;
}

type Log = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;

/** How often an idle service asks the database whether it is there (/healthz, the log of outages). */
export const DATABASE_PROBE_MS = 5000;

/** A start-up mistake in the database settings (a bad override): the command exits 2 with this message. */
export class DatabaseConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseConfigError';
  }
}

/**
 * Opens the client. With an override file, each overridden query is run once when the database answers:
 * a query that does not run or lacks an output is a DatabaseConfigError at start. A database that is away
 * at start is logged; `?user=` falls back until it answers, and the overrides are checked then.
 */
export async function openHotelDatabase(settings: DatabaseSettings, log: Log): Promise<HotelDatabase> {
  if (settings.databaseUrl === undefined) throw new Error('no database URL');
  const catalogue =
    settings.databaseQueriesFile !== undefined
      ? await readQueryFile(settings.databaseQueriesFile).catch((e: Error) => {
          throw new DatabaseConfigError(`--database-queries (HOTEL_IMAGER_DATABASE_QUERIES): ${e.message}`);
        })
      : defaultCatalogue();
  const db = HotelDatabase.fromUrl(settings.databaseUrl, {
    pool: settings.databasePool,
    timeoutMs: settings.databaseTimeoutMs,
    catalogue,
  });
  const fields = { database: db.target.display };
  let unchecked = [...catalogue.overridden];
  const checkOverrides = async (atStart: boolean) => {
    if (unchecked.length === 0) return;
    try {
      const left = await db.checkOverrides();
      unchecked = unchecked.filter((q) => left.includes(q));
    } catch (e) {
      unchecked = [];
      const message = `${(e as Error).message}; fix it in ${settings.databaseQueriesFile} (docs/database.md)`;
      if (atStart) throw new DatabaseConfigError(message);
      log('error', 'database query override does not run', { ...fields, error: message });
    }
  };
  db.onEvent((e: DatabaseEvent) => {
    if (e.type === 'unreachable')
      log('warn', 'database unreachable: ?user= falls back (302 user-unresolved) until it answers', {
        ...fields,
        kind: e.error.kind,
        code: e.error.code ?? null,
        error: e.error.message,
      });
    else if (e.type === 'reachable') {
      log('info', 'database reachable again', fields);
      void checkOverrides(false);
    } else if (e.type === 'query-failing')
      log('error', `database query ${e.query} fails`, {
        ...fields,
        code: e.error.code ?? null,
        error: e.error.message,
      });
    else log('info', `database query ${e.query} runs again`, fields);
  });
  const reachable = await db.ping();
  if (reachable) {
    try {
      await checkOverrides(true);
    } catch (e) {
      await db.close();
      throw e;
    }
    log('info', 'database connected', {
      ...fields,
      pool: settings.databasePool,
      timeoutMs: settings.databaseTimeoutMs,
      queries: catalogue.file ?? 'Arcturus Morningstar (built in)',
    });
  } else if (catalogue.overridden.length > 0)
    log('warn', 'database away at start: the query overrides are checked once it answers', fields);
  db.startProbe(DATABASE_PROBE_MS);
  return db;
}

export { DatabaseError };
