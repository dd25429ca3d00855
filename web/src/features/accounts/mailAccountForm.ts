// The mail account card's form model (spec 001 §4): the fields, their defaults, what provider
// detection fills in, and the request the form becomes. Plain data and functions, no React.

import type { ConnectionResult, DetectedProvider, MailAccount, MailAccountRequest } from '../../api/types';

export type Server = 'imap' | 'smtp';
export type Action = 'test' | 'save';

export interface Form {
  email: string;
  password: string;
  imapServer: string;
  imapPort: string;
  imapSsl: boolean;
  smtpServer: string;
  smtpPort: string;
  smtpSsl: boolean;
}

/** The fields detection may fill; each stays the user's once edited by hand. */
export type ServerField = Exclude<keyof Form, 'email' | 'password'>;

export const SERVER_FIELDS: readonly ServerField[] = ['imapServer', 'imapPort', 'imapSsl', 'smtpServer', 'smtpPort', 'smtpSsl'];

/** Ports by protocol and implicit TLS (without it, STARTTLS when the server offers it). */
export const DEFAULT_PORT: Record<Server, { ssl: string; plain: string }> = {
  imap: { ssl: '993', plain: '143' },
  smtp: { ssl: '465', plain: '587' },
};

/** The port fields' placeholders (spec 001 §2): IMAP over SSL, SMTP submission. */
export const PORT_PLACEHOLDER: Record<Server, string> = { imap: '993', smtp: '587' };

export const EMPTY_FORM: Form = {
  email: '',
  password: '',
  imapServer: '',
  imapPort: DEFAULT_PORT.imap.ssl,
  imapSsl: true,
  smtpServer: '',
  smtpPort: DEFAULT_PORT.smtp.ssl,
  smtpSsl: true,
};

/** Accepted certificate fingerprints by server. */
export type Pins = Partial<Record<Server, string>>;

/** What the last test or save came to. */
export interface Outcome {
  action: Action;
  status: 'ok' | 'failed' | 'error';
  message: string;
  /** Per-server results, when the server got as far as connecting. */
  result?: ConnectionResult;
}

export function isConnectionResult(body: unknown): body is ConnectionResult {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.imap === 'object' && b.imap !== null && typeof b.smtp === 'object' && b.smtp !== null;
}

/** A port as typed: a number when it is one, else the text (the server answers with a Hebrew message). */
function portValue(s: string): number | string {
  const v = s.trim();
  return /^\d+$/.test(v) ? Number(v) : v;
}

export function providerValues(p: DetectedProvider): Pick<Form, ServerField> {
  if (!p.known) {
    // A guess from the domain is not filled in (spec 001 §4); the server uses it for empty fields.
    return { ...pickServerFields(EMPTY_FORM) };
  }
  return {
    imapServer: p.imapServer,
    imapPort: String(p.imapPort),
    imapSsl: p.imapSsl,
    smtpServer: p.smtpServer,
    smtpPort: String(p.smtpPort),
    smtpSsl: p.smtpSsl,
  };
}

function pickServerFields(f: Form): Pick<Form, ServerField> {
  const { imapServer, imapPort, imapSsl, smtpServer, smtpPort, smtpSsl } = f;
  return { imapServer, imapPort, imapSsl, smtpServer, smtpPort, smtpSsl };
}

export function serverOf(field: ServerField): Server {
  return field.startsWith('imap') ? 'imap' : 'smtp';
}

export function toRequest(form: Form, withPins: Pins): MailAccountRequest {
  return {
    email_address: form.email.trim(),
    password: form.password,
    imap_server: form.imapServer.trim(),
    imap_port: portValue(form.imapPort),
    imap_ssl: form.imapSsl,
    smtp_server: form.smtpServer.trim(),
    smtp_port: portValue(form.smtpPort),
    smtp_ssl: form.smtpSsl,
    ...(withPins.imap ? { imap_fingerprint: withPins.imap } : {}),
    ...(withPins.smtp ? { smtp_fingerprint: withPins.smtp } : {}),
  };
}

/** A connected account as the form, to change its servers or password (which is left empty). */
export function formOf(a: MailAccount): Form {
  return {
    email: a.email_address,
    password: '',
    imapServer: a.imap_server,
    imapPort: String(a.imap_port),
    imapSsl: a.imap_ssl,
    smtpServer: a.smtp_server,
    smtpPort: String(a.smtp_port),
    smtpSsl: a.smtp_ssl,
  };
}

/** The certificates a connected account already trusts. */
export function pinsOf(a: MailAccount): Pins {
  return {
    ...(a.imap_fingerprint ? { imap: a.imap_fingerprint } : {}),
    ...(a.smtp_fingerprint ? { smtp: a.smtp_fingerprint } : {}),
  };
}

/** The certificates the last attempt was refused over, by their fingerprints. */
export function untrustedOf(outcome: Outcome | null): Pins {
  const untrusted: Pins = {};
  if (outcome?.result?.imap?.fingerprint) untrusted.imap = outcome.result.imap.fingerprint;
  if (outcome?.result?.smtp?.fingerprint) untrusted.smtp = outcome.result.smtp.fingerprint;
  return untrusted;
}
