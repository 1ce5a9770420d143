// The shipped nginx config (deploy/nginx/hotel-imager.conf, or docs/deployment.md's copy of it) made
// runnable on loopback by an unprivileged nginx: its upstreams pointed at local ports, its listen address
// at a local port and its cache and temporary files in one folder. Everything else (the locations, the
// proxy settings) is kept as shipped, so what runs is what an operator deploys. Used by
// scripts/deploy-demo.mjs and test/deploy/nginx-routes.test.ts.

/**
 * @param {string} conf the config as shipped (http-level: proxy_cache_path, upstreams, server)
 * @param {{ dir: string, listenPort: number, avatarPorts: number[], furniPort: number, workerConnections?: number, accessLog?: boolean }} at
 * @returns {string} a whole nginx.conf
 */
export function loopbackNginxConf(conf, at) {
  let out = conf;
  const swap = (re, to, what) => {
    if (!re.test(out)) throw new Error(`the nginx config has no ${what}`);
    out = out.replace(re, to);
  };
  swap(/proxy_cache_path\s+\S+/, `proxy_cache_path ${at.dir}/cache`, 'proxy_cache_path');
  swap(
    /(upstream avatar \{\n)((?:\s*server [^\n]*\n)+)/,
    (_m, head, servers) => {
      const options = /server \S+ ([^;]*);/.exec(servers)?.[1] ?? '';
      return head + at.avatarPorts.map((p) => `    server 127.0.0.1:${p} ${options};\n`).join('');
    },
    'upstream avatar',
  );
  swap(
    /(upstream furni \{\n)((?:\s*server [^\n]*\n)+)/,
    (_m, head) => `${head}    server 127.0.0.1:${at.furniPort};\n`,
    'upstream furni',
  );
  swap(/listen 80;/, `listen 127.0.0.1:${at.listenPort};`, 'listen 80');
  // Run as root (CI), nginx's workers would drop to "nobody" and could not use this private folder.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}worker_processes 1;
pid ${at.dir}/nginx.pid;
error_log ${at.dir}/error.log warn;
events { worker_connections ${at.workerConnections ?? 256}; }
http {
  access_log ${at.accessLog ? `${at.dir}/access.log` : 'off'};
  client_body_temp_path ${at.dir}/client_body;
  proxy_temp_path ${at.dir}/proxy_temp;
  fastcgi_temp_path ${at.dir}/fastcgi_temp;
  uwsgi_temp_path ${at.dir}/uwsgi_temp;
  scgi_temp_path ${at.dir}/scgi_temp;
${out}
}
`;
}

/** The nginx block of docs/deployment.md's "nginx" section, as an operator would copy it. */
export function documentedNginxConf(doc) {
  const section = doc.slice(doc.indexOf('\n## nginx\n'));
  const start = section.indexOf('    proxy_cache_path');
  if (start < 0) throw new Error('docs/deployment.md: the "nginx" section has no indented config block');
  const lines = [];
  for (const line of section.slice(start).split('\n')) {
    if (line !== '' && !line.startsWith('    ')) break;
    lines.push(line.slice(4));
  }
  return lines.join('\n').trimEnd() + '\n';
}
