// A small static file server, for scripts/serve (dist/, or any folder) and for the tests:
// correct MIME types (application/wasm lets browsers compile while downloading), no directory
// listing, nothing served from outside the root. Run as scripts/serve [root] (PORT, HOST from env).
import { createServer } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
};

/**
 * Serves `root`; resolves to { server, url } once listening. Port 0 picks a free port.
 * `headers` go with every response, or `headersFor(pathname)`'s where given (tests of a file
 * served without the page's headers); paths in `block` answer 404 (tests of failed loads).
 */
export function startServer({
  root,
  port = 0,
  host = '127.0.0.1',
  headers = {},
  headersFor = () => headers,
  block = [],
}) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end('bad request');
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    if (block.includes(pathname)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const file = normalize(join(base, pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    let stats;
    try {
      stats = statSync(file);
    } catch {
      stats = null;
    }
    if (!stats || !stats.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MIME_TYPES[extname(file)] || 'application/octet-stream',
      'Content-Length': stats.size,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ...headersFor(pathname),
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePromise({ server, url: `http://${host}:${address.port}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] || 'dist';
  const port = Number(process.env.PORT || 8080);
  const host = process.env.HOST || '127.0.0.1';
  // The page's own Content-Security-Policy (web/build.mjs writes it), sent as a header too.
  const cspFile = join(root, 'csp-header.txt');
  const headers = existsSync(cspFile)
    ? { 'Content-Security-Policy': readFileSync(cspFile, 'utf8').trim() }
    : {};
  startServer({ root, port, host, headers }).then(
    ({ url }) => console.log(`Serving ${root}/ at ${url}  (Ctrl+C stops)`),
    (error) => {
      console.error(`serve: cannot listen on ${host}:${port}: ${error.message}`);
      process.exit(1);
    },
  );
}
