// The state behind the mail account form (spec 001 §4 "Mail account save"): the fields, what
// detection fills in (never a field the user edited), accepted certificates, and the test and
// save actions with their outcome.
//
// Saving is POST /api/auth/login: the server checks both servers and saves only when both work,
// so a failure means nothing was saved. On success a confirmation shows for 3 s (a toast, which
// outlives the page, and the form's own notice) and the user goes to the inbox after 1.5 s.
//
// "Detect provider" (detectNow) asks about the typed address on demand: a known provider's
// servers, ports and SSL replace whatever the fields hold (the user asked for them); a guess from
// the domain fills nothing (spec 001 §4) but is said in the status line.
//
// The household's settings (spec 001 §2, §4): an admin saves the form for all users
// (saveForAll, which needs the address and the password); anyone can have the form show the
// global settings' servers (fillFromGlobal, never a password) and connect with them on the
// server (connectWithGlobal), which ends like a save.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { ApiError, errorMessage } from '../../api/client';
import { isMailKey } from '../../api/keys';
import { aiKeys } from '../../api/ai';
import { householdKeys, loadGlobalEmail, saveGlobalEmail, type GlobalEmailSettings } from '../../api/household';
import { connectMailbox, testConnection } from '../../api/mail';
import { accountAuth } from '../../api/oauth';
import type { DetectedProvider, MailAccount } from '../../api/types';
import { looksLikeAddress } from '../../lib/address';
import { useToast } from '../../session/Toasts';
import { heSettings } from '../../i18n/settings';
import { heHousehold } from '../../i18n/household';
import {
  DEFAULT_PORT,
  EMPTY_FORM,
  SERVER_FIELDS,
  formOf,
  isConnectionResult,
  pinsOf,
  providerValues,
  serverOf,
  toRequest,
  untrustedOf,
  type Action,
  type Form,
  type Outcome,
  type Pins,
  type ServerField,
} from './mailAccountForm';
import { useProviderDetection } from './useProviderDetection';

const t = heSettings.mail;
const th = heHousehold.mail;

/** What the last "detect provider" click found, for the status line beside the button. */
export type DetectStatus =
  | { kind: 'known'; name: string }
  | { kind: 'guess'; domain: string }
  | { kind: 'error'; message: string };

/** What the form is busy with: a test or save, or the admin's save for all users. */
export type Busy = Action | 'global';

/** Spec 001 §9: the confirmation shows for 3 s; the inbox opens after 1.5 s. */
export const SAVED_TOAST_MS = 3000;
export const REDIRECT_MS = 1500;

export function useMailAccountForm({
  accounts,
  refreshAccounts,
  onGlobalSaved,
}: {
  /** The connected accounts, to know whether the address typed is one (its password is kept). */
  accounts: MailAccount[] | undefined;
  refreshAccounts: () => void;
  /** After the admin's save for all users. */
  onGlobalSaved?: () => void;
}) {
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();

  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const edited = useRef<Set<ServerField>>(new Set());
  const [pins, setPins] = useState<Pins>({});
  const [busy, setBusy] = useState<Busy | null>(null);
  // The form shows the household's settings: their saved password is used, none is typed.
  const [fromGlobal, setFromGlobal] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [detectStatus, setDetectStatus] = useState<DetectStatus | null>(null);
  /** The admin's AI key for the household, sent with "save for all users" (write-only). */
  const [householdKey, setHouseholdKey] = useState('');
  const redirectTimer = useRef<number | undefined>(undefined);
  const savedTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      window.clearTimeout(redirectTimer.current);
      window.clearTimeout(savedTimer.current);
    },
    [],
  );

  // A connected address whose saved password an empty field keeps (an OAuth account has none).
  const connected = accounts?.find(
    (a) => a.email_address.toLowerCase() === form.email.trim().toLowerCase() && accountAuth(a) === 'password',
  );

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

  const onProviderFound = useCallback(
    (found: DetectedProvider) => {
      const values = providerValues(found);
      const untouched = Object.fromEntries(
        SERVER_FIELDS.filter((k) => !edited.current.has(k)).map((k) => [k, values[k]]),
      ) as Partial<Pick<Form, ServerField>>;
      applyServerFields(untouched);
    },
    [applyServerFields],
  );

  const detection = useProviderDetection(form.email, onProviderFound);

  function setEmail(email: string) {
    setForm((f) => ({ ...f, email }));
    setFromGlobal(false);
    setDetectStatus(null);
    if (!looksLikeAddress(email)) detection.reset();
  }

  /** The "detect provider" button: asks now and fills a known provider's servers. */
  async function detectNow() {
    setDetectStatus(null);
    try {
      const found = await detection.detectNow(formRef.current.email);
      if (!found) return; // a newer request took over
      if (found.known) {
        edited.current = new Set();
        applyServerFields(providerValues(found));
        setDetectStatus({ kind: 'known', name: found.name });
      } else {
        setDetectStatus({ kind: 'guess', domain: found.name });
      }
    } catch (err) {
      setDetectStatus({ kind: 'error', message: errorMessage(err) });
    }
  }

  function setPassword(password: string) {
    setForm((f) => ({ ...f, password }));
    setFromGlobal(false);
  }

  function setByHand<K extends ServerField>(field: K, value: Form[K]) {
    edited.current.add(field);
    // Other servers than the household's: its saved password no longer goes with them.
    setFromGlobal(false);
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

  async function run(action: Action, withPins: Pins = pins) {
    if (busy) return;
    // The household's settings as shown: saving connects with them (their password is the server's).
    if (action === 'save' && fromGlobal && !form.password) {
      await connectWithGlobal();
      return;
    }
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
    window.clearTimeout(savedTimer.current);
    setBusy(action);
    try {
      if (action === 'test') {
        const result = await testConnection(toRequest(form, withPins));
        setOutcome({ action, status: 'ok', message: t.testOk, result });
      } else {
        await connectMailbox(toRequest(form, withPins));
        onConnected();
      }
    } catch (err) {
      onFailed(action, err);
    } finally {
      setBusy(null);
    }
  }

  /** A save's success: confirmed for 3 s, the accounts and mail reloaded, the inbox after 1.5 s. */
  function onConnected() {
    setOutcome({ action: 'save', status: 'ok', message: t.saved });
    toast.show('success', t.saved, { duration: SAVED_TOAST_MS });
    savedTimer.current = window.setTimeout(
      () => setOutcome((o) => (o?.action === 'save' && o.status === 'ok' ? null : o)),
      SAVED_TOAST_MS,
    );
    setForm((f) => ({ ...f, password: '' }));
    setFromGlobal(false);
    refreshAccounts();
    void mutate((key) => isMailKey(key));
    redirectTimer.current = window.setTimeout(() => navigate('/Inbox'), REDIRECT_MS);
  }

  function onFailed(action: Action, err: unknown) {
    if (err instanceof ApiError && isConnectionResult(err.body)) {
      setOutcome({ action, status: 'failed', message: t.saveFailed, result: err.body });
    } else {
      setOutcome({ action, status: 'error', message: errorMessage(err) });
    }
  }

  /** The admin's "save for all users": the form as the household's mail settings. */
  async function saveForAll() {
    if (busy) return;
    // Spec 001 §5: both typed (a connected address's saved password is not reused here).
    if (!form.email.trim() || !form.password) {
      setLocalError(th.globalRequired);
      return;
    }
    setLocalError(null);
    setBusy('global');
    try {
      const key = householdKey.trim();
      const res = await saveGlobalEmail({ ...toRequest(form, pins), ...(key ? { claudeApiKey: key } : {}) });
      toast.success(res?.message || th.globalSaved);
      if (key) {
        // Never shown again: the field empties, and "a key is set" is read from the server.
        setHouseholdKey('');
        void mutate(householdKeys.email());
        void mutate(aiKeys.keyExists());
      }
      onGlobalSaved?.();
    } catch (err) {
      toast.error(th.globalSaveFailed(errorMessage(err)));
    } finally {
      setBusy(null);
    }
  }

  /** Shows the household's settings in the form: address, servers, ports; never a password. */
  function fillFromGlobal(s: GlobalEmailSettings) {
    detection.reset(s.email);
    edited.current = new Set();
    setDetectStatus(null);
    window.clearTimeout(savedTimer.current);
    setOutcome(null);
    setLocalError(null);
    setPins({});
    setForm({
      email: s.email,
      password: '',
      imapServer: s.imapServer,
      imapPort: String(s.imapPort),
      imapSsl: s.imapSsl,
      smtpServer: s.smtpServer,
      smtpPort: String(s.smtpPort),
      smtpSsl: s.smtpSsl,
    });
    setFromGlobal(true);
  }

  /** Connects this user's mailbox with the household's settings; ends like a save. */
  async function connectWithGlobal() {
    if (busy) return;
    setLocalError(null);
    setOutcome(null);
    window.clearTimeout(savedTimer.current);
    setBusy('save');
    try {
      await loadGlobalEmail();
      onConnected();
    } catch (err) {
      onFailed('save', err);
    } finally {
      setBusy(null);
    }
  }

  const untrusted = untrustedOf(outcome);

  /** Trusts the certificates the last attempt was refused over, and tries that again. */
  function acceptCertificates() {
    if (!outcome) return;
    const next = { ...pins, ...untrusted };
    setPins(next);
    void run(outcome.action, next);
  }

  /** Fills the form from a connected account, to change its servers or password. */
  function editAccount(a: MailAccount) {
    detection.reset(a.email_address);
    edited.current = new Set();
    setDetectStatus(null);
    window.clearTimeout(savedTimer.current);
    setOutcome(null);
    setLocalError(null);
    setForm(formOf(a));
    setFromGlobal(false);
    setPins(pinsOf(a));
    document.getElementById('mail-password')?.focus();
  }

  return {
    form,
    connected,
    provider: detection.provider,
    detecting: detection.detecting,
    /** Detects at once (on leaving the address field). */
    detect: detection.detect,
    detectNow,
    detectStatus,
    pins,
    untrusted,
    busy,
    outcome,
    localError,
    fromGlobal,
    setEmail,
    setPassword,
    setByHand,
    run,
    acceptCertificates,
    editAccount,
    saveForAll,
    householdKey,
    setHouseholdKey,
    fillFromGlobal,
    connectWithGlobal,
  };
}

export type MailAccountForm = ReturnType<typeof useMailAccountForm>;
