// What can go wrong asking the hotel's database, as one error type with a kind the callers branch on: the
// image services answer the same (a fallback) whatever the kind, the log and /metrics tell them apart.

/**
 * - `unavailable`: no connection (refused, reset, lost, wrong password, unknown database)
 * - `timeout`: no answer within the per-query deadline (waiting for a pooled connection included)
 * - `busy`: too many queries already waiting for a connection; refused at once rather than queued
 * - `query`: the database answered with an error for this statement (a table or column missing, a syntax
 *   error in an operator's query) or the answer lacks a named output column
 * - `closed`: the client was closed
 */
export type DatabaseErrorKind = 'unavailable' | 'timeout' | 'busy' | 'query' | 'closed';

export class DatabaseError extends Error {
  constructor(
    readonly kind: DatabaseErrorKind,
    /** The catalogue query it concerns ('' for the connection itself). */
    readonly query: string,
    message: string,
    /** The server's or the driver's error code (ER_NO_SUCH_TABLE, ECONNREFUSED, …) when there is one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DatabaseError';
  }
}

export function isDatabaseError(e: unknown): e is DatabaseError {
  return e instanceof DatabaseError;
}
