// WebKit (the engine of Safari and of every iPhone browser) as the cross-engine tests start
// it: Debian's WebKitGTK MiniBrowser driven by its WebKitWebDriver over WebDriver (classic,
// HTTP + JSON), with a small client of its own here. WebKitGTK has no headless mode, so the
// browser draws into a private Xvfb display. Everything runs in fresh temporary folders and is
// stopped by close(), or at the latest when the Node process exits.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MINIBROWSER_PATH = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const WEBDRIVER_PATH = '/usr/bin/WebKitWebDriver';
export const XVFB_PATH = '/usr/bin/Xvfb';

/** The W3C name of the property that carries a web element reference. */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';
const COMMAND_TIMEOUT_MS = 30000;
/** How many times newSession() asks for a window before it gives up. */
const SESSION_ATTEMPTS = 3;

/**
 * Process groups still running and temporary folders still there: killed and removed when
 * Node exits, or is interrupted or terminated, if close() did not run.
 */
const running = new Set();
const folders = new Set();
const killAll = () => {
  for (const pid of running) killGroup(pid);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
};
process.on('exit', killAll);
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
]) {
  process.once(signal, () => {
    killAll();
    process.exit(128 + number);
  });
}

function killGroup(pid, signal = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts `command` in a process group of its own, so that it and its children stop together. */
function startGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  // Kept in `running` after it exits, until stopGroup(): its children may still run.
  running.add(child.pid);
  return child;
}

/** Stops a group started by startGroup(): SIGTERM, then SIGKILL after `graceMs`. */
async function stopGroup(child, graceMs = 2000) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child.pid), graceMs);
    await exited;
    clearTimeout(timer);
  }
  killGroup(child.pid); // whatever of its children outlived it
  running.delete(child.pid);
}

/** A TCP port free on 127.0.0.1 right now (the driver needs a number up front). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts Xvfb on the first free display; resolves to { xvfb, display } once it accepts. */
async function startXvfb({ width, height }) {
  // -displayfd: Xvfb picks a free display number and writes it to fd 3 when it is ready.
  const xvfb = startGroup(
    XVFB_PATH,
    ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let errors = '';
  xvfb.stderr.on('data', (chunk) => (errors += chunk));
  const display = await new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${errors.trim()}`)));
    setTimeout(() => reject(new Error(`Xvfb did not start in 10 s: ${errors.trim()}`)), 10000);
  }).catch(async (error) => {
    await stopGroup(xvfb);
    throw error;
  });
  return { xvfb, display };
}

/** One HTTP command of the WebDriver protocol; resolves to its `value` or throws its error. */
async function command(base, method, path, body) {
  let response;
  let text;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    if (error.name !== 'TimeoutError') throw error;
    // Say which command hung: "the operation was aborted" alone names nothing.
    throw new Error(`WebDriver ${method} ${path}: no answer in ${COMMAND_TIMEOUT_MS / 1000} s`, {
      cause: error,
    });
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`WebDriver ${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  if (!response.ok || json.value?.error) {
    const { error, message } = json.value ?? {};
    throw new Error(`WebDriver ${method} ${path}: ${error}: ${message}`);
  }
  return json.value;
}

/** A WebDriver session: one MiniBrowser window, commands as methods. */
export class WebKitSession {
  constructor(base, id, capabilities) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
    this.onClose = () => {};
  }

  /** Closes the window; its browser process ends with it. */
  async close() {
    this.onClose();
    await this.command('DELETE', '').catch(() => {});
  }

  command(method, path, body) {
    return command(this.base, method, `/session/${this.id}${path}`, body);
  }

  navigate(url) {
    return this.command('POST', '/url', { url });
  }

  setWindowSize(width, height) {
    return this.command('POST', '/window/rect', { width, height });
  }

  /**
   * Runs `source`, the text of a function, with `args` in the page and resolves to its
   * (awaited) result. Elements come back as references for click(); anything else as JSON.
   */
  async execute(source, args = []) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve()
        .then(() => (${source})(...Array.prototype.slice.call(arguments, 0, -1)))
        .then((value) => done({ value }), (error) => done({ error: String(error?.stack ?? error) }));`;
    const result = await this.command('POST', '/execute/async', { script, args });
    if (result?.error) throw new Error(`in the page: ${result.error}`);
    return result?.value;
  }

  /** A mouse click in the middle of an element, as a user's, by its reference. */
  click(element) {
    return this.command('POST', `/element/${element[ELEMENT_KEY]}/click`, {});
  }

  /** Keys as WebDriver's key actions: one keyDown and keyUp each, in order. */
  keys(values) {
    const actions = values.flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    return this.command('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions }],
    });
  }

  /** Holds `modifier` while the keys in `values` are pressed. */
  chord(modifier, values) {
    const actions = [
      { type: 'keyDown', value: modifier },
      ...values.flatMap((value) => [
        { type: 'keyDown', value },
        { type: 'keyUp', value },
      ]),
      { type: 'keyUp', value: modifier },
    ];
    return this.command('POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions }],
    });
  }

  /** The viewport as PNG bytes. */
  async screenshot() {
    return Buffer.from(await this.command('GET', '/screenshot'), 'base64');
  }
}

/** WebDriver's codes for the named keys the tests press (the WebDriver spec's key table). */
export const WEBDRIVER_KEYS = {
  ArrowLeft: '\uE012',
  ArrowRight: '\uE014',
  ArrowUp: '\uE013',
  ArrowDown: '\uE015',
  Home: '\uE011',
  End: '\uE010',
  Enter: '\uE007',
  Tab: '\uE004',
  Escape: '\uE00C',
  Backspace: '\uE003',
  Control: '\uE009',
  Shift: '\uE008',
};

/**
 * Starts WebKitWebDriver on a free port; resolves to { driver, base } once it answers. The
 * port is free when picked but could be taken before the driver binds it: then it exits, and
 * another port is tried.
 */
async function startDriver(environment, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const driver = startGroup(WEBDRIVER_PATH, [`--port=${port}`], {
      env: environment,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    driver.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 10000;
    for (;;) {
      try {
        await command(base, 'GET', '/status');
        return { driver, base };
      } catch (error) {
        if (driver.exitCode === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        await stopGroup(driver);
        if (attempt >= attempts)
          throw new Error(`WebKitWebDriver did not start: ${errors || error.message}`);
        break;
      }
    }
  }
}

/**
 * Starts Xvfb and WebKitWebDriver; newSession() then opens a MiniBrowser window, a WebDriver
 * session (each a new browser process). `reducedMotion`: GTK's "enable animations" off, which
 * WebKitGTK reports to pages as `prefers-reduced-motion: reduce` (WebDriver has no command to
 * emulate it). close() ends every session and stops every process.
 */
export async function launchWebKit({
  reducedMotion = true,
  screen = { width: 1600, height: 1200 },
} = {}) {
  const home = mkdtempSync(join(tmpdir(), 'webkit-profile-'));
  folders.add(home);
  // The browser's settings, data and caches all go to the temporary folder.
  const environment = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_RUNTIME_DIR: join(home, 'runtime'),
  };
  for (const dir of ['config/gtk-3.0', 'data', 'cache', 'runtime'])
    mkdirSync(join(home, dir), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(home, 'config/gtk-3.0/settings.ini'),
    `[Settings]\ngtk-enable-animations=${reducedMotion ? 0 : 1}\n`,
  );
  let xvfb;
  let driver;
  let base;
  const sessions = new Set();
  const close = async () => {
    await Promise.all([...sessions].map((session) => session.close()));
    if (driver) await stopGroup(driver);
    if (xvfb) await stopGroup(xvfb);
    rmSync(home, { recursive: true, force: true });
    folders.delete(home);
  };
  const createSession = () =>
    command(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
        },
      },
    });
  const newSession = async () => {
    let created;
    for (let attempt = 1; !created; attempt++) {
      try {
        created = await createSession();
      } catch (error) {
        // On a loaded machine a new MiniBrowser now and then never reports to the driver, and
        // the driver then answers nothing more. With no other window open, nothing is lost by
        // starting the driver (and its browsers) again and asking once more.
        if (attempt >= SESSION_ATTEMPTS || sessions.size > 0) throw error;
        await stopGroup(driver);
        ({ driver, base } = await startDriver(environment));
      }
    }
    const session = new WebKitSession(base, created.sessionId, created.capabilities);
    sessions.add(session);
    session.onClose = () => sessions.delete(session);
    return session;
  };
  try {
    ({ xvfb, display: environment.DISPLAY } = await startXvfb(screen));
    ({ driver, base } = await startDriver(environment));
    return { newSession, close };
  } catch (error) {
    await close();
    throw error;
  }
}
