// The task modal (spec 001 "Tasks page"): 'משימה חדשה' or 'עריכת משימה', with the title
// (required: save stays disabled without one), the priority (נמוכה, בינונית, גבוהה, דחופה), the
// due date and time, and the description. Opened from a mail ('צור משימה') it starts with the
// mail's subject as the title and links the task to that mail. The due time is the
// datetime-local input's value as it is — the server reads it in the user's time zone — and an
// existing task's is shown on that same clock (the display zone is the user's time zone).
// A failed save shows the server's message here and keeps everything typed.

import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { createTask, TASK_PRIORITIES, updateTask, type Task, type TaskInput, type TaskPriority } from '../../api/tasks';
import { SelectField, TextField } from '../../components/Field';
import { MailIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { he } from '../../i18n/he';
import { heTasks } from '../../i18n/tasks';
import { formatInputDateTime } from '../../lib/dates';
import '../../styles/tasks.css';

const t = heTasks.form;

/** A new task from a mail: its subject as the title, and the link to it. */
export interface TaskFromMail {
  emailId: string;
  subject: string;
}

export interface TaskFormProps {
  /** The task to edit; null for a new one. */
  task: Task | null;
  /** A new task made from this mail. */
  fromMail?: TaskFromMail;
  onClose: () => void;
  onSaved: (saved: Task, created: boolean) => void;
}

export function TaskForm({ task, fromMail, onClose, onSaved }: TaskFormProps) {
  const idBase = useId();
  const [title, setTitle] = useState(() => task?.title ?? fromMail?.subject.trim() ?? '');
  const [description, setDescription] = useState(task?.description ?? '');
  const [priority, setPriority] = useState<TaskPriority>(task?.priority ?? 'medium');
  const [due, setDue] = useState(() => (task?.due_date ? formatInputDateTime(task.due_date) : ''));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const complete = title.trim() !== '';
  const linkedSubject = task ? task.email_subject : fromMail?.subject;
  const linked = task ? !!task.email_id : !!fromMail;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    setError(null);
    const input: TaskInput = { title, description, priority, due_date: due };
    if (!task && fromMail) input.email_id = fromMail.emailId;
    try {
      const saved = task ? await updateTask(task.id, input) : await createTask(input);
      onSaved(saved, !task);
    } catch (err) {
      setError(errorMessage(err, heTasks.saveFailed));
      setBusy(false);
    }
  }

  const id = (name: string) => `${idBase}-${name}`;

  return (
    <Modal title={task ? t.editTitle : t.newTitle} closeLabel={t.close} onClose={onClose} busy={busy} testId="task-form" wide>
      <form className="form task-form" onSubmit={(e) => void submit(e)} noValidate>
        {linked && (
          <p className="task-form__mail" data-testid="task-form-mail">
            <MailIcon />
            <span>{t.fromMail}</span>
            <bdi dir="auto">{linkedSubject?.trim() || he.mail.noSubject}</bdi>
          </p>
        )}
        <TextField
          id={id('title')}
          label={
            <>
              {t.title}
              <span className="field__required" aria-hidden="true">
                {' *'}
              </span>
            </>
          }
          value={title}
          onValueChange={setTitle}
          autoComplete="off"
          aria-required="true"
          data-autofocus
          testId="task-form-title"
        />
        <div className="task-form__row">
          <SelectField
            id={id('priority')}
            label={t.priority}
            value={priority}
            onValueChange={(v) => setPriority(v as TaskPriority)}
            testId="task-form-priority"
          >
            {TASK_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {heTasks.priorities[p]}
              </option>
            ))}
          </SelectField>
          <div className="field">
            <label htmlFor={id('due')}>{t.due}</label>
            <div className="task-form__due">
              <input
                id={id('due')}
                type="datetime-local"
                dir="ltr"
                value={due}
                onChange={(e) => setDue(e.target.value)}
                aria-describedby={`${id('due')}-hint`}
                data-testid="task-form-due"
              />
              {due && (
                <button type="button" className="link-button" onClick={() => setDue('')} data-testid="task-form-clear-due">
                  {t.clearDue}
                </button>
              )}
            </div>
            <small id={`${id('due')}-hint`} className="field__hint">
              {t.dueHint}
            </small>
          </div>
        </div>
        <div className="field">
          <label htmlFor={id('description')}>{t.description}</label>
          <textarea
            id={id('description')}
            className="textbox task-form__description"
            dir="auto"
            rows={4}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="task-form-description"
          />
        </div>
        {error && (
          <p className="notice notice--error" role="alert" dir="auto" data-testid="task-form-error">
            {error}
          </p>
        )}
        <div className="form__actions task-form__actions">
          <button type="submit" className="button button--primary" disabled={!complete || busy} data-testid="task-form-save">
            {busy ? t.saving : t.save}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy} data-testid="task-form-cancel">
            {t.cancel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
