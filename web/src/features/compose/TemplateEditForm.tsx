// Editing one template in place: its name and subject, and optionally its body replaced by what is
// in the editor now (a template's body is formatted HTML, which a plain text box would flatten).

import { useState } from 'react';
import { updateTemplate, withReason, type Template } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { CheckboxField, TextField } from '../../components/Field';
import { heCompose } from '../../i18n/compose';

export interface TemplateEditFormProps {
  template: Template;
  currentBody: () => string;
  onDone: (saved: Template | null) => void;
}

export function TemplateEditForm({ template, currentBody, onDone }: TemplateEditFormProps) {
  const toast = useToast();
  const t = heCompose.templatePicker;
  const [name, setName] = useState(template.name);
  const [subject, setSubject] = useState(template.subject);
  const [useCurrent, setUseCurrent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idBase = `template-${template.id}`;

  async function save() {
    if (!name.trim()) {
      setError(t.nameRequired);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = useCurrent ? currentBody() : template.body;
      const res = await updateTemplate({ id: template.id, name: name.trim(), subject, body });
      toast.success(t.updated);
      onDone(res.template ?? { id: template.id, name: name.trim(), subject, body });
    } catch (e) {
      setError(withReason(t.saveFailed, e));
      setBusy(false);
    }
  }

  return (
    <div className="template-edit" data-testid="template-edit-form">
      <TextField id={`${idBase}-name`} label={t.name} value={name} onValueChange={setName} testId="template-edit-name" />
      <TextField id={`${idBase}-subject`} label={t.subject} value={subject} onValueChange={setSubject} testId="template-edit-subject" />
      <CheckboxField id={`${idBase}-body`} label={t.useCurrentBody} checked={useCurrent} onCheckedChange={setUseCurrent} />
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={save} disabled={busy} data-testid="template-edit-save">
          {t.save}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)} disabled={busy}>
          {t.cancel}
        </button>
      </div>
    </div>
  );
}
