// "חשבון הדואר" (spec 001 §2 "Mail account card", §4 "Mail account save", "Provider detection"):
// the form that connects a mailbox (IMAP + SMTP), the provider detected from the address, a
// connection test with a result per server, accepting an untrusted certificate by its
// fingerprint, and the list of connected mailboxes with their sync state.
//
// Saving is POST /api/auth/login: the server checks both servers and saves only when both work,
// so a failure means nothing was saved. On success a confirmation shows for 3 s and the user goes
// to the inbox after 1.5 s.

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { ApiError, errorMessage } from '../../api/client';
import { isMailKey } from '../../api/keys';
import { connectMailbox, detectProvider, disconnectMailbox, syncNow, testConnection } from '../../api/mail';
import type { ConnectionResult, DetectedProvider, MailAccount, MailAccountRequest, ServerCheck } from '../../api/types';
import { useToast } from '../../app/Toasts';
import { CheckboxField, TextField } from '../../components/Field';
import { CheckIcon } from '../../components/icons';
import { isBusy, useMailAccounts } from '../accounts/useMailAccounts';
import { he } from '../../i18n/he';
import { formatDateTime } from '../../lib/dates';
import { ConfirmDialog } from './ConfirmDialog';

const t = he.settings.mail;

/** Spec 001 §9: the confirmation shows for 3 s; the inbox opens after 1.5 s. */
export const SAVED_TOAST_MS = 3000;
export const REDIRECT_MS = 1500;
/** Detection runs this long after the last keystroke in the address (and at once on blur). */
const DETECT_DELAY_MS = 500;

type Server = 'imap' | 'smtp';
type Action = 'test' | 'save';

interface Form {
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
type ServerField = Exclude<keyof Form, 'email' | 'password'>;

const SERVER_FIELDS: readonly ServerField[] = ['imapServer', 'imapPort', 'imapSsl', 'smtpServer', 'smtpPort', 'smtpSsl'];

/** Ports by protocol and implicit TLS (without it, STARTTLS when the server offers it). */
const DEFAULT_PORT: Record<Server, { ssl: string; plain: string }> = {
  imap: { ssl: '993', plain: '143' },
  smtp: { ssl: '465', plain: '587' },
};

const EMPTY_FORM: Form = {
  email: '',
  password: '',
  imapServer: '',
  imapPort: DEFAULT_PORT.imap.ssl,
  imapSsl: true,
  smtpServer: '',
  smtpPort: DEFAULT_PORT.smtp.ssl,
  smtpSsl: true,
};

type Pins = Partial<Record<Server, string>>;

interface Outcome {
  action: Action;
  status: 'ok' | 'failed' | 'error';
  message: string;
  /** Per-server results, when the server got as far as connecting. */
  result?: ConnectionResult;
}

function looksLikeAddress(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim());
}

function isConnectionResult(body: unknown): body is ConnectionResult {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.imap === 'object' && b.imap !== null && typeof b.smtp === 'object' && b.smtp !== null;
}

/** A port as typed: a number when it is one, else the text (the server answers with a Hebrew message). */
function portValue(s: string): number | string {
  const v = s.trim();
  return /^\d+$/.test(v) ? Number(v) : v;
}

function providerValues(p: DetectedProvider): Pick<Form, ServerField> {
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

function serverOf(field: ServerField): Server {
  return field.startsWith('imap') ? 'imap' : 'smtp';
}

export function MailAccountCard() {
  const { accounts, failed, error: accountsError, mutate: mutateAccounts } = useMailAccounts();
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();

  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const edited = useRef<Set<ServerField>>(new Set());
  const [provider, setProvider] = useState<DetectedProvider | null>(null);
  const [detecting, setDetecting] = useState(false);
  const lastDetected = useRef('');
  const detectSeq = useRef(0);
  const [pins, setPins] = useState<Pins>({});
  const [busy, setBusy] = useState<Action | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const connected = accounts?.find((a) => a.email_address.toLowerCase() === form.email.trim().toLowerCase());

  const formRef = useRef(form);
  formRef.current = form;

  /** Sets server fields, dropping an accepted certificate when its server or port changes. */
  const applyServerFields = useCallback((values: Partial<Pick<Form, ServerField>>) => {
    const current = formRef.current;
    const changed = (k: ServerField) => k in values && values[k] !== current[k];
    const dropImap = changed('imapServer') || changed('imapPort');
    const dropSmtp = changed('smtpServer') || changed('smtpPort');
    if (dropImap || dropSmtp) {
      setPins((p) => {
        const out = { ...p };
        if (dropImap) delete out.imap;
        if (dropSmtp) delete out.smtp;
        return out;
      });
    }
    setForm((f) => ({ ...f, ...values }));
  }, []);

  const runDetect = useCallback(
    async (email: string) => {
      const address = email.trim();
      if (!looksLikeAddress(address) || address.toLowerCase() === lastDetected.current) return;
      lastDetected.current = address.toLowerCase();
      const seq = ++detectSeq.current;
      setDetecting(true);
      try {
        const res = await detectProvider(address);
        if (seq !== detectSeq.current) return;
        const found = res?.provider;
        if (!found) return;
        setProvider(found);
        const values = providerValues(found);
        const untouched = Object.fromEntries(
          SERVER_FIELDS.filter((k) => !edited.current.has(k)).map((k) => [k, values[k]]),
        ) as Partial<Pick<Form, ServerField>>;
        applyServerFields(untouched);
      } catch {
        // An address the server cannot read: nothing to fill in; saving will say what is wrong.
        if (seq === detectSeq.current) setProvider(null);
      } finally {
        if (seq === detectSeq.current) setDetecting(false);
      }
    },
    [applyServerFields],
  );

  // Typing an address triggers detection once the user pauses.
  useEffect(() => {
    if (!looksLikeAddress(form.email)) return;
    const timer = window.setTimeout(() => void runDetect(form.email), DETECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [form.email, runDetect]);

  function setEmail(email: string) {
    setForm((f) => ({ ...f, email }));
    if (!looksLikeAddress(email)) {
      setProvider(null);
      lastDetected.current = '';
      detectSeq.current++;
      setDetecting(false);
    }
  }

  function setByHand<K extends ServerField>(field: K, value: Form[K]) {
    edited.current.add(field);
    const values: Partial<Pick<Form, ServerField>> = { [field]: value };
    // Turning implicit TLS on or off moves a port still at its default to the other default.
    if (field === 'imapSsl' || field === 'smtpSsl') {
      const server = serverOf(field);
      const portField = server === 'imap' ? 'imapPort' : 'smtpPort';
      const defaults = DEFAULT_PORT[server];
      const current = form[portField];
      if (current === (value ? defaults.plain : defaults.ssl)) values[portField] = value ? defaults.ssl : defaults.plain;
    }
    applyServerFields(values);
  }

  function request(withPins: Pins): MailAccountRequest {
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

  async function run(action: Action, withPins: Pins = pins) {
    if (busy) return;
    if (!form.email.trim()) {
      setLocalError(t.emailRequired);
      return;
    }
    // An empty password reuses the saved one, which exists only for a connected address.
    if (!form.password && !connected) {
      setLocalError(t.passwordRequired);
      return;
    }
    setLocalError(null);
    setOutcome(null);
    setBusy(action);
    try {
      if (action === 'test') {
        const result = await testConnection(request(withPins));
        setOutcome({ action, status: 'ok', message: t.testOk, result });
      } else {
        await connectMailbox(request(withPins));
        setOutcome({ action, status: 'ok', message: t.saved });
        toast.show('success', t.saved, { duration: SAVED_TOAST_MS });
        setForm((f) => ({ ...f, password: '' }));
        void mutateAccounts();
        void mutate((key) => isMailKey(key));
        redirectTimer.current = window.setTimeout(() => navigate('/Inbox'), REDIRECT_MS);
      }
    } catch (err) {
      if (err instanceof ApiError && isConnectionResult(err.body)) {
        setOutcome({ action, status: 'failed', message: t.saveFailed, result: err.body });
      } else {
        setOutcome({ action, status: 'error', message: errorMessage(err) });
      }
    } finally {
      setBusy(null);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void run('save');
  }

  function acceptCertificates(untrusted: Pins) {
    if (!outcome) return;
    const next = { ...pins, ...untrusted };
    setPins(next);
    void run(outcome.action, next);
  }

  /** Fills the form from a connected account, to change its servers or password. */
  function editAccount(a: MailAccount) {
    detectSeq.current++;
    lastDetected.current = a.email_address.toLowerCase();
    edited.current = new Set();
    setProvider(null);
    setDetecting(false);
    setOutcome(null);
    setLocalError(null);
    setForm({
      email: a.email_address,
      password: '',
      imapServer: a.imap_server,
      imapPort: String(a.imap_port),
      imapSsl: a.imap_ssl,
      smtpServer: a.smtp_server,
      smtpPort: String(a.smtp_port),
      smtpSsl: a.smtp_ssl,
    });
    setPins({
      ...(a.imap_fingerprint ? { imap: a.imap_fingerprint } : {}),
      ...(a.smtp_fingerprint ? { smtp: a.smtp_fingerprint } : {}),
    });
    document.getElementById('mail-password')?.focus();
  }

  const untrusted: Pins = {};
  if (outcome?.result?.imap?.fingerprint) untrusted.imap = outcome.result.imap.fingerprint;
  if (outcome?.result?.smtp?.fingerprint) untrusted.smtp = outcome.result.smtp.fingerprint;
  const disabled = busy !== null;

  return (
    <section className="card" aria-labelledby="mail-account-title" data-testid="mail-account-card">
      <h2 id="mail-account-title" className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>

      <ConnectedAccounts
        accounts={accounts}
        failed={failed}
        error={accountsError}
        onRetry={() => void mutateAccounts()}
        onEdit={editAccount}
        onChanged={async () => {
          await mutateAccounts();
          await mutate((key) => isMailKey(key));
        }}
      />

      <form className="form mail-form" onSubmit={onSubmit} noValidate aria-labelledby="mail-form-title">
        <h3 id="mail-form-title" className="card__subtitle">
          {t.formTitle}
        </h3>
        <div className="form-grid">
          <TextField
            id="mail-email"
            label={t.email}
            type="email"
            dir="ltr"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t.emailPlaceholder}
            required
            disabled={disabled}
            value={form.email}
            onValueChange={setEmail}
            onBlur={() => void runDetect(form.email)}
          />
          <TextField
            id="mail-password"
            label={t.password}
            hint={connected ? t.passwordKeepHint : t.passwordHint}
            type="password"
            dir="ltr"
            autoComplete="current-password"
            disabled={disabled}
            value={form.password}
            onValueChange={(password) => setForm((f) => ({ ...f, password }))}
          />
        </div>

        <ProviderHint provider={provider} detecting={detecting} />

        <div className="mail-servers">
          {(['imap', 'smtp'] as const).map((server) => (
            <ServerFields
              key={server}
              server={server}
              form={form}
              guess={provider && !provider.known ? provider[`${server}Server`] : undefined}
              disabled={disabled}
              onChange={setByHand}
            />
          ))}
        </div>
        <p className="field__hint">{t.sslHint}</p>

        {localError && (
          <p className="notice notice--error" role="alert" data-testid="mail-error">
            {localError}
          </p>
        )}

        {outcome && <OutcomeView outcome={outcome} />}

        {outcome && (untrusted.imap || untrusted.smtp) && (
          <CertificateWarning untrusted={untrusted} busy={disabled} onAccept={() => acceptCertificates(untrusted)} />
        )}

        {(pins.imap || pins.smtp) && !(untrusted.imap || untrusted.smtp) && (
          <p className="field__hint" data-testid="mail-pinned">
            {t.certPinned}:{' '}
            {(['imap', 'smtp'] as const).map(
              (s) =>
                pins[s] && (
                  <bdi key={s} dir="ltr" className="fingerprint fingerprint--inline">
                    {t.pinnedFor(s, pins[s])}{' '}
                  </bdi>
                ),
            )}
          </p>
        )}

        <div className="form__actions">
          <button
            type="button"
            className="button"
            disabled={disabled || !form.email.trim()}
            onClick={() => void run('test')}
            data-testid="mail-test"
          >
            {busy === 'test' ? t.testing : t.test}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={disabled || !form.email.trim()}
            data-testid="mail-save"
          >
            {busy === 'save' ? t.saving : t.save}
          </button>
        </div>
      </form>
    </section>
  );
}

function ProviderHint({ provider, detecting }: { provider: DetectedProvider | null; detecting: boolean }) {
  if (detecting && !provider) {
    return (
      <p className="field__hint" role="status" data-testid="mail-provider">
        {t.detecting}
      </p>
    );
  }
  if (!provider) return null;
  if (!provider.known) {
    return (
      <p className="notice notice--info mail-provider" role="status" data-testid="mail-provider">
        {/* One inline run: the notice lays out its children as blocks. */}
        <span>
          {t.guessed} <bdi dir="ltr">{provider.imapServer}</bdi> · <bdi dir="ltr">{provider.smtpServer}</bdi>
        </span>
      </p>
    );
  }
  return (
    <div className="notice notice--info mail-provider" role="status" data-testid="mail-provider">
      <p>
        {t.provider} <bdi className="mail-provider__name">{provider.name}</bdi>
      </p>
      {provider.note && (
        <p className="mail-provider__note" dir="auto" data-testid="mail-provider-note">
          {provider.note}
        </p>
      )}
    </div>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  const { result } = outcome;
  const tone = outcome.status === 'ok' ? 'success' : 'error';
  return (
    <div className="mail-outcome" data-testid="mail-outcome" data-status={outcome.status}>
      <p className={`notice notice--${tone}`} role={outcome.status === 'ok' ? 'status' : 'alert'} data-testid="mail-outcome-message">
        {outcome.message}
      </p>
      {result && (
        <ul className="mail-results">
          <ServerResult server="imap" check={result.imap} />
          <ServerResult server="smtp" check={result.smtp} />
        </ul>
      )}
    </div>
  );
}

function ServerResult({ server, check }: { server: Server; check: ServerCheck | undefined }) {
  const ok = check?.ok === true;
  return (
    <li className={`mail-result ${ok ? 'mail-result--ok' : 'mail-result--failed'}`} data-testid={`mail-result-${server}`} data-ok={ok}>
      <span className="mail-result__server">{t.servers[server]}</span>
      {ok ? (
        <span className="mail-result__status">
          <CheckIcon /> {t.resultOk}
        </span>
      ) : (
        <span className="mail-result__status">
          <strong data-testid={`mail-result-${server}-kind`}>
            {(check?.kind && t.kinds[check.kind]) || t.resultFailed}
          </strong>
          {check?.message && (
            <span className="mail-result__message" dir="auto">
              {check.message}
            </span>
          )}
          {check?.detail && (
            <bdi dir="ltr" className="mail-result__detail">
              {check.detail}
            </bdi>
          )}
        </span>
      )}
    </li>
  );
}

function CertificateWarning({ untrusted, busy, onAccept }: { untrusted: Pins; busy: boolean; onAccept: () => void }) {
  // One server name when both present the same certificate (one host for IMAP and SMTP).
  const same = untrusted.imap && untrusted.smtp && untrusted.imap === untrusted.smtp;
  const rows: [string, string, Server][] = same
    ? [[`${t.servers.imap}, ${t.servers.smtp}`, untrusted.imap!, 'imap']]
    : (['imap', 'smtp'] as const)
        .filter((s) => untrusted[s])
        .map((s) => [t.servers[s], untrusted[s]!, s]);
  return (
    <div className="notice notice--warning cert-warning" role="alert" data-testid="mail-fingerprint">
      <p className="cert-warning__title">{t.certTitle}</p>
      <p>{t.certExplain}</p>
      {rows.map(([label, fp, s]) => (
        <div key={s} className="cert-warning__row">
          <span>{t.certFingerprint(label)}</span>
          <code dir="ltr" className="fingerprint" data-testid={`mail-fingerprint-${s}`}>
            {fp}
          </code>
        </div>
      ))}
      <div>
        <button type="button" className="button" disabled={busy} onClick={onAccept} data-testid="mail-accept-cert">
          {t.acceptCert}
        </button>
      </div>
    </div>
  );
}

function ConnectedAccounts({
  accounts,
  failed,
  error,
  onRetry,
  onEdit,
  onChanged,
}: {
  accounts: MailAccount[] | undefined;
  failed: boolean;
  error: unknown;
  onRetry: () => void;
  onEdit: (a: MailAccount) => void;
  onChanged: () => Promise<void>;
}) {
  const toast = useToast();
  const [syncing, setSyncing] = useState(false);
  const [removing, setRemoving] = useState<MailAccount | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);

  async function sync() {
    setSyncing(true);
    try {
      await syncNow();
      toast.info(t.syncRequested);
      await onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSyncing(false);
    }
  }

  async function confirmRemove() {
    const a = removing;
    if (!a) return;
    setRemoveBusy(true);
    try {
      const res = await disconnectMailbox(a.sessionId);
      toast.success(res?.message || t.loggedOut);
      setRemoving(null);
      await onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setRemoveBusy(false);
    }
  }

  let body;
  if (failed) {
    body = (
      <div className="notice notice--error" role="alert" data-testid="mail-accounts-error">
        <p>
          {t.accountsFailed} {errorMessage(error)}
        </p>
        <button type="button" className="link-button" onClick={onRetry}>
          {t.retry}
        </button>
      </div>
    );
  } else if (!accounts) {
    body = (
      <p className="card__status" role="status">
        {t.accountsLoading}
      </p>
    );
  } else if (accounts.length === 0) {
    body = (
      <p className="card__status" data-testid="mail-accounts-empty">
        {t.accountsEmpty}
      </p>
    );
  } else {
    body = (
      <ul className="user-list" aria-label={t.accountsLabel} data-testid="mail-accounts">
        {accounts.map((a) => (
          <AccountRow key={a.id} account={a} onEdit={() => onEdit(a)} onRemove={() => setRemoving(a)} />
        ))}
      </ul>
    );
  }

  return (
    <div className="mail-accounts">
      <div className="mail-accounts__header">
        <h3 className="card__subtitle">{t.accountsTitle}</h3>
        {accounts && accounts.length > 0 && (
          <button type="button" className="button" disabled={syncing} onClick={() => void sync()} data-testid="mail-sync-now">
            {t.syncNow}
          </button>
        )}
      </div>
      {body}
      {removing && (
        <ConfirmDialog
          title={t.logoutTitle}
          confirmLabel={t.logoutYes}
          cancelLabel={t.logoutNo}
          danger
          busy={removeBusy}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            {t.logoutQuestion} <bdi dir="ltr">{removing.email_address}</bdi>?
          </p>
          <p>{t.logoutExplain}</p>
          <p>{t.logoutMailboxSafe}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function AccountRow({ account: a, onEdit, onRemove }: { account: MailAccount; onEdit: () => void; onRemove: () => void }) {
  const sync = a.sync ?? null;
  const state = sync?.state;
  return (
    <li className="user-row" data-testid="mail-account-row" data-email={a.email_address}>
      <div className="user-row__main">
        <div className="user-row__who">
          <bdi dir="ltr" className="user-row__name" data-testid="mail-account-email">
            {a.email_address}
          </bdi>
          <span
            className={`badge badge--sync badge--sync-${state ?? 'stopped'}`}
            data-testid="mail-sync-state"
            data-state={state ?? 'stopped'}
          >
            {state ? (t.syncStates[state] ?? state) : t.syncStopped}
          </span>
        </div>
        <div className="user-row__meta">
          <bdi dir="ltr" className="user-row__username">
            {t.serverLine(`${a.imap_server}:${a.imap_port}`, `${a.smtp_server}:${a.smtp_port}`)}
          </bdi>
        </div>
        <div className="user-row__meta">
          <span className="user-row__date" data-testid="mail-last-sync">
            {t.lastSync} {sync?.lastSync ? formatDateTime(sync.lastSync * 1000) : t.neverSynced}
          </span>
          {isBusy(a) && sync && sync.fetchedMessages > 0 && (
            <span className="user-row__date">{t.fetched(sync.fetchedMessages)}</span>
          )}
        </div>
        {sync?.error && (
          <p className="mail-account__error" dir="auto" data-testid="mail-sync-error">
            {sync.error}
          </p>
        )}
      </div>
      <div className="user-row__actions" role="group" aria-label={t.actionsFor(a.email_address)}>
        <button type="button" className="link-button" onClick={onEdit} data-testid="mail-account-edit">
          {t.edit}
        </button>
        <button type="button" className="link-button link-button--danger" onClick={onRemove} data-testid="mail-logout">
          {t.logout}
        </button>
      </div>
    </li>
  );
}

/** Server, port and implicit-TLS fields of one protocol (IMAP or SMTP). */
function ServerFields({
  server,
  form,
  guess,
  disabled,
  onChange,
}: {
  server: Server;
  form: Form;
  guess: string | undefined;
  disabled: boolean;
  onChange: <K extends ServerField>(field: K, value: Form[K]) => void;
}) {
  const host = `${server}Server` as const;
  const port = `${server}Port` as const;
  const ssl = `${server}Ssl` as const;
  return (
    <>
      <TextField
        id={`mail-${server}-server`}
        label={t[host]}
        dir="ltr"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={guess ?? t[`${server}Placeholder`]}
        disabled={disabled}
        value={form[host]}
        onValueChange={(v) => onChange(host, v)}
      />
      <TextField
        id={`mail-${server}-port`}
        label={t[port]}
        dir="ltr"
        inputMode="numeric"
        autoComplete="off"
        placeholder={DEFAULT_PORT[server].ssl}
        disabled={disabled}
        value={form[port]}
        onValueChange={(v) => onChange(port, v)}
      />
      <CheckboxField
        id={`mail-${server}-ssl`}
        label={t[ssl]}
        disabled={disabled}
        checked={form[ssl]}
        onCheckedChange={(v) => onChange(ssl, v)}
      />
    </>
  );
}
