// "ניהול משתמשים" (admins only; docs/API.md "User management (admins)"): the list of users,
// adding one, and per user: flip the role, set a new password, delete (after an in-app confirm).
// Every server error is shown as an error toast with the server's Hebrew message.

import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { api, errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import type {
  AdminUserResponse,
  AdminUsersResponse,
  CreateUserRequest,
  Role,
  SuccessResponse,
  UpdateUserRequest,
  User,
} from '../../api/types';
import { useAuth } from '../../session/AuthProvider';
import { useToast } from '../../session/Toasts';
import { ConfirmDelete } from '../../components/ConfirmDialog';
import { SelectField, SubmitButton, TextField } from '../../components/Field';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { heSettings } from '../../i18n/settings';
import { formatDate } from '../../lib/dates';
import { passwordFormProblem, passwordProblem } from '../../lib/passwords';
import { Card } from '../../components/Card';
import { LoadState } from '../../components/LoadState';
import { useSubmit } from '../../components/useSubmit';

const t = heSettings.users;

const userPath = (id: number) => `/api/admin/users/${id}`;

/** Rendered only for admins; for anyone else it is nothing at all (and fetches nothing). */
export function UsersCard() {
  const { user } = useAuth();
  if (user?.role !== 'admin') return null;
  return <UsersCardBody me={user} />;
}

function UsersCardBody({ me }: { me: User }) {
  const toast = useToast();
  const list = useSWR<AdminUsersResponse>(keys.adminUsers());
  const [busyId, setBusyId] = useState<number | null>(null);
  const [resetFor, setResetFor] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const revalidate = () => list.mutate();

  async function run(target: User, action: () => Promise<unknown>, success: string): Promise<boolean> {
    setBusyId(target.id);
    try {
      await action();
      toast.success(success);
      await revalidate();
      return true;
    } catch (err) {
      toast.error(errorMessage(err));
      return false;
    } finally {
      setBusyId(null);
    }
  }

  function toggleRole(u: User) {
    const role: Role = u.role === 'admin' ? 'user' : 'admin';
    const body: UpdateUserRequest = { role };
    void run(
      u,
      () => api<AdminUserResponse>(userPath(u.id), { method: 'PUT', body }),
      t.roleUpdated(u.name, heSettings.roles[role]),
    );
  }

  async function resetPassword(u: User, password: string): Promise<boolean> {
    const body: UpdateUserRequest = { password };
    const ok = await run(
      u,
      () => api<AdminUserResponse>(userPath(u.id), { method: 'PUT', body }),
      t.resetDone(u.name),
    );
    if (ok) setResetFor(null);
    return ok;
  }

  async function confirmDelete() {
    const u = deleting;
    if (!u) return;
    await run(u, () => api<SuccessResponse>(userPath(u.id), { method: 'DELETE' }), t.deleted(u.name));
    setDeleting(null);
  }

  // A 2xx without a list (e.g. a proxy's answer) is an error too, not an endless "loading".
  const users = Array.isArray(list.data?.users) ? list.data.users : undefined;
  const failed = (list.error !== undefined && !users) || (list.data !== undefined && !users);
  let body;
  if (!users) {
    const ids = { error: 'users-error', loading: 'users-loading' };
    body = <LoadState of={{ error: list.error, mutate: revalidate }} text={t} failed={failed} testIds={ids} />;
  } else if (users.length === 0) {
    body = <p className="card__status">{t.empty}</p>;
  } else {
    body = (
      <ul className="list-box" aria-label={t.listLabel} data-testid="users-list">
        {users.map((u) => (
          <UserRow
            key={u.id}
            user={u}
            isMe={u.id === me.id}
            busy={busyId === u.id}
            resetOpen={resetFor === u.id}
            onToggleRole={() => toggleRole(u)}
            onOpenReset={() => setResetFor(u.id)}
            onCloseReset={() => setResetFor(null)}
            onReset={(password) => resetPassword(u, password)}
            onDelete={() => setDeleting(u)}
          />
        ))}
      </ul>
    );
  }

  return (
    <Card id="users-card" title={t.title} testId="users-card">
      {body}
      <AddUserForm onAdded={revalidate} />
      {deleting && (
        <ConfirmDelete text={t} busy={busyId === deleting.id} onConfirm={() => void confirmDelete()} onCancel={() => setDeleting(null)}>
          <p>
            {t.deleteQuestion} <bdi>{deleting.name}</bdi> (<bdi>{deleting.username}</bdi>)?
          </p>
          <p>{t.deleteWarning}</p>
        </ConfirmDelete>
      )}
    </Card>
  );
}

interface UserRowProps {
  user: User;
  isMe: boolean;
  busy: boolean;
  resetOpen: boolean;
  onToggleRole: () => void;
  onOpenReset: () => void;
  onCloseReset: () => void;
  onReset: (password: string) => Promise<boolean>;
  onDelete: () => void;
}

function UserRow({
  user: u,
  isMe,
  busy,
  resetOpen,
  onToggleRole,
  onOpenReset,
  onCloseReset,
  onReset,
  onDelete,
}: UserRowProps) {
  return (
    <li className="user-row" data-testid={`user-row-${u.username}`}>
      <div className="user-row__main">
        <div className="user-row__who">
          <span className="user-row__name" dir="auto">
            {u.name}
          </span>
          {isMe && (
            <span className="badge badge--me" data-testid="user-me">
              {t.you}
            </span>
          )}
          <span className="user-row__username" dir="ltr">
            <bdi>{u.username}</bdi>
          </span>
        </div>
        <div className="user-row__meta">
          <span className={`badge badge--role badge--${u.role}`} data-testid={`user-role-${u.username}`}>
            {heSettings.roles[u.role]}
          </span>
          <span className="user-row__date">{t.createdAt(formatDate(u.createdAt))}</span>
        </div>
      </div>

      {isMe ? (
        <p className="field__hint">{t.ownRowHint}</p>
      ) : (
        <div className="user-row__actions" role="group" aria-label={t.actionsFor(u.name)}>
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={onToggleRole}
            data-testid={`user-role-toggle-${u.username}`}
          >
            {u.role === 'admin' ? t.makeUser : t.makeAdmin}
          </button>
          <button
            type="button"
            className="link-button"
            disabled={busy || resetOpen}
            aria-expanded={resetOpen}
            onClick={onOpenReset}
            data-testid={`user-reset-${u.username}`}
          >
            {t.resetPassword}
          </button>
          <button
            type="button"
            className="link-button link-button--danger"
            disabled={busy}
            onClick={onDelete}
            data-testid={`user-delete-${u.username}`}
          >
            {t.delete}
          </button>
        </div>
      )}

      {resetOpen && !isMe && (
        <ResetPasswordForm user={u} busy={busy} onCancel={onCloseReset} onSubmit={onReset} />
      )}
    </li>
  );
}

function ResetPasswordForm({
  user: u,
  busy,
  onCancel,
  onSubmit,
}: {
  user: User;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (password: string) => Promise<boolean>;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = `reset-password-${u.id}`;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const problem = passwordProblem(password);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    await onSubmit(password);
  }

  return (
    <form className="form user-row__reset" onSubmit={submit} noValidate data-testid={`user-reset-form-${u.username}`}>
      <p className="notice notice--warning" role="note">
        {t.resetWarning}
      </p>
      <NewPasswordFields
        password={{
          id,
          label: t.resetTitle(u.name),
          hint: t.passwordHint,
          testId: `user-reset-password-${u.username}`,
          autoFocus: true,
          value: password,
          onValueChange: setPassword,
        }}
        disabled={busy}
        error={error}
      />
      <div className="form__actions">
        <SubmitButton
          busy={busy}
          busyLabel={t.resetSaving}
          disabled={busy || !password}
          testId={`user-reset-submit-${u.username}`}
        >
          {t.resetSave}
        </SubmitButton>
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {t.resetCancel}
        </button>
      </div>
    </form>
  );
}

function AddUserForm({ onAdded }: { onAdded: () => Promise<unknown> }) {
  const toast = useToast();
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('user');
  const { submitting, error, submit: run } = useSubmit();

  const empty = !username.trim() || !name.trim() || !password;

  // A 400 (invalid fields) or 409 (the username exists): the server's Hebrew message, as a toast.
  function submit(e: FormEvent<HTMLFormElement>) {
    const send = async () => {
      const body: CreateUserRequest = { username: username.trim(), name: name.trim(), password, role };
      const res = await api<AdminUserResponse>(keys.adminUsers(), { method: 'POST', body });
      toast.success(t.added(res?.user?.name ?? body.name));
      setUsername('');
      setName('');
      setPassword('');
      setRole('user');
      await onAdded();
    };
    void run(e, passwordFormProblem(empty, password), send, toast.error);
  }

  return (
    <form className="form add-user" onSubmit={submit} noValidate aria-labelledby="add-user-title">
      <h3 id="add-user-title" className="card__subtitle">
        {t.addTitle}
      </h3>
      <div className="form-grid">
        <TextField
          id="add-user-username"
          verbatim
          label={t.username}
          hint={t.usernameHint}
          type="text"
          autoComplete="off"
          required
          maxLength={64}
          disabled={submitting}
          value={username}
          onValueChange={setUsername}
        />
        <TextField
          id="add-user-name"
          label={t.name}
          type="text"
          autoComplete="off"
          required
          disabled={submitting}
          value={name}
          onValueChange={setName}
        />
        <NewPasswordFields
          password={{ id: 'add-user-password', label: t.password, hint: t.passwordHint, value: password, onValueChange: setPassword }}
          disabled={submitting}
        />
        <SelectField
          id="add-user-role"
          label={t.role}
          disabled={submitting}
          value={role}
          onValueChange={(v) => setRole(v === 'admin' ? 'admin' : 'user')}
        >
          <option value="user">{heSettings.roles.user}</option>
          <option value="admin">{heSettings.roles.admin}</option>
        </SelectField>
      </div>
      {error && (
        <p className="notice notice--error" role="alert" data-testid="add-user-error">
          {error}
        </p>
      )}
      <div>
        <SubmitButton busy={submitting} busyLabel={t.adding} disabled={submitting || empty} testId="add-user-submit">
          {t.add}
        </SubmitButton>
      </div>
    </form>
  );
}
