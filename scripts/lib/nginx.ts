// Debian's nginx in front of the service on loopback, as a deployment puts a proxy in front of it: `npm run cluster`
// (several instances, plain HTTP) and `npm run bench:web` (one instance, TLS and HTTP/2, which is how a browser reaches
// a deployment: browsers speak HTTP/2 only over TLS); and in front of a directory of artifacts whose downloads the
// service judges (`npm run artifacts`, tests/http/artifact-downloads.test.ts). `npm run setup` installs nginx.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DOWNLOAD_AUTH_PATH } from '../../plugins/packages-credential/server/download-routes';

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

/** The top of a configuration that keeps everything (pid, logs, temp files) under `work`, up to inside `http {`. */
function preamble(work: string): string {
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
`;
}

/** The configuration of an nginx that keeps everything (pid, logs, temp files) under `work`. */
export function nginxConfig(work: string, o: ProxyOptions): string {
  const listen = o.tls
    ? `listen 127.0.0.1:${o.listen} ssl http2;\n    ssl_certificate ${o.tls.cert};\n    ssl_certificate_key ${o.tls.key};`
    : `listen 127.0.0.1:${o.listen};`;
  return `${preamble(work)}  upstream account { ${o.upstreams.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join(' ')} keepalive 16; }
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
  return runNginx(work, nginxConfig(work, o));
}

/** Where the artifact front door listens, what it serves, and the service that judges each download. */
export interface ArtifactsOptions {
  listen: number;
  /** The directory of artifacts served as they are (npm tarballs, Maven files…). */
  root: string;
  /** The account service's base URL as nginx reaches it, e.g. `http://127.0.0.1:3000`. */
  service: string;
  /** INTERNAL_API_SECRET of the service. */
  secret: string;
}

/**
 * The `location` blocks of an artifact front door (what docs/operations.md tells an operator to copy): every file
 * under `/` is served only when the service answers 2xx to an `auth_request` subrequest carrying the client's Basic
 * credentials, path, method, address and User-Agent; a 401 reaches the client with the service's Basic challenge.
 */
export function artifactLocations(o: Pick<ArtifactsOptions, 'root' | 'service' | 'secret'>): string {
  if (!/^[A-Za-z0-9+/=_.-]+$/.test(o.secret))
    throw new Error('the internal secret must be one token (no quotes or spaces)');
  return `
    root ${o.root};
    location / {
      auth_request /_artifact_auth;
      # The account the service let through, for the access log (or an upstream registry).
      auth_request_set $artifact_user $upstream_http_x_auth_user;
      autoindex on;
      # A package's metadata as a registry answers it: /npm/<name> is the file <name>/index.json.
      try_files $uri $uri/index.json $uri/ =404;
    }
    location = /_artifact_auth {
      internal;
      proxy_pass ${o.service.replace(/\/$/, '')}${DOWNLOAD_AUTH_PATH};
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Original-URI $request_uri;
      proxy_set_header X-Original-Method $request_method;
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Internal-Secret "${o.secret}";
      # The service never reads a cookie here; the artifact host's cookies are not its business.
      proxy_set_header Cookie "";
    }`;
}

/** A whole nginx configuration serving `o.root` on loopback behind the service's download check. */
export function artifactsConfig(work: string, o: ArtifactsOptions): string {
  return `${preamble(work)}
  log_format artifacts '$remote_addr $artifact_user [$time_local] "$request" $status $body_bytes_sent "$http_user_agent"';
  server {
    listen 127.0.0.1:${o.listen};
    access_log ${work}/artifacts-access.log artifacts;
${artifactLocations(o)}
  }
}`;
}

/** Starts nginx as an artifact front door (`artifactsConfig`); `stop()` stops it (safe to call twice). */
export function startArtifactsNginx(work: string, o: ArtifactsOptions): { stop(): void } {
  return runNginx(work, artifactsConfig(work, o));
}

/** Writes `config` to `work`/nginx.conf and starts nginx on it; `stop()` stops it (safe to call twice). */
function runNginx(work: string, config: string): { stop(): void } {
  if (!NGINX) throw new Error('nginx is missing; `npm run setup` installs it (as root, via apt)');
  const conf = path.join(work, 'nginx.conf');
  fs.writeFileSync(conf, config);
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
