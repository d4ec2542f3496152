// Debian's nginx in front of the service on loopback, as a deployment puts a proxy in front of it: `npm run cluster`
// (several instances, plain HTTP) and `npm run bench:web` (one instance, TLS and HTTP/2, which is how a browser reaches
// a deployment: browsers speak HTTP/2 only over TLS). `npm run setup` installs nginx.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The nginx binary, when installed. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

/** Where nginx listens and what it proxies to. */
export interface ProxyOptions {
  listen: number;
  /** Ports of the service instances on 127.0.0.1. */
  upstreams: number[];
  /** Serve TLS (and HTTP/2) with this certificate and key (PEM files). */
  tls?: { cert: string; key: string };
}

/** The configuration of an nginx that keeps everything (pid, logs, temp files) under `work`. */
export function nginxConfig(work: string, o: ProxyOptions): string {
  const listen = o.tls
    ? `listen 127.0.0.1:${o.listen} ssl http2;\n    ssl_certificate ${o.tls.cert};\n    ssl_certificate_key ${o.tls.key};`
    : `listen 127.0.0.1:${o.listen};`;
  return `
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${work}/client_body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  upstream account { ${o.upstreams.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join(' ')} keepalive 16; }
  server {
    ${listen}
    location / {
      proxy_pass http://account;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A request nginx could not hand over (connection refused, or an idle keep-alive connection the stopping
      # instance closed as the request went out) goes to the next instance; a graceful stop finishes what it
      # started, so a POST is retried only when it was not processed. Timeouts are not retried (it might have been).
      proxy_next_upstream error http_502 http_503 non_idempotent;
      proxy_next_upstream_tries 3;
    }
  }
}`;
}

/** Starts nginx with `nginxConfig(work, o)`; `stop()` stops it (safe to call twice). */
export function startNginx(work: string, o: ProxyOptions): { stop(): void } {
  if (!NGINX) throw new Error('nginx is missing; `npm run setup` installs it (as root, via apt)');
  const conf = path.join(work, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig(work, o));
  execFileSync(NGINX, ['-c', conf, '-p', work]);
  return {
    stop() {
      if (fs.existsSync(path.join(work, 'nginx.pid'))) {
        execFileSync(NGINX, ['-c', conf, '-p', work, '-s', 'stop'], { stdio: 'ignore' });
      }
    },
  };
}

/** A throwaway self-signed certificate for 127.0.0.1 under `work` (openssl), valid for a day. */
export function selfSignedCertificate(work: string): { cert: string; key: string } {
  const cert = path.join(work, 'cert.pem');
  const key = path.join(work, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'ignore' },
  );
  return { cert, key };
}
