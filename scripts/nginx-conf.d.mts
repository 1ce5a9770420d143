// Types of nginx-conf.mjs for the TypeScript tests that import it.
export interface LoopbackNginxOptions {
  dir: string;
  listenPort: number;
  avatarPorts: number[];
  furniPort: number;
  workerConnections?: number;
  accessLog?: boolean;
}
export function loopbackNginxConf(conf: string, at: LoopbackNginxOptions): string;
export function documentedNginxConf(doc: string): string;
