// The template picker (spec 000 §2): the user's templates (GET /api/templates), each applied,
// edited or deleted in place, and below them "save the current mail as a template" (name
// required). Applying is the page's job: it knows the replied subject for {{original_subject}}.

import { useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { createTemplate, deleteTemplate, outgoingKeys, withReason, type Template, type TemplatesResponse } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { heCompose } from '../../i18n/compose';
import { subjectDirection } from './direction';
import { TemplateEditForm } from './TemplateEditForm';

export interface TemplatesModalProps {
  onApply: (template: Template) => void;
  onClose: () => void;
  /** What is written now, for "save as template". */
  current: () => { subject: string; body: string };
}

export function TemplatesModal({ onApply, onClose, current }: TemplatesModalProps) {
  const t = heCompose.templatePicker;
  const toast = useToast();
  const { data, error, isLoading, mutate } = useSWR<TemplatesResponse>(outgoingKeys.templates());
  const templates = data?.templates ?? [];
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const replaceLocal = (next: Template[]) => mutate({ templates: next }, { revalidate: false });

  async function remove(template: Template) {
    setDeleting(template.id);
    try {
      await deleteTemplate(template.id);
      await replaceLocal(templates.filter((x) => x.id !== template.id));
      toast.success(t.deleted);
    } catch (e) {
      toast.error(withReason(t.deleteFailed, e));
    } finally {
      setDeleting(null);
    }
  }

  async function saveCurrent(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setNameError(t.nameRequired);
      return;
    }
    setSaving(true);
    setNameError(null);
    try {
      const { subject, body } = current();
      const res = await createTemplate({ name: name.trim(), subject, body });
      await replaceLocal([...templates, res.template]);
      setName('');
      toast.success(t.created);
    } catch (err) {
      setNameError(withReason(t.saveFailed, err));
    } finally {
      setSaving(false);
    }
  }

  let list;
  if (error && !data) {
    list = (
      <p className="notice notice--error" role="alert">
        {t.loadFailed}: {errorMessage(error)}
      </p>
    );
  } else if (isLoading && !data) {
    list = <p role="status" className="card__status">{t.loading}</p>;
  } else if (templates.length === 0) {
    list = <p className="card__status">{t.empty}</p>;
  } else {
    list = (
      <ul className="list-box" aria-label={t.listLabel}>
        {templates.map((template) => (
          <li
            key={template.id}
            className={editing === template.id ? 'template-item' : 'template-item template-item--pick'}
            // A click anywhere on the row (not on its buttons) applies it, like picking from a
            // menu; the "apply" button is the same action for keyboard and screen-reader users.
            onClick={(e) => {
              if (editing === template.id || (e.target as HTMLElement).closest('button, input, label')) return;
              onApply(template);
            }}
            data-testid="template-item"
            data-name={template.name}
          >
            {editing === template.id ? (
              <TemplateEditForm
                template={template}
                currentBody={() => current().body}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) void replaceLocal(templates.map((x) => (x.id === saved.id ? saved : x)));
                }}
              />
            ) : (
              <>
                <div className="template-item__text">
                  <bdi className="template-item__name" dir="auto">{template.name}</bdi>
                  <bdi className="template-item__subject" dir={subjectDirection(template.subject)}>
                    {template.subject || t.noSubject}
                  </bdi>
                </div>
                <div className="template-item__actions">
                  <button
                    type="button"
                    className="button button--primary"
                    title={t.applyHint(template.name)}
                    onClick={() => onApply(template)}
                    data-testid="template-apply"
                  >
                    {t.apply}
                  </button>
                  <button type="button" className="link-button" onClick={() => setEditing(template.id)} data-testid="template-edit">
                    {t.edit}
                  </button>
                  <button
                    type="button"
                    className="link-button link-button--danger"
                    onClick={() => void remove(template)}
                    disabled={deleting === template.id}
                    data-testid="template-delete"
                  >
                    {t.delete}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Modal title={t.title} closeLabel={t.close} onClose={onClose} testId="templates-modal" wide>
      <div className="templates">
        {list}
        <form className="templates__new" aria-labelledby="template-new-title" onSubmit={(e) => void saveCurrent(e)} noValidate>
          <h3 id="template-new-title" className="card__subtitle">
            {t.newTitle}
          </h3>
          <p className="field__hint">{t.newHint}</p>
          <div className="templates__new-row">
            <TextField
              id="template-name"
              label={t.name}
              value={name}
              onValueChange={(v) => {
                setName(v);
                setNameError(null);
              }}
              aria-invalid={nameError ? true : undefined}
              testId="template-name"
            />
            <button type="submit" className="button" disabled={saving} data-testid="template-save-current">
              {t.saveCurrent}
            </button>
          </div>
          {nameError && (
            <p className="notice notice--error" role="alert" data-testid="template-error">
              {nameError}
            </p>
          )}
        </form>
      </div>
    </Modal>
  );
}
