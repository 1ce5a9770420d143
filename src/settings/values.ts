// One validation helper for every setting of every command and service: a parser per kind of value, and
// one sentence shape for a bad value, wherever it came from (a flag, an environment variable, an API
// option):
//
//     <name> must be <what is expected>, got "<the text>"
//     --jobs must be a whole number ≥ 1, got "0"
//     HOTEL_IMAGER_FURNI_PORT must be a port number from 0 to 65535, got "eighty"
//
// A parser turns text into a value or throws BadValueError with the expected phrase; `parseSetting`
// adds the name. Imports nothing of ours, so every layer can use it. (The model: sharp's lib/is.js and
// its invalidParameterError.)

/** A parser's refusal: `expected` completes "<name> must be …". */
export class BadValueError extends Error {
  constructor(readonly expected: string) {
    super(`must be ${expected}`);
    this.name = 'BadValueError';
  }
}

/** A named setting with a bad value; its message is the one sentence shape. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    readonly text: string,
    readonly expected: string,
  ) {
    super(badValueMessage(setting, text, expected));
    this.name = 'SettingError';
  }
}

export type Parser<T> = (text: string) => T;

export function badValueMessage(name: string, text: string, expected: string): string {
  return `${name} must be ${expected}, got "${text}"`;
}

/** Parses `text` for the setting `name` (a flag, a variable, an option): a SettingError names it. */
export function parseSetting<T>(name: string, text: string, parse: Parser<T>): T {
  try {
    return parse(text);
  } catch (e) {
    if (e instanceof BadValueError) throw new SettingError(name, text, e.expected);
    throw e;
  }
}

/** A whole number within [min, max] (decimal digits only: no sign, exponent or fraction). */
export function wholeNumber({
  min = 0,
  max,
  expected,
}: {
  min?: number;
  max?: number;
  expected?: string;
} = {}): Parser<number> {
  const phrase = expected ?? (max === undefined ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`);
  return (text) => {
    const t = text.trim();
    const n = Number(t);
    if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max))
      throw new BadValueError(phrase);
    return n;
  };
}

export const port: Parser<number> = wholeNumber({ min: 0, max: 65535, expected: 'a port number from 0 to 65535' });

/** Milliseconds as a whole number, at least `min`. */
export function milliseconds(min = 0): Parser<number> {
  return wholeNumber({ min, expected: `a whole number of milliseconds ≥ ${min}` });
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** "268435456", "256M", "256MiB", "1g" → bytes (binary units; a bare number is bytes). */
export const byteSize: Parser<number> = (text) => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new BadValueError('a size such as 268435456, 256M or 1GiB');
  return Math.floor(Number(m[1]) * unit);
};

/** A size (as `byteSize` reads it) of at least `min` bytes; `minText` says the minimum as a size ("1M"). */
export function byteSizeAtLeast(min: number, minText: string): Parser<number> {
  return (text) => {
    const n = byteSize(text);
    if (n < min) throw new BadValueError(`a size of at least ${minText}, such as 64M or 1GiB`);
    return n;
  };
}

/** A whole number of MiB → bytes (the older `…-mb` settings). */
export const mebibytes: Parser<number> = (text) =>
  wholeNumber({ expected: 'a whole number of MiB' })(text) * 1024 * 1024;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "0", "90s", "15m", "1h", "2d", "250ms" → milliseconds; a bare number is in `bareUnit`. */
export function duration(bareUnit: 'ms' | 's' = 's'): Parser<number> {
  return (text) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
    if (!m) throw new BadValueError('a duration such as 0, 90s, 15m, 1h or 2d');
    return Math.round(Number(m[1]) * DURATION_UNITS[m[2] ?? bareUnit]!);
  };
}

/** 1/true/yes/on and 0/false/no/off (any case); empty is false. */
export const boolean: Parser<boolean> = (text) => {
  const v = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new BadValueError('true or false (1/0, yes/no, on/off)');
};

/** One of a fixed list of words (any case in, as listed out). */
export function oneOf<const T extends string>(choices: readonly T[]): Parser<T> {
  return (text) => {
    const found = choices.find((c) => c === text.trim().toLowerCase());
    if (found === undefined) throw new BadValueError(`one of ${choices.join(', ')}`);
    return found;
  };
}

/** An absolute URL with one of the given schemes (default http and https). */
export function url(
  protocols: readonly string[] = ['http:', 'https:'],
  example = 'http://127.0.0.1:9000',
): Parser<string> {
  const names = protocols.map((p) => `${p}//`).join(' or ');
  return (text) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(text);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !protocols.includes(parsed.protocol) || parsed.hostname === '')
      throw new BadValueError(`an absolute ${names} URL, e.g. ${example}`);
    return text;
  };
}

/** redis://[user:pass@]HOST:PORT/DB or rediss://… with a numeric database. */
export const redisUrl: Parser<string> = (text) => {
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  const ok =
    parsed &&
    (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') &&
    parsed.hostname !== '' &&
    /^\/?\d*$/.test(parsed.pathname);
  if (!ok) throw new BadValueError('a redis://HOST:PORT/DB address (or rediss://) whose DB is a number');
  return text;
};

/** Any text that is not empty (folders, files, addresses). */
export const text: Parser<string> = (t) => {
  if (t.trim() === '') throw new BadValueError('a non-empty text');
  return t;
};
