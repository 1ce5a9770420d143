// The `--database` URL → connection settings. One URL says it all, so an operator copies one line from the
// emulator's config:
//
//   mysql://user:password@host:3306/hotel                       TCP (port 3306 when left out)
//   mysql://user:password@localhost/hotel?socket=/run/mysqld/mysqld.sock     a Unix socket
//   mysql://…/hotel?ssl=true                                    TLS, the server's certificate checked
//   mysql://…/hotel?ssl-ca=/etc/hotel/db-ca.pem                 TLS against the operator's CA
//   mysql://…/hotel?ssl={"rejectUnauthorized":true,"minVersion":"TLSv1.3"}    mysql2's own TLS options
//
// `mariadb://` is accepted as well. A password with reserved characters is percent-encoded (%40 for @).
import { readFileSync } from 'node:fs';

export interface DatabaseTarget {
  host?: string;
  port?: number;
  socketPath?: string;
  user: string;
  password?: string;
  database: string;
  ssl?: Record<string, unknown> | string;
  /** The URL without its password, for logs and /healthz. */
  display: string;
}

export class DatabaseUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUrlError';
  }
}

const FORM = 'mysql://user:password@host:port/database (docs/database.md)';

/** @throws DatabaseUrlError saying what is wrong and the form expected; the password is never repeated. */
export function parseDatabaseUrl(text: string, setting = '--database'): DatabaseTarget {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new DatabaseUrlError(`${setting} must be a URL like ${FORM}`);
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:')
    throw new DatabaseUrlError(`${setting} must start with mysql:// or mariadb://, got ${url.protocol}// (${FORM})`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/'))
    throw new DatabaseUrlError(`${setting} must name the hotel's database after the host (${FORM})`);
  const user = decodeURIComponent(url.username);
  if (user === '') throw new DatabaseUrlError(`${setting} must name a user before the host (${FORM})`);
  const target: DatabaseTarget = {
    user,
    database,
    display: redact(url),
  };
  if (url.password !== '') target.password = decodeURIComponent(url.password);
  for (const [key, value] of url.searchParams) {
    if (key === 'socket' || key === 'socketPath') target.socketPath = value;
    else if (key === 'ssl') target.ssl = sslOption(value, setting);
    else if (key === 'ssl-ca')
      target.ssl = { ...(typeof target.ssl === 'object' ? target.ssl : {}), ca: readCa(value, setting) };
    else
      throw new DatabaseUrlError(
        `${setting} has an unknown option "${key}"; the options are socket, ssl and ssl-ca (docs/database.md)`,
      );
  }
  if (!target.socketPath) {
    target.host = url.hostname.replace(/^\[|\]$/g, '');
    if (target.host === '') throw new DatabaseUrlError(`${setting} must name the database host (${FORM})`);
    target.port = url.port === '' ? 3306 : Number(url.port);
  }
  return target;
}

function sslOption(value: string, setting: string): Record<string, unknown> | string {
  if (value === 'true' || value === '1' || value === '') return {};
  if (value.startsWith('{')) {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through to the message
    }
    throw new DatabaseUrlError(`${setting}: ssl={…} must be a JSON object of TLS options, got ${value}`);
  }
  // A profile name mysql2 knows ("Amazon RDS").
  return value;
}

function readCa(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new DatabaseUrlError(`${setting}: cannot read the ssl-ca file ${file}: ${(e as Error).message}`);
  }
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password !== '') copy.password = '***';
  return copy.href;
}
