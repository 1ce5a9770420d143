// The hotel-imager command line, assembled: each command lives in its own file and registers itself here.
// Exit codes, the same in every command (options.ts, README "Exit codes"): 0 done; 1 the command failed
// or partly failed (its message says why and what to do); 2 called wrongly (unknown flag, bad value, missing flag).
import { Command, CommanderError } from 'commander';
import { readPackageVersion } from '../http/build-info.js';
import { explainFsError } from '../util/fs-error.js';
import { registerBuildCommand } from './build.js';
import { registerConvertCommand } from './convert.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from './options.js';
import { registerPublishCommand } from './publish.js';
import { registerSampleKitCommand } from './sample-kit.js';
import { registerServeCommand } from './serve.js';
import { registerStartCommand } from './start.js';

/** Where commander writes help and its own errors (tests capture them). */
export interface ProgramOutput {
  writeOut?: (text: string) => void;
  writeErr?: (text: string) => void;
}

/** The whole command line, ready to parse; output and exit are the caller's (tests parse in-process). */
export function createProgram(output: ProgramOutput = {}): Command {
  const program = new Command();
  program
    .configureOutput({
      ...(output.writeOut ? { writeOut: output.writeOut } : {}),
      ...(output.writeErr ? { writeErr: output.writeErr } : {}),
    })
    .name('hotel-imager')
    .description('Furniture asset service and avatar rendering service for Habbo-style hotels')
    .version(readPackageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError('(add --help for every flag and its environment variable)')
    // Commander's own usage errors throw instead of exiting, so they get the usage exit code below.
    .exitOverride();
  // Commands are registered by the modules below (one file a command); they inherit the settings above.
  registerBuildCommand(program);
  registerConvertCommand(program);
  registerPublishCommand(program);
  registerSampleKitCommand(program);
  registerServeCommand(program);
  registerStartCommand(program);
  return program;
}

/** The exit code for an error out of parsing or a command, after printing what the user needs. */
export function reportError(err: unknown, write: (text: string) => void = (t) => process.stderr.write(t)): number {
  // Commander printed its message already (help and --version are exits with 0).
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (err instanceof UsageError) {
    write(`error: ${err.message}\n(add --help for every flag and its environment variable)\n`);
    return EXIT_USAGE;
  }
  // A file system error the command did not explain itself still says its cause and what to do.
  const e = explainFsError(err);
  write(`${e instanceof Error ? e.message : String(e)}\n`);
  return EXIT_FAILED;
}
