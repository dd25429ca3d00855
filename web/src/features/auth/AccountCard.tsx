// "החשבון שלי": who is signed in, and a form to change one's own password
// (docs/API.md "Own password": POST /api/app/password; other sessions end, this one stays).

import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { ChangePasswordRequest, SuccessResponse } from '../../api/types';
import { useAuth } from '../../session/AuthProvider';
import { useToast } from '../../session/Toasts';
import { SubmitButton, TextField } from '../../components/Field';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { heSettings } from '../../i18n/settings';
import { passwordFormProblem } from '../../lib/passwords';
import { Card } from '../../components/Card';
import { Fact } from '../../components/Fact';
import { useSubmit } from '../../components/useSubmit';

const t = heSettings.account;

export function AccountCard() {
  const { user } = useAuth();
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { submitting, error, submit } = useSubmit();

  if (!user) return null;

  const empty = !current || !next || !confirm;

  // A 400 (wrong current password, a too-short one): the server's Hebrew message shows under the form.
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    void submit(e, passwordFormProblem(empty, next, confirm), async () => {
      const body: ChangePasswordRequest = { currentPassword: current, newPassword: next };
      await api<SuccessResponse>('/api/app/password', { method: 'POST', body });
      toast.success(t.updated);
      setCurrent('');
      setNext('');
      setConfirm('');
    });
  }

  return (
    <Card id="account-card" title={t.title} testId="account-card">

      <dl className="facts">
        <Fact label={t.name} dir="auto" testId="account-name">
          {user.name}
        </Fact>
        <Fact label={t.username} dir="auto" testId="account-username">
          <bdi>{user.username}</bdi>
        </Fact>
        <Fact label={t.role} testId="account-role">
          <span className={`badge badge--role badge--${user.role}`}>{heSettings.roles[user.role]}</span>
        </Fact>
      </dl>

      <h3 className="card__subtitle">{t.changePassword}</h3>
      <form className="form form--narrow" onSubmit={onSubmit} noValidate>
        {/* Lets password managers tie the new password to this account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user.username}
          readOnly
          hidden
        />
        <TextField
          id="password-current"
          label={t.currentPassword}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          disabled={submitting}
          value={current}
          onValueChange={setCurrent}
        />
        <NewPasswordFields
          password={{
            id: 'password-new',
            label: t.newPassword,
            hint: t.passwordHint,
            name: 'newPassword',
            value: next,
            onValueChange: setNext,
          }}
          confirm={{
            id: 'password-confirm',
            label: t.confirmPassword,
            name: 'confirmPassword',
            value: confirm,
            onValueChange: setConfirm,
          }}
          disabled={submitting}
          error={error}
          errorTestId="password-error"
        />
        <div>
          <SubmitButton busy={submitting} busyLabel={t.submitting} disabled={submitting || empty} testId="password-submit">
            {t.submit}
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
