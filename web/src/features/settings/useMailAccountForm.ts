// The state behind the mail account form (spec 001 §4 "Mail account save"): the fields, what
// detection fills in (never a field the user edited), accepted certificates, and the test and
// save actions with their outcome.
//
// Saving is POST /api/auth/login: the server checks both servers and saves only when both work,
// so a failure means nothing was saved. On success a confirmation shows for 3 s and the user goes
// to the inbox after 1.5 s.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { ApiError, errorMessage } from '../../api/client';
import { isMailKey } from '../../api/keys';
import { connectMailbox, testConnection } from '../../api/mail';
import type { DetectedProvider, MailAccount } from '../../api/types';
import { useToast } from '../../app/Toasts';
import { he } from '../../i18n/he';
import {
  DEFAULT_PORT,
  EMPTY_FORM,
  SERVER_FIELDS,
  formOf,
  isConnectionResult,
  looksLikeAddress,
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

const t = he.settings.mail;

/** Spec 001 §9: the confirmation shows for 3 s; the inbox opens after 1.5 s. */
export const SAVED_TOAST_MS = 3000;
export const REDIRECT_MS = 1500;

export function useMailAccountForm({
  accounts,
  refreshAccounts,
}: {
  /** The connected accounts, to know whether the address typed is one (its password is kept). */
  accounts: MailAccount[] | undefined;
  refreshAccounts: () => void;
}) {
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();

  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const edited = useRef<Set<ServerField>>(new Set());
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
    if (!looksLikeAddress(email)) detection.reset();
  }

  function setPassword(password: string) {
    setForm((f) => ({ ...f, password }));
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
        const result = await testConnection(toRequest(form, withPins));
        setOutcome({ action, status: 'ok', message: t.testOk, result });
      } else {
        await connectMailbox(toRequest(form, withPins));
        setOutcome({ action, status: 'ok', message: t.saved });
        toast.show('success', t.saved, { duration: SAVED_TOAST_MS });
        setForm((f) => ({ ...f, password: '' }));
        refreshAccounts();
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
    setOutcome(null);
    setLocalError(null);
    setForm(formOf(a));
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
    pins,
    untrusted,
    busy,
    outcome,
    localError,
    setEmail,
    setPassword,
    setByHand,
    run,
    acceptCertificates,
    editAccount,
  };
}

export type MailAccountForm = ReturnType<typeof useMailAccountForm>;
