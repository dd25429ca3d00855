// The local OAuth2 authorization server of the Rust tests as a process (examples/oauth_stand_in.rs,
// built by `cargo build --example oauth_stand_in`): authorize (approves at once, the user is the
// login_hint), token, device code and its verification page, revoke, introspect (for Dovecot's
// oauth2 passdb), and the controls (/_revoke_user, /_settings, /_stats, /_device_codes).
// Stopped by PID. mailclientOAuthToml() is the [oauth.*] config that points mailclient at it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binaryPath, sleep } from './server.mjs';

export const GOOGLE_CLIENT = 'google-test-client';
export const GOOGLE_SECRET = 'google-test-secret';
export const MICROSOFT_CLIENT = 'microsoft-test-client';

export function standInPath() {
  return process.env.E2E_OAUTH_STAND_IN_BIN ?? join(dirname(binaryPath()), 'examples', 'oauth_stand_in');
}

export async function startOAuthStandIn({ accessTtl = 3600, deviceInterval = 1 } = {}) {
  const bin = standInPath();
  if (!existsSync(bin)) throw new Error(`${bin} missing: cargo build --example oauth_stand_in`);
  const child = spawn(
    bin,
    ['--listen', '127.0.0.1:0', '--access-ttl', String(accessTtl), '--device-interval', String(deviceInterval)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((res) => child.once('exit', res));
  let buffer = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('the OAuth stand-in did not start')), 20_000);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const m = buffer.match(/OAUTH_STAND_IN_URL=(\S+)/);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`the OAuth stand-in exited (${code})`));
    });
  });
  const control = async (path, form) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', body: new URLSearchParams(form) });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
  };
  return {
    url,
    /** Every refresh token of `username` revoked, as when they remove the app's access. */
    revokeUser: (username) => control('/_revoke_user', { username }),
    settings: (form) => control('/_settings', form),
    async stats() {
      return (await fetch(`${url}/_stats`)).json();
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** mailclient's [oauth.google] and [oauth.microsoft], their mailboxes on the test Dovecot/Postfix. */
export function mailclientOAuthToml(standInUrl, ports) {
  const servers =
    `imap_server = "127.0.0.1"\nimap_port = ${ports.imaps}\nimap_ssl = true\n` +
    `smtp_server = "127.0.0.1"\nsmtp_port = ${ports.submissions}\nsmtp_ssl = true\n`;
  return (
    `[oauth.google]\nclient_id = "${GOOGLE_CLIENT}"\nclient_secret = "${GOOGLE_SECRET}"\n` +
    `auth_url = "${standInUrl}/authorize"\ntoken_url = "${standInUrl}/token"\nrevoke_url = "${standInUrl}/revoke"\n${servers}` +
    `[oauth.microsoft]\nclient_id = "${MICROSOFT_CLIENT}"\n` +
    `device_url = "${standInUrl}/devicecode"\ntoken_url = "${standInUrl}/token"\n${servers}`
  );
}
