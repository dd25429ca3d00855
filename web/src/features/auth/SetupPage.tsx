// First run (docs/API.md "First run"): the server prints a console link `#/setup?token=…`.
// This page creates the first admin with that token, then hands over to the login screen.
// It sits outside the shared layout and needs no session.

import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { ApiError, api, errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import type { SetupAdminRequest, SetupAdminResponse, SetupStatusResponse } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { SubmitButton, TextField } from '../../components/Field';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { he } from '../../i18n/he';
import { heSetup } from '../../i18n/setup';
import { passwordFormProblem } from '../../lib/passwords';
import type { LoginLocationState } from './LoginPage';
import { AuthCard } from './AuthCard';
import { useSubmit } from '../../components/useSubmit';

export function validateSetup(f: {
  name: string;
  username: string;
  password: string;
  confirm: string;
}): string | null {
  const empty = !f.name.trim() || !f.username.trim() || !f.password || !f.confirm;
  return passwordFormProblem(empty, f.password, f.confirm, heSetup.required);
}

export default function SetupPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // Fetched without a token: a signed-in user's stale token must not turn this into a 401.
  const status = useSWR<SetupStatusResponse>(
    keys.setupStatus(),
    () => api<SetupStatusResponse>(keys.setupStatus(), { auth: false }),
    { revalidateOnFocus: false },
  );

  let body;
  if (status.error) {
    body = (
      <>
        <p className="notice notice--error" role="alert">
          {heSetup.statusFailed} {errorMessage(status.error)}
        </p>
        <button type="button" className="button" onClick={() => void status.mutate()}>
          {heSetup.retry}
        </button>
      </>
    );
  } else if (!status.data) {
    body = <p role="status">{heSetup.checking}</p>;
  } else if (!status.data.needsSetup) {
    body = <SetupDone />;
  } else {
    // A 409 on submit means someone finished setup meanwhile: show the "already done" view.
    const onAlreadyDone = () => void status.mutate({ needsSetup: false }, { revalidate: false });
    body = <SetupForm token={token} onAlreadyDone={onAlreadyDone} />;
  }

  return (
    <AuthCard title={heSetup.title} wide>
      {body}
    </AuthCard>
  );
}

function SetupDone() {
  return (
    <>
      <p className="notice notice--info" role="status" data-testid="setup-done">
        {heSetup.alreadyDone}
      </p>
      <Link className="button button--primary button--block" to="/login">
        {heSetup.goToLogin}
      </Link>
    </>
  );
}

function SetupForm({ token, onAlreadyDone }: { token: string; onAlreadyDone: () => void }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { submitting, error, submit } = useSubmit();

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    void submit(e, validateSetup({ name, username, password, confirm }), send);
  }

  // A 403 (wrong token) or 400 (invalid fields): the server's Hebrew message says which.
  async function send() {
    try {
      const body: SetupAdminRequest = { token, name: name.trim(), username: username.trim(), password };
      const res = await api<SetupAdminResponse>('/api/setup/admin', {
        method: 'POST',
        auth: false,
        body,
      });
      if (!res?.success) throw new ApiError(500, he.errors.server);
      toast.success(heSetup.created);
      const state: LoginLocationState = {
        notice: heSetup.created,
        username: res.user?.username ?? username.trim(),
      };
      navigate('/login', { replace: true, state });
    } catch (err) {
      // Someone finished setup meanwhile: the "already done" view.
      if (err instanceof ApiError && err.status === 409) onAlreadyDone();
      else throw err;
    }
  }

  return (
    <>
      <p className="auth-card__subtitle">{heSetup.intro}</p>
      {!token && (
        <p className="notice notice--warning" role="note" data-testid="setup-missing-token">
          {heSetup.missingToken}
        </p>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          id="setup-name"
          label={heSetup.name}
          name="name"
          type="text"
          autoComplete="name"
          required
          disabled={submitting}
          value={name}
          onValueChange={setName}
        />
        <TextField
          id="setup-username"
          verbatim
          label={heSetup.username}
          hint={heSetup.usernameHint}
          name="username"
          type="text"
          autoComplete="username"
          required
          disabled={submitting}
          value={username}
          onValueChange={setUsername}
        />
        <NewPasswordFields
          password={{
            id: 'setup-password',
            label: heSetup.password,
            hint: heSetup.passwordHint,
            name: 'password',
            value: password,
            onValueChange: setPassword,
          }}
          confirm={{
            id: 'setup-confirm',
            label: heSetup.confirmPassword,
            name: 'confirm',
            value: confirm,
            onValueChange: setConfirm,
          }}
          disabled={submitting}
          error={error}
          errorTestId="setup-error"
        />
        <SubmitButton
          busy={submitting}
          busyLabel={heSetup.submitting}
          className="button--block"
          disabled={submitting}
          testId="setup-submit"
        >
          {heSetup.submit}
        </SubmitButton>
      </form>
    </>
  );
}
