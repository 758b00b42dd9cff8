// The apps of tests/apps: the packed package installed offline into build/apps/, one folder
// per setup holding a copy of examples/bundler (the app, its index.html, and the only config
// files the recipes use: vite.config.js, webpack.config.js), and each setup's build, run as
// the README's "Bundlers" section tells a developer (the same commands; the bundlers are this
// repository's exact-pinned dev dependencies).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const EXAMPLE = join(repo, 'examples', 'bundler');
const APP_FILES = [
  'main.js',
  'index.html',
  'importmap.html',
  'vite.config.js',
  'webpack.config.js',
];

/**
 * The one line an esbuild or Rollup app adds (README.md, "Bundlers"): these bundlers leave
 * new URL(…, import.meta.url) and new Worker(new URL(…)) as they are, so the files those name
 * are copied beside the bundle, where the URLs point.
 */
export const copyLine = (folder) =>
  `cp node_modules/attention-explained/dist/{*.wasm,*worker.mjs,attention-threads.mjs} ${folder}/`;

/** Every file under `folder`, as full paths. */
export async function filesUnder(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Packs the package, installs the tarball offline into a fresh build/apps/ and makes one app
 * folder per setup; resolves to { root, app(name) }.
 */
export async function prepareApps() {
  const root = join(repo, 'build', 'apps');
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  // Under scripts/build's lock, so a concurrent build cannot hand npm a half-written dist/.
  const pack = ['npm', 'pack', '--json', '--pack-destination', root];
  const lock = join(repo, 'build/.lock');
  const packed = existsSync(lock)
    ? await run('flock', [lock, ...pack], { cwd: repo })
    : await run(pack[0], pack.slice(1), { cwd: repo });
  const [{ filename }] = JSON.parse(packed.stdout);
  const manifest = { name: 'apps', private: true, type: 'module' };
  await writeFile(join(root, 'package.json'), JSON.stringify(manifest, null, 2));
  // Offline, with an empty private cache: the tarball must install with no registry at all.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(root, filename)], {
    cwd: root,
    env: { ...process.env, npm_config_cache: join(root, 'npm-cache') },
  });
  const app = (name) => join(root, name);
  for (const name of [...RECIPES.map((recipe) => recipe.name), 'vite-dev']) {
    await mkdir(app(name));
    await Promise.all(
      APP_FILES.map((file) => copyFile(join(EXAMPLE, file), join(app(name), file))),
    );
    await writeFile(join(app(name), 'package.json'), JSON.stringify(manifest, null, 2));
    // As in an app's own folder: node_modules beside the app (one install shared).
    await symlink(join(root, 'node_modules'), join(app(name), 'node_modules'));
  }
  return { root, app };
}

/** A build whose output folder is also what is served: { folder, served, serveRoot, page }. */
const servedAsBuilt = (folder) => ({ folder, served: (name) => name, serveRoot: folder, page: '' });

/**
 * Each setup: its name, what its recipe is, what the app needed beyond its code, and
 * build(work) -> { folder (the files to measure), served(name) (a file's URL path), serveRoot,
 * page (the page's URL path), web (a web build: checked for Node-only files) }.
 */
export const RECIPES = [
  {
    name: 'vite',
    summary: 'vite build, the default config',
    needed: 'nothing',
    async build(work) {
      await run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: work.app('vite') });
      return { ...servedAsBuilt(join(work.app('vite'), 'dist')), web: true };
    },
  },
  {
    name: 'webpack',
    summary: 'webpack 5, one entry and HtmlWebpackPlugin',
    needed: 'nothing',
    async build(work) {
      await run(bin('webpack'), ['--mode', 'production'], { cwd: work.app('webpack') });
      return { ...servedAsBuilt(join(work.app('webpack'), 'dist')), web: true };
    },
  },
  {
    name: 'esbuild',
    summary: 'esbuild main.js --bundle --format=esm --outdir=public',
    needed: `one line: ${copyLine('public')}`,
    async build(work) {
      const cwd = work.app('esbuild');
      await run(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--outdir=public', '--log-level=warning'], { cwd }); // prettier-ignore
      await run('bash', ['-c', `${copyLine('public')} && cp index.html public/`], { cwd });
      return { ...servedAsBuilt(join(cwd, 'public')), web: true };
    },
  },
  {
    name: 'rollup',
    summary: 'rollup main.js --format es --dir dist -p node-resolve',
    needed: `one line: ${copyLine('dist')}`,
    async build(work) {
      const cwd = work.app('rollup');
      await run(bin('rollup'), ['main.js', '--format', 'es', '--dir', 'dist', '-p', 'node-resolve', '--silent'], { cwd }); // prettier-ignore
      await run('bash', ['-c', `${copyLine('dist')} && cp index.html dist/`], { cwd });
      return { ...servedAsBuilt(join(cwd, 'dist')), web: true };
    },
  },
  {
    name: 'importmap',
    summary: 'no bundler: importmap.html maps the names to node_modules',
    needed: 'the import map in the page (no build)',
    async build(work) {
      const folder = join(work.app('importmap'), 'node_modules/attention-explained/dist');
      return {
        folder,
        served: (name) => `node_modules/attention-explained/dist/${name}`,
        serveRoot: work.app('importmap'),
        page: 'importmap.html',
        web: false, // the installed package, Node's files included; nothing was built
      };
    },
  },
];

/** A free TCP port on the loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Vite's dev server on the app (its vite.config.js): { url, close() }. */
export async function startViteDev(work) {
  const { createServer } = await import('vite');
  const port = await freePort();
  const server = await createServer({
    root: work.app('vite-dev'),
    server: { host: '127.0.0.1', port, strictPort: true },
    logLevel: 'warn',
    clearScreen: false,
  });
  await server.listen();
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}
