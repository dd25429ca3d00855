// Starts the real `mailclient serve` on a temp data dir (or one the caller prepared with the
// command line: `cli`) and a free loopback port, waits for the health check, and hands back its
// URL and first-run setup link. Stopped by PID.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** What `serve` prints before the path of the first-run link's file. */
const SETUP_LINK_IS_IN = 'The one-time link to create the first admin is in ';

export function binaryPath() {
  return process.env.E2E_MAILCLIENT_BIN ?? resolve(here, '../../../target/debug/mailclient');
}

/** Only this test's settings reach the binary: no stray MAILCLIENT_* from the caller. */
function binaryEnv() {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('MAILCLIENT_')),
  );
  env.RUST_LOG = process.env.E2E_RUST_LOG ?? 'warn';
  return env;
}

/** A fresh temp data dir, for `cli` before `startServer({ dataDir })`; removed by `stop()`. */
export function newDataDir() {
  return mkdtempSync(join(tmpdir(), 'mailclient-e2e-'));
}

/**
 * Runs a command of the binary on `dataDir` (while no `serve` holds it: the store allows one
 * process), e.g. `cli(dir, 'user', 'add', 'dana', …)` or `cli(dir, 'import', path, '--user', 'dana')`.
 * Returns its stdout; throws with its stderr when it fails.
 */
export function cli(dataDir, ...args) {
  return execFileSync(binaryPath(), ['--data-dir', dataDir, ...args], {
    env: binaryEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * `listen`: the address (a free loopback port by default; a restart takes the same again).
 * `dataDir`: a directory made by `newDataDir()` and filled with `cli` (users, imported mail);
 * without it, an empty temp dir. Either way `stop()` removes it. A store that already has a
 * user prints no setup link (`setupLink` is then undefined).
 */
export async function startServer({ args = [], dataDir = newDataDir(), listen = '127.0.0.1:0' } = {}) {
  const env = binaryEnv();
  const child = spawn(
    binaryPath(),
    ['serve', '--listen', listen, '--data-dir', dataDir, ...args],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  const exited = new Promise((res) => child.once('exit', (code) => res(code)));

  const deadline = Date.now() + 20_000;
  let base;
  while (!base) {
    base = lines.map((l) => l.match(/^mailclient listening on (\S+)/)?.[1]).find(Boolean);
    if (base) break;
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('serve did not start');
    await sleep(50);
  }
  while (true) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok && (await res.json()).status === 'ok') break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('health check never answered');
    await sleep(50);
  }
  // Printed on a terminal; here (stdout is a pipe) `serve` writes it to a 0600 file and prints
  // the file's path.
  const printed = lines.find((l) => l.includes('/#/setup?token='))?.trim();
  const fileLine = lines.find((l) => l.includes(SETUP_LINK_IS_IN));
  const setupLink =
    printed ??
    (fileLine
      ? readFileSync(fileLine.split(SETUP_LINK_IS_IN)[1].split(' (')[0].trim(), 'utf8').trim()
      : undefined);

  return {
    base,
    setupLink,
    dataDir,
    /** Stops the server; `keepData` leaves its store for a restart (`restart`). */
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
    /** The same store on the same address again (after `stop({ keepData: true })`): a server back. */
    restart() {
      return startServer({ args, dataDir, listen: new URL(base).host });
    },
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Creates the first admin through the printed setup link's token, over the API. */
export async function createFirstAdmin(server, { username, name, password }) {
  const token = new URL(server.setupLink.replace('/#/', '/')).searchParams.get('token');
  const res = await fetch(`${server.base}/api/setup/admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token, username, name, password }),
  });
  if (!res.ok) throw new Error(`setup failed: ${res.status} ${await res.text()}`);
}
