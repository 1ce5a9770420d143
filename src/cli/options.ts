// The command line's one way to declare a flag: every flag has an environment variable (listed in
// --help), one parser from settings/values.ts, an optional default, and older names kept as aliases.
// A command declares its flags as a table and reads them back typed:
//
//     const FLAGS = {
//       jobs: option({ flag: '--jobs <n>', env: 'HOTEL_IMAGER_BUILD_JOBS', help: 'worker threads',
//                      parse: wholeNumber({ min: 1 }),
//                      aliases: [{ flag: '--concurrency <n>', env: 'HOTEL_IMAGER_BUILD_CONCURRENCY' }] }),
//     };
//     addOptions(cmd, FLAGS).action(async (_o, cmd: Command) => { const o = readOptions(cmd, FLAGS); … });
//
// Precedence: the flag, then an alias flag, then the variable, then an alias variable, then the default.
// Variable names: HOTEL_IMAGER_<COMMAND or SERVICE>_<FLAG> (e.g. HOTEL_IMAGER_FURNI_PORT); a setting
// several commands share has one name without the command (HOTEL_IMAGER_LOG_LEVEL, HOTEL_IMAGER_S3_*).
// Bad values, from a flag or a variable, are a UsageError in the one sentence shape of values.ts.
import { type Command, Option } from 'commander';
import { boolean, byteSizeAtLeast, parseSetting, SettingError, text, type Parser } from '../settings/values.js';
import { DEFAULT_DECODE_BUDGET_BYTES } from '../imaging/decode-budget.js';

/** Exit codes, the same in every command. */
export const EXIT_OK = 0;
/**
 * The command failed or partly failed: it could not do its work, was stopped (the shrink guard), left files
 * unconverted, or (with --strict) some items failed.
 */
export const EXIT_FAILED = 1;
/** The command was called wrongly: an unknown or missing flag, a bad value, flags that do not go together. */
export const EXIT_USAGE = 2;

/** A usage error (exit 2): main.ts prints it with a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionAlias<T> {
  /** The older flag, e.g. '--workers <n>'. */
  flag: string;
  /** Its older variable, if it had one. */
  env?: string;
  /** When the older name read another unit (`--cache-mb` in MiB). */
  parse?: Parser<T>;
  /** Shown in --help after "older name of --x", e.g. "in MiB". */
  note?: string;
}

export interface OptionSpec<T> {
  /** '--port <n>', '--only <classname...>' (a list), or '--strict' (a switch). */
  flag: string;
  env: string;
  help: string;
  /** Text → value; the default reads text as it is (switches: values.boolean for the variable). */
  parse?: Parser<T>;
  default?: NoInfer<T>;
  /** How --help shows the default (when the value itself reads badly, e.g. bytes). */
  defaultText?: string;
  /** Fails with a usage error when neither the flag nor its variable is given. */
  required?: boolean;
  aliases?: OptionAlias<T>[];
}

/** An option declared for a command; `T` is what readOptions gives back. */
export interface OptionDef<T> {
  spec: OptionSpec<unknown>;
  /** Never set: carries the value type. */
  readonly _type?: T;
}

// T is read from the parser (text when there is none); the default must fit it.
export function option<T = string>(spec: OptionSpec<T> & ({ default: NoInfer<T> } | { required: true })): OptionDef<T>;
export function option<T = string>(spec: OptionSpec<T>): OptionDef<T | undefined>;
export function option<T = string>(spec: OptionSpec<T>): OptionDef<T | undefined> {
  return { spec: spec as OptionSpec<unknown> };
}

export type OptionValues<D> = { [K in keyof D]: D[K] extends OptionDef<infer T> ? T : never };

const isSwitch = (flag: string) => !flag.includes('<') && !flag.includes('[');
const isList = (flag: string) => flag.includes('...>') || flag.includes('...]');
const longName = (flag: string) => flag.split(/[ ,]/).find((p) => p.startsWith('--'))!;
/** commander's attribute name for a flag: --cache-mb → cacheMb. */
export const attributeOf = (flag: string) =>
  longName(flag)
    .slice(2)
    .replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The decode budget (src/util/decode-budget.ts), one setting for every command that reads hotel assets:
 * the most bytes one asset may decode to (an inflated bundle member, a SWF body, a document), and so
 * the most pixels of one image (a quarter of it).
 */
export const DECODE_BUDGET_OPTION = option({
  flag: '--decode-budget <size>',
  env: 'HOTEL_IMAGER_DECODE_BUDGET',
  help:
    'most bytes one asset may decode to (a bundle member, a SWF, a document; an image: a quarter of it in ' +
    'pixels); larger files are refused',
  parse: byteSizeAtLeast(1024 * 1024, '1M'),
  default: DEFAULT_DECODE_BUDGET_BYTES,
  defaultText: '64M',
});

/** Symbolic links that lead out of the asset folder (src/hotel/files.ts says why they are refused by default). */
export const FOLLOW_SYMLINKS_OPTION = option({
  flag: '--follow-symlinks',
  env: 'HOTEL_IMAGER_FOLLOW_SYMLINKS',
  help:
    'follow symbolic links in the asset folder that lead out of it (refused by default: a downloaded pack could ' +
    'link to any file of this machine)',
  parse: boolean,
  default: false,
});

export const OLDER_NAMES_HEADING = 'Older names (still accepted, will be removed in a later major version):';

/** Registers every option of the table on `cmd` (with its variable, so --help lists it) and its aliases. */
export function addOptions<D extends Record<string, OptionDef<unknown>>>(cmd: Command, defs: D): Command {
  for (const { spec } of Object.values(defs)) {
    const main = new Option(spec.flag, spec.help).env(spec.env);
    if (spec.default !== undefined) main.default(spec.default, spec.defaultText);
    // Commander shows a default only when there is a value; ours is resolved apart (readOptions), so the text serves.
    else if (spec.defaultText !== undefined) main.default(spec.defaultText, spec.defaultText);
    cmd.addOption(main);
    for (const alias of spec.aliases ?? []) {
      const o = new Option(
        alias.flag,
        `older name of ${longName(spec.flag)}${alias.note ? `, ${alias.note}` : ''}`,
      ).helpGroup(OLDER_NAMES_HEADING);
      if (alias.env) o.env(alias.env);
      cmd.addOption(o);
    }
  }
  return cmd;
}

/** The values given on the command line (commander's attribute names), nothing from variables or defaults. */
export function givenFlags(cmd: Command): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cmd.opts())) if (cmd.getOptionValueSource(key) === 'cli') out[key] = value;
  return out;
}

/** The typed values of the table from `cmd`'s command line and the environment. */
export function readOptions<D extends Record<string, OptionDef<unknown>>>(
  cmd: Command,
  defs: D,
  env: NodeJS.ProcessEnv = process.env,
): OptionValues<D> {
  return resolveOptions(defs, givenFlags(cmd), env);
}

function parseGiven<T>(name: string, flag: string, value: unknown, parse: Parser<T>): T {
  // A switch given on the command line is true; a list keeps each item's own parse.
  if (value === true && isSwitch(flag)) return true as T;
  if (Array.isArray(value)) return value.map((v: string) => parseSetting(name, v, parse)) as T;
  return parseSetting(name, String(value), parse);
}

function parseVariable<T>(name: string, flag: string, value: string, parse: Parser<T>): T {
  // A list in a variable: items separated by spaces or commas.
  if (isList(flag))
    return value
      .split(/[\s,]+/)
      .filter((v) => v !== '')
      .map((v) => parseSetting(name, v, parse)) as T;
  return parseSetting(name, value, parse);
}

/**
 * Resolves the table from flags given on the command line (by commander attribute name; tests pass
 * them directly) and the environment. Bad values and conflicting names are UsageErrors.
 */
export function resolveOptions<D extends Record<string, OptionDef<unknown>>>(
  defs: D,
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): OptionValues<D> {
  const out: Record<string, unknown> = {};
  try {
    for (const [key, { spec }] of Object.entries(defs)) {
      const parse = spec.parse ?? (isSwitch(spec.flag) ? boolean : text);
      const names = [
        { flag: spec.flag, env: spec.env, parse },
        ...(spec.aliases ?? []).map((a) => ({ flag: a.flag, env: a.env, parse: a.parse ?? parse })),
      ];
      const onCommandLine = names.filter((n) => given[attributeOf(n.flag)] !== undefined);
      if (onCommandLine.length > 1) {
        throw new UsageError(
          `${onCommandLine.map((n) => longName(n.flag)).join(' and ')} are the same setting: give ` +
            `only ${longName(spec.flag)}`,
        );
      }
      const flagged = onCommandLine[0];
      const variable = names.find((n) => n.env !== undefined && env[n.env] !== undefined && env[n.env] !== '');
      if (flagged)
        out[key] = parseGiven(longName(flagged.flag), flagged.flag, given[attributeOf(flagged.flag)], flagged.parse);
      else if (variable) out[key] = parseVariable(variable.env!, variable.flag, env[variable.env!]!, variable.parse);
      else if (spec.required) throw new UsageError(`${longName(spec.flag)} is required (or ${spec.env})`);
      else out[key] = spec.default;
    }
  } catch (e) {
    if (e instanceof SettingError) throw new UsageError(e.message);
    throw e;
  }
  return out as OptionValues<D>;
}

/**
 * A port another program holds is the likeliest start-up failure: the error names the flag and the
 * variable that move it. Other errors pass through.
 */
export function explainPortInUse(
  e: unknown,
  what: { service: string; port: number; flag: string; env: string; command: string },
): unknown {
  if ((e as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') return e;
  return new Error(
    `port ${what.port} (the ${what.service} service) is already in use by another program. ` +
      `Stop that program, or pick another port: ${what.command} ${what.flag} <n> (or ${what.env}=<n>)`,
  );
}
