// The AI templates of the training settings (spec 001 §3: id, name, prompt; §5: a new template's
// name must be non-blank): a list with edit and delete per row, and a form to add one. Changes stay
// on the page until 'שמור לשרת'.

import { useState, type FormEvent } from 'react';
import type { AiTemplate } from '../../api/ai';
import { SubmitButton, TextAreaField, TextField } from '../../components/Field';
import { heAiTraining } from '../../i18n/aiTraining';
import { newTemplateId } from './trainingForm';
import { Card } from '../../components/Card';

const t = heAiTraining;

interface Props {
  templates: AiTemplate[];
  onChange: (templates: AiTemplate[]) => void;
  disabled: boolean;
}

export function TemplatesEditor({ templates, onChange, disabled }: Props) {
  const [editing, setEditing] = useState<AiTemplate | null>(null);
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');

  function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!name.trim()) return;
    onChange([...templates, { id: newTemplateId(templates), name: name.trim(), prompt }]);
    setName('');
    setPrompt('');
  }

  function update(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!editing || !editing.name.trim()) return;
    const next = { ...editing, name: editing.name.trim() };
    onChange(templates.map((tpl) => (tpl.id === next.id ? next : tpl)));
    setEditing(null);
  }

  function remove(id: string) {
    if (editing?.id === id) setEditing(null);
    onChange(templates.filter((tpl) => tpl.id !== id));
  }

  return (
    <Card id="training-templates" title={t.templatesTitle} intro={t.templatesHint} testId="training-templates">

      {templates.length === 0 ? (
        <p className="card__status" data-testid="training-template-empty">
          {t.templatesEmpty}
        </p>
      ) : (
        <ul className="list-box ai-templates" aria-label={t.templatesLabel} data-testid="training-template-list">
          {templates.map((tpl) =>
            editing?.id === tpl.id ? (
              <li key={tpl.id} className="user-row ai-template" data-testid="training-template-row" data-id={tpl.id}>
                <form className="form ai-template__edit" onSubmit={update} noValidate>
                  <TextField
                    id="training-template-edit-name"
                    label={t.templateName}
                    autoComplete="off"
                    disabled={disabled}
                    value={editing.name}
                    onValueChange={(v) => setEditing({ ...editing, name: v })}
                  />
                  <TextAreaField
                    id="training-template-edit-prompt"
                    label={t.templatePrompt}
                    disabled={disabled}
                    value={editing.prompt}
                    onValueChange={(v) => setEditing({ ...editing, prompt: v })}
                  />
                  {!editing.name.trim() && (
                    <p className="notice notice--error" role="alert" data-testid="training-template-edit-error">
                      {t.templateNameRequired}
                    </p>
                  )}
                  <div className="form__actions">
                    <SubmitButton disabled={disabled || !editing.name.trim()} testId="training-template-edit-save">
                      {t.templateSave}
                    </SubmitButton>
                    <button type="button" className="button" onClick={() => setEditing(null)} data-testid="training-template-edit-cancel">
                      {t.templateCancel}
                    </button>
                  </div>
                </form>
              </li>
            ) : (
              <li key={tpl.id} className="user-row ai-template" data-testid="training-template-row" data-id={tpl.id}>
                <div className="user-row__main ai-template__main">
                  <span className="user-row__name" dir="auto" data-testid="training-template-row-name">
                    {tpl.name}
                  </span>
                  <span className="ai-template__prompt" dir="auto">
                    {tpl.prompt.trim() || t.templateNoPrompt}
                  </span>
                </div>
                <div className="user-row__actions" role="group" aria-label={t.templateActionsFor(tpl.name)}>
                  <button
                    type="button"
                    className="link-button"
                    disabled={disabled}
                    onClick={() => setEditing({ ...tpl })}
                    data-testid="training-template-edit"
                  >
                    {t.templateEdit}
                  </button>
                  <button
                    type="button"
                    className="link-button link-button--danger"
                    disabled={disabled}
                    onClick={() => remove(tpl.id)}
                    data-testid="training-template-delete"
                  >
                    {t.templateDelete}
                  </button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}

      <form className="form ai-template-add" onSubmit={add} noValidate aria-labelledby="training-template-add-title">
        <h3 id="training-template-add-title" className="card__subtitle">
          {t.templateAddTitle}
        </h3>
        <TextField
          id="training-template-name"
          label={t.templateName}
          autoComplete="off"
          disabled={disabled}
          value={name}
          onValueChange={setName}
        />
        <TextAreaField
          id="training-template-prompt"
          label={t.templatePrompt}
          disabled={disabled}
          value={prompt}
          onValueChange={setPrompt}
        />
        {!name.trim() && prompt.trim() !== '' && (
          <p className="notice notice--error" role="alert" data-testid="training-template-name-error">
            {t.templateNameRequired}
          </p>
        )}
        <div className="form__actions">
          <button type="submit" className="button" disabled={disabled || !name.trim()} data-testid="training-template-add">
            {t.templateAdd}
          </button>
        </div>
      </form>
    </Card>
  );
}
