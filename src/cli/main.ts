#!/usr/bin/env node
// The `hotel-imager` program (package.json "bin"): parse, run, exit with the code program.ts gives.
import { createProgram, reportError } from './program.js';

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => process.exit(reportError(err)));
