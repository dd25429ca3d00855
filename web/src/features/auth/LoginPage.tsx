// Login screen (spec 000 §2 "Login screen", §5, §8): shown without the shared layout.
// Success needs BOTH an ok response and `success: true`; anything else is a failure message.

import { useId, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, api } from '../../api/client';
import type { LoginRequest, LoginResponse } from '../../api/types';
import { useAuth } from '../../session/AuthProvider';
import { SubmitButton, TextField } from '../../components/Field';
import { he } from '../../i18n/he';
import { AuthCard } from './AuthCard';

/** What the setup page hands over after creating the first admin. */
export interface LoginLocationState {
  notice?: string;
  username?: string;
}

function loginErrorMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.isNetworkError) return he.errors.network;
    if (e.status === 401) return he.login.invalidCredentials;
    // 429 (throttled) and 400 carry a Hebrew message meant for the user.
    if ((e.status === 429 || e.status === 400) && e.message) return e.message;
  }
  return he.login.failed;
}

export default function LoginPage() {
  const { isAuthenticated, signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const handoff = (location.state ?? {}) as LoginLocationState;
  const [username, setUsername] = useState(handoff.username ?? '');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  if (isAuthenticated && !submitting) return <Navigate to="/inbox" replace />;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    setError(null);
    setSubmitting(true);
    try {
      const body: LoginRequest = { username: username.trim(), password };
      const res = await api<LoginResponse>('/api/app/login', {
        method: 'POST',
        body,
        auth: false,
      });
      if (res?.success === true && res.token && res.user) {
        signIn(res.token, res.user);
        navigate('/inbox', { replace: true });
        return;
      }
      setError(he.login.invalidCredentials);
    } catch (err) {
      setError(loginErrorMessage(err));
    }
    setSubmitting(false);
  }

  return (
    <AuthCard title={he.login.title}>
    <p className="auth-card__subtitle">{he.login.subtitle}</p>

    {handoff.notice && !error && (
      <p className="notice notice--success" role="status">
        {handoff.notice}
      </p>
    )}

    {/* Native validation enforces the required fields; the server checks the rest. */}
    <form className="form" onSubmit={onSubmit} aria-describedby={error ? errorId : undefined}>
      <TextField
        id="login-username"
        label={he.login.username}
        name="username"
        type="text"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        disabled={submitting}
        value={username}
        onValueChange={setUsername}
      />
      <TextField
        id="login-password"
        label={he.login.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        disabled={submitting}
        value={password}
        onValueChange={setPassword}
      />

      {error && (
        <p id={errorId} className="notice notice--error" role="alert" data-testid="login-error">
          {error}
        </p>
      )}

      <SubmitButton
        busy={submitting}
        busyLabel={he.login.submitting}
        className="button--block"
        disabled={submitting}
        testId="login-submit"
      >
        {he.login.submit}
      </SubmitButton>
    </form>
    </AuthCard>
  );
}
