#!/usr/bin/env node
// The hotel-imager command line. Each command lives in its own file and registers itself here.
import { Command } from 'commander';
import { registerBuildCommand } from './build.js';
import { registerConvertCommand } from './convert.js';
import { registerPublishCommand } from './publish.js';
import { registerSampleKitCommand } from './sample-kit.js';
import { registerServeCommand } from './serve.js';
import { registerStartCommand } from './start.js';

const program = new Command();
program
  .name('hotel-imager')
  .description('Furniture asset service and avatar rendering service for Habbo-style hotels')
  .showHelpAfterError();

// Commands are registered by the modules below (one file a command).
registerBuildCommand(program);
registerConvertCommand(program);
registerPublishCommand(program);
registerSampleKitCommand(program);
registerServeCommand(program);
registerStartCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
