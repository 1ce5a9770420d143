// The hotel's own database (MySQL/MariaDB of the emulator): the query catalogue and the client the
// services ask. Everything outside src/database/ imports from here.
export { type DatabaseErrorKind, DatabaseError, isDatabaseError } from './errors.js';
export {
  ALL_QUERIES,
  type DatabaseEvent,
  type DatabaseHealth,
  DEFAULT_DATABASE_POOL,
  DEFAULT_DATABASE_TIMEOUT_MS,
  HotelDatabase,
  type HotelDatabaseOptions,
  type Params,
  type QueryObservation,
  type QueryStats,
  type Row,
  type Value,
} from './hotel-database.js';
export {
  ARCTURUS_QUERIES,
  defaultCatalogue,
  isQueryName,
  parseQueryFile,
  QUERY_NAMES,
  QUERY_SHAPES,
  type QueryCatalogue,
  QueryFileError,
  type QueryName,
  type QueryShape,
  readQueryFile,
  statementProblem,
} from './queries.js';
export { type DatabaseTarget, DatabaseUrlError, parseDatabaseUrl } from './url.js';
