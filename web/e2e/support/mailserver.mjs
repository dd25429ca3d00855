// A private Dovecot + Postfix for a suite (scripts/mail-test-server.sh) on free loopback ports,
// with helpers to seed a mailbox, deliver by SMTP and ask doveadm. Users user1..3@example.test,
// passwords pass1..3.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '../../..');
const script = join(repo, 'scripts/mail-test-server.sh');

async function freePort() {
  return new Promise((res, rej) => {
    const srv = net.createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const envLines = (text) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

// A port picked free can be taken by another process before Postfix or Dovecot binds it: then
// start again in a new directory on new ports. `env`: more of the script's settings (e.g.
// MAILTEST_OAUTH2_INTROSPECTION_URL, for Dovecot's oauth2 passdb).
async function startOnFreePorts(extraEnv = {}) {
  let last;
  for (let attempt = 0; attempt < 5; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'mailclient-e2e-mail-'));
    const ports = new Set();
    while (ports.size < 5) ports.add(await freePort());
    const [imap, imaps, smtp, submission, submissions] = [...ports];
    try {
      const out = execFileSync('bash', [script, 'start', dir], {
        env: {
          ...process.env,
          ...extraEnv,
          MAILTEST_IMAP_PORT: String(imap),
          MAILTEST_IMAPS_PORT: String(imaps),
          MAILTEST_SMTP_PORT: String(smtp),
          MAILTEST_SUBMISSION_PORT: String(submission),
          MAILTEST_SUBMISSIONS_PORT: String(submissions),
        },
        encoding: 'utf8',
      });
      return { dir, out, ports: { imap, imaps, smtp, submission, submissions } };
    } catch (e) {
      last = e;
      try {
        execFileSync('bash', [script, 'stop', dir]);
      } catch {
        // Nothing was running.
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw last;
}

/**
 * `env`: more settings for scripts/mail-test-server.sh; `config`: more TOML for mailclient's
 * config file (after its `[mail]` section).
 */
export async function startMailServer({ env: extraEnv = {}, config = () => '' } = {}) {
  const { dir, out, ports } = await startOnFreePorts(extraEnv);
  const { imap, imaps, smtp, submission, submissions } = ports;
  const env = envLines(out);
  const configFile = join(dir, 'mailclient.toml');
  writeFileSync(
    configFile,
    `[mail]\nextra_ca_files = ["${env.MAILTEST_CA}"]\ntimeout_secs = 5\npoll_interval_secs = 10\n` +
      config({ imap, imaps, smtp, submission, submissions }),
  );
  return {
    dir,
    ports: { imap, imaps, smtp, submission, submissions },
    /** Pass to startServer({ args }) so mailclient trusts this server's CA. */
    configArgs: ['--config', configFile],
    seed(user, source, folder = 'INBOX') {
      return envLines(
        execFileSync('bash', [script, 'seed', dir, `${user}@example.test`, source], {
          env: { ...process.env, MAILTEST_SEED_FOLDER: folder },
          encoding: 'utf8',
        }),
      );
    },
    /**
     * Runs doveadm on the test server. A doveadm that meets a delivery (or a client) holding the
     * mailbox's index locks in the other order is refused by the kernel ("Resource deadlock
     * avoided") and panics: that is a reader's transient failure, asked again shortly.
     */
    doveadm(...args) {
      for (let attempt = 1; ; attempt++) {
        try {
          return execFileSync('doveadm', ['-c', join(dir, 'dovecot/dovecot.conf'), ...args], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch (e) {
          if (attempt >= 5 || !String(e.stderr ?? e.message).includes('Resource deadlock avoided')) {
            throw e;
          }
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        }
      }
    },
    /** Delivers `raw` by plain SMTP to the MX port, as an outside sender would. */
    deliver(to, raw) {
      return new Promise((res, rej) => {
        const sock = net.connect(smtp, '127.0.0.1');
        const steps = [
          'EHLO e2e.local',
          'MAIL FROM:<outside@sender.test>',
          `RCPT TO:<${to}>`,
          'DATA',
          raw.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..') + '\r\n.',
          'QUIT',
        ];
        let buf = '';
        sock.setEncoding('utf8');
        sock.on('data', (d) => {
          buf += d;
          // A reply is complete when its last line has a space after the code.
          const lines = buf.split('\r\n').filter(Boolean);
          const last = lines.at(-1);
          if (!last || !/^\d{3} /.test(last)) return;
          buf = '';
          if (!/^[23]/.test(last)) {
            sock.destroy();
            rej(new Error(`SMTP: ${last}`));
            return;
          }
          const next = steps.shift();
          if (next === undefined) {
            sock.end();
            res();
          } else sock.write(next + '\r\n');
        });
        sock.on('error', rej);
      });
    },
    stop() {
      try {
        execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export const fixtures = (name) => join(repo, 'tests/fixtures', name);
