// `hotel-imager serve <service>`: the HTTP services. Each service registers its subcommand from its own file.
import { type Command } from 'commander';
import { registerServeAvatarCommand } from './serve-avatar.js';
import { registerServeFurniCommand } from './serve-furni.js';

export function registerServeCommand(program: Command): Command {
  const serve = program.command('serve').description('run an HTTP service (furni asset service or avatar imager)');
  registerServeFurniCommand(serve);
  registerServeAvatarCommand(serve);
  return serve;
}
