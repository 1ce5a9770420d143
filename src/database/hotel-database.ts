// The hotel's database as the services use it: a small pool of read-only connections (mysql2), the query
// catalogue, and a deadline on every query that holds whatever the server does (refuses, resets, hangs
// mid-answer, stops answering after accepting the connection).
//
// Why each guard:
// - the deadline covers the wait for a pooled connection too, so a pool held by slow queries makes a
//   caller wait at most the deadline; beyond `queueLimit` waiting callers are refused at once (`busy`);
// - a connection whose query missed the deadline is destroyed, not returned: a frozen server's socket
//   would otherwise come back to the next caller;
// - a pooled connection found dead (the server restarted) is replaced once within the same deadline, so
//   the first request after a restart is answered;
// - connections are set READ ONLY for the session: a mistaken override cannot write, whatever its grants.
import mysql, { type FieldPacket, type Pool, type PoolConnection, type PoolOptions } from 'mysql2/promise';
import { DatabaseError, type DatabaseErrorKind } from './errors.js';
import { type QueryCatalogue, type QueryName, QUERY_NAMES, QUERY_SHAPES, defaultCatalogue } from './queries.js';
import { type DatabaseTarget, parseDatabaseUrl } from './url.js';

export type Value = string | number | null;
export type Row = Record<string, Value>;
export type Params = Record<string, string | number>;

export interface HotelDatabaseOptions {
  /** Connections at most (default 4). */
  pool: number;
  /** Per-query deadline in ms, the wait for a connection included (default 1000). */
  timeoutMs: number;
  /** Callers that may wait for a connection at once; more are refused (default 64 per connection). */
  queueLimit?: number;
  catalogue?: QueryCatalogue;
}

export const DEFAULT_DATABASE_POOL = 4;
/** Below the 1.5 s a `?user=` image may wait for its name: a timeout still leaves time to answer. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 1000;

/** One observation per query run, for /metrics. */
export interface QueryObservation {
  query: QueryName | 'ping';
  ms: number;
  error?: DatabaseErrorKind;
}

export interface QueryStats {
  runs: number;
  errors: Partial<Record<DatabaseErrorKind, number>>;
  /** Seconds spent in the query's runs (the wait for a connection included). */
  seconds: number;
}

export interface DatabaseHealth {
  /** undefined until the first query or ping has answered or failed. */
  reachable: boolean | undefined;
  /** Why it is not reachable (the last connection error), when it is not. */
  error?: string;
  target: string;
  pool: { size: number; open: number; inUse: number; waiting: number };
}

/** A reachability change or a query error met for the first time: logged once, not per request. */
export type DatabaseEvent =
  | { type: 'unreachable'; error: DatabaseError }
  | { type: 'reachable' }
  | { type: 'query-failing'; query: QueryName; error: DatabaseError }
  | { type: 'query-ok'; query: QueryName };

/** Driver and server codes that mean "no usable connection" rather than "this statement is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
  'EACCES',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_HOST_IS_BLOCKED',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'HANDSHAKE_SSL_ERROR',
]);

export class HotelDatabase {
  readonly target: DatabaseTarget;
  readonly catalogue: QueryCatalogue;
  private readonly pool: Pool;
  private readonly opts: Required<Omit<HotelDatabaseOptions, 'catalogue'>>;
  private reachable: boolean | undefined;
  private lastError: DatabaseError | undefined;
  private readonly failing = new Set<QueryName>();
  private readonly stats = new Map<string, QueryStats>();
  private readonly listeners: { event: ((e: DatabaseEvent) => void)[]; query: ((o: QueryObservation) => void)[] } = {
    event: [],
    query: [],
  };
  private inUse = 0;
  private waiting = 0;
  private closed = false;
  private probe: NodeJS.Timeout | undefined;

  constructor(target: DatabaseTarget, options: HotelDatabaseOptions) {
    this.target = target;
    this.catalogue = options.catalogue ?? defaultCatalogue();
    this.opts = {
      pool: options.pool,
      timeoutMs: options.timeoutMs,
      queueLimit: options.queueLimit ?? 64 * options.pool,
    };
    const poolOptions: PoolOptions = {
      host: target.host,
      port: target.port,
      socketPath: target.socketPath,
      user: target.user,
      password: target.password,
      database: target.database,
      ssl: target.ssl as PoolOptions['ssl'],
      connectionLimit: options.pool,
      maxIdle: options.pool,
      idleTimeout: 60_000,
      queueLimit: this.opts.queueLimit,
      waitForConnections: true,
      connectTimeout: Math.max(options.timeoutMs, 100),
      namedPlaceholders: true,
      charset: 'utf8mb4_general_ci',
      enableKeepAlive: true,
      keepAliveInitialDelay: 10_000,
      // Exact numbers as strings never reach us: BIGINT and DECIMAL come back as numbers.
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: true,
      dateStrings: true,
    };
    this.pool = mysql.createPool(poolOptions);
    this.pool.on('connection', (conn) => {
      // Queued before any statement of ours on this connection.
      conn.query('SET SESSION TRANSACTION READ ONLY');
    });
  }

  /** Opens a client for a `--database` URL (connections are made on first use, not here). */
  static fromUrl(url: string, options: Partial<HotelDatabaseOptions> = {}): HotelDatabase {
    return new HotelDatabase(parseDatabaseUrl(url), {
      pool: options.pool ?? DEFAULT_DATABASE_POOL,
      timeoutMs: options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS,
      queueLimit: options.queueLimit,
      catalogue: options.catalogue,
    });
  }

  /** Reachability changes and first failures of a query, for the log (each told once). */
  onEvent(listener: (e: DatabaseEvent) => void): void {
    this.listeners.event.push(listener);
  }

  /** Every run with its duration and error kind, for /metrics. */
  onQuery(listener: (o: QueryObservation) => void): void {
    this.listeners.query.push(listener);
  }

  /**
   * Runs a catalogue query with named parameters; rows carry exactly the query's outputs, and those of its
   * optional outputs the statement gives.
   *
   * @example
   *   const [row] = await db.run('user_look', { name: 'Alice' });
   *   if (row) console.log(row.look, row.gender);
   * @throws DatabaseError (kind unavailable | timeout | busy | query | closed); never hangs past the deadline
   */
  async run(query: QueryName, params: Params = {}): Promise<Row[]> {
    const shape = QUERY_SHAPES[query];
    const bound: Params = {};
    for (const p of shape.params) {
      const v = params[p];
      if (v === undefined) throw new DatabaseError('query', query, `query ${query} needs the parameter ${p}`);
      bound[p] = v;
    }
    const started = performance.now();
    try {
      const { rows, fields } = await this.execute(query, this.catalogue.sql[query], bound);
      const names = new Set(fields.map((f) => f.name));
      const missing = shape.outputs.filter((o) => !names.has(o));
      if (missing.length > 0)
        throw new DatabaseError(
          'query',
          query,
          `query ${query} has no output column ${missing.join(', ')}; alias its columns to ${shape.outputs.join(', ')}`,
        );
      this.observe(query, started);
      this.markQuery(query, undefined);
      const given = [...shape.outputs, ...(shape.optionalOutputs ?? []).filter((o) => names.has(o))];
      return rows.map((r) => pick(r, given));
    } catch (e) {
      const err = e instanceof DatabaseError ? e : classify(e, query);
      this.observe(query, started, err.kind);
      if (err.kind === 'query') this.markQuery(query, err);
      throw err;
    }
  }

  /** SELECT 1 within the deadline: true when the database answered. Updates reachability. */
  async ping(): Promise<boolean> {
    const started = performance.now();
    try {
      await this.execute('', 'SELECT 1', {});
      this.observe('ping', started);
      return true;
    } catch (e) {
      const err = e instanceof DatabaseError ? e : classify(e, '');
      this.observe('ping', started, err.kind);
      // A server that accepts and never answers is as away as one that refuses.
      if (err.kind !== 'closed') this.setReachable(err);
      return false;
    }
  }

  /**
   * Runs every overridden query once with harmless parameters and checks its outputs: a mistake in an
   * operator's file is a start-up error, not a stream of fallbacks. Resolves with the queries it could not
   * check because the database was away (checked on their first run instead).
   *
   * @throws DatabaseError (kind query) naming the query and the file
   */
  async checkOverrides(): Promise<QueryName[]> {
    const unchecked: QueryName[] = [];
    for (const query of this.catalogue.overridden) {
      const params: Params = { name: '', room_id: 0, limit: 1 };
      try {
        await this.run(query, params);
      } catch (e) {
        const err = e as DatabaseError;
        if (err.kind !== 'query') {
          unchecked.push(query);
          continue;
        }
        throw new DatabaseError(
          'query',
          query,
          `${this.catalogue.file ?? 'the query file'}: query ${query} does not run: ${err.message}`,
          err.code,
        );
      }
    }
    return unchecked;
  }

  health(): DatabaseHealth {
    const core = (this.pool as unknown as { pool: { _allConnections?: { length: number } } }).pool;
    return {
      reachable: this.reachable,
      ...(this.reachable === false && this.lastError ? { error: this.lastError.message } : {}),
      target: this.target.display,
      pool: {
        size: this.opts.pool,
        open: core._allConnections?.length ?? 0,
        inUse: this.inUse,
        waiting: this.waiting,
      },
    };
  }

  /** Runs, errors by kind and time spent, per query name (and `ping`). */
  queryStats(): Record<string, QueryStats> {
    return Object.fromEntries([...this.stats].map(([k, v]) => [k, { ...v, errors: { ...v.errors } }]));
  }

  /** Pings every `ms` (unref'd) so reachability, /healthz and the log follow the database while idle. */
  startProbe(ms: number): void {
    if (this.probe || this.closed) return;
    this.probe = setInterval(() => void this.ping(), ms);
    this.probe.unref();
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.probe);
    await this.pool.end().catch(() => undefined);
  }

  /** One statement within the deadline; a dead pooled connection is replaced once while time remains. */
  private async execute(
    query: string,
    sql: string,
    params: Params,
  ): Promise<{ rows: Record<string, unknown>[]; fields: FieldPacket[] }> {
    if (this.closed) throw new DatabaseError('closed', query, 'the database client is closed');
    const deadline = Date.now() + this.opts.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const conn = await this.acquire(query, deadline);
      try {
        const result = await this.withDeadline(
          conn.execute({ sql, namedPlaceholders: true }, params) as Promise<[unknown, FieldPacket[]]>,
          deadline,
          () => conn.destroy(),
          query,
          'no answer',
        );
        conn.release();
        this.setReachable(undefined);
        return { rows: (result[0] as Record<string, unknown>[]) ?? [], fields: result[1] ?? [] };
      } catch (e) {
        if (e instanceof DatabaseError) throw e;
        const err = classify(e, query);
        if ((e as { fatal?: boolean }).fatal || err.kind === 'unavailable') conn.destroy();
        else conn.release();
        if (err.kind === 'unavailable' && attempt === 0 && Date.now() < deadline - 50) continue;
        if (err.kind === 'unavailable') this.setReachable(err);
        else this.setReachable(undefined);
        throw err;
      } finally {
        this.inUse--;
      }
    }
  }

  /** A pooled connection before the deadline, or a DatabaseError; a late one goes straight back. */
  private async acquire(query: string, deadline: number): Promise<PoolConnection> {
    this.waiting++;
    const pending = this.pool.getConnection();
    try {
      const conn = await this.withDeadline(
        pending,
        deadline,
        () =>
          void pending.then(
            (c) => c.release(),
            () => undefined,
          ),
        query,
        'no connection',
      );
      this.inUse++;
      return conn;
    } catch (e) {
      if (e instanceof DatabaseError) {
        if (e.kind === 'timeout' && this.inUse < this.opts.pool) this.setReachable(e);
        throw e;
      }
      const message = (e as Error).message;
      if (/queue limit/i.test(message))
        throw new DatabaseError('busy', query, `${this.waiting} queries already wait for a database connection`);
      if (/pool is closed/i.test(message)) throw new DatabaseError('closed', query, 'the database client is closed');
      const err = classify(e, query);
      if (err.kind === 'unavailable') this.setReachable(err);
      throw err;
    } finally {
      this.waiting--;
    }
  }

  private withDeadline<T>(
    work: Promise<T>,
    deadline: number,
    onLate: () => void,
    query: string,
    what: string,
  ): Promise<T> {
    const ms = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onLate();
        reject(
          new DatabaseError(
            'timeout',
            query,
            `${what} from the database within ${this.opts.timeoutMs} ms${query ? ` (query ${query})` : ''}`,
          ),
        );
      }, ms);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  private setReachable(err: DatabaseError | undefined): void {
    const now = err === undefined;
    if (err) this.lastError = err;
    if (this.reachable === now) return;
    const before = this.reachable;
    this.reachable = now;
    if (err) this.emit({ type: 'unreachable', error: err });
    else if (before === false) this.emit({ type: 'reachable' });
  }

  private markQuery(query: QueryName, err: DatabaseError | undefined): void {
    if (err && !this.failing.has(query)) {
      this.failing.add(query);
      this.emit({ type: 'query-failing', query, error: err });
    } else if (!err && this.failing.delete(query)) this.emit({ type: 'query-ok', query });
  }

  private observe(query: QueryName | 'ping', started: number, error?: DatabaseErrorKind): void {
    const ms = performance.now() - started;
    let s = this.stats.get(query);
    if (!s) {
      s = { runs: 0, errors: {}, seconds: 0 };
      this.stats.set(query, s);
    }
    s.runs++;
    s.seconds += ms / 1000;
    if (error) s.errors[error] = (s.errors[error] ?? 0) + 1;
    for (const l of this.listeners.query) l({ query, ms, ...(error ? { error } : {}) });
  }

  private emit(e: DatabaseEvent): void {
    for (const l of this.listeners.event) l(e);
  }
}

function pick(row: Record<string, unknown>, outputs: readonly string[]): Row {
  const out: Row = {};
  for (const o of outputs) out[o] = value(row[o]);
  return out;
}

/** Text as text whatever the column's collation (a binary one comes back as bytes), numbers as numbers. */
function value(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

function classify(e: unknown, query: string): DatabaseError {
  const err = e as { code?: string; errno?: number; message?: string; sqlMessage?: string };
  const code = err.code;
  const message = err.sqlMessage ?? err.message ?? String(e);
  if (code && UNAVAILABLE_CODES.has(code)) return new DatabaseError('unavailable', query, message, code);
  if ((e as { fatal?: boolean }).fatal) return new DatabaseError('unavailable', query, message, code);
  if (code?.startsWith('ER_')) return new DatabaseError('query', query, message, code);
  if (/connect|closed state|socket/i.test(message)) return new DatabaseError('unavailable', query, message, code);
  return new DatabaseError('query', query, message, code);
}

/** Every catalogue query name, for callers that report on all of them. */
export const ALL_QUERIES: readonly QueryName[] = QUERY_NAMES;
