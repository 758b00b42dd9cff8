// A small static server for the benchmark page: the repository root, read-only, on
// 127.0.0.1 and a free port, limited to the folders the page loads from. Prints its URL on
// the first line of stdout; scripts/bench reads it and stops the server when done.
//   node bench/serve.mjs
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const allowed = [
  'bench/browser/',
  'build/bench/',
  'dist/',
  'node_modules/onnxruntime-web/dist/',
  'node_modules/@tensorflow/tfjs-backend-wasm/dist/',
];
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  // instantiateStreaming insists on this type.
  '.wasm': 'application/wasm',
};

const server = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://localhost');
  const relative = path.posix.normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, '');
  const file = path.join(root, relative);
  const fail = (status) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(`${status}\n`);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail(405);
  if (!allowed.some((prefix) => relative.startsWith(prefix)) || !file.startsWith(root)) {
    return fail(404);
  }
  try {
    const info = await stat(file);
    if (!info.isFile()) return fail(404);
    response.writeHead(200, {
      'content-type': types[path.extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') return response.end();
    createReadStream(file).pipe(response);
  } catch {
    fail(404);
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`http://127.0.0.1:${port}/\n`);
});
// scripts/bench stops the server with SIGTERM; exit quietly.
process.on('SIGTERM', () => server.close(() => process.exit(0)));
