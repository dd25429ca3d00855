// The compose form (spec 000 §2 "Compose page"): recipients, subject, the rich-text body,
// priority, attachments, the actions, and the side panel. It starts from a ComposeInitial (see
// prefill.ts) and owns everything after that; the page remounts it for each new entry.
// The editor's toolbar carries the AI menu (useAiHelp): subject generation and improvement.

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { ORIGINAL_SUBJECT, type OutgoingMail, type Priority, type Template } from '../../api/outgoing';
import { SelectField, TextField } from '../../components/Field';
import { BackIcon, PaperclipIcon, ScheduleIcon, SendIcon, TemplateIcon } from '../../components/icons';
import { heCompose } from '../../i18n/compose';
import { heAi } from '../../i18n/ai';
import { AddressBookModal } from './AddressBookModal';
import { AiMenu, AiUndoBar } from './AiMenu';
import { AttachmentList } from './AttachmentList';
import { ComposeSidePanel } from './ComposeSidePanel';
import { subjectDirection } from './direction';
import { PRIORITIES, textToHtml, type ComposeInitial } from './prefill';
import { RecipientField } from './RecipientField';
import { recipientProblem } from './recipients';
import { RichEditor, type EditorHandle } from './RichEditor';
import { ScheduleModal } from './ScheduleModal';
import { TemplatesModal } from './TemplatesModal';
import { useAiHelp } from './useAiHelp';
import { useComposeSubmit } from './useComposeSubmit';
import { useUploads } from './useUploads';

type ModalName = 'templates' | 'contacts' | 'schedule';

/** Template bodies are HTML; a plain-text one (no tags at all) is turned into paragraphs. */
const asHtml = (body: string) => (/<[a-z][^>]*>/i.test(body) ? body : textToHtml(body));

export interface ComposeFormProps {
  initial: ComposeInitial;
  /** Set when editing an outbox item: saving changes it in place. */
  outboxId: string | null;
}

export function ComposeForm({ initial, outboxId }: ComposeFormProps) {
  const t = heCompose;
  const [to, setTo] = useState(initial.to);
  const [cc, setCc] = useState(initial.cc);
  const [bcc, setBcc] = useState(initial.bcc);
  const [showCc, setShowCc] = useState(initial.cc.length > 0);
  const [showBcc, setShowBcc] = useState(initial.bcc.length > 0);
  const [subject, setSubject] = useState(initial.subject);
  const [priority, setPriority] = useState<Priority>(initial.priority);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<ModalName | null>(null);
  const [scheduleReady, setScheduleReady] = useState(false);
  const editorRef = useRef<EditorHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const uploads = useUploads(initial.attachments, { carried: outboxId !== null });
  const { busy, submit } = useComposeSubmit(outboxId);
  const locked = busy !== null || uploads.busy;
  const ai = useAiHelp({ editorRef, onSubject: setSubject, onError: setError });

  // A reply arrives with its recipient and subject: the user's next step is the body.
  const replying = initial.to.length > 0 && initial.subject !== '';
  useEffect(() => {
    if (replying) editorRef.current?.focus();
  }, [replying]);

  // A message shown below the fold (the send button is at the bottom) is scrolled into view.
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);

  const bodyHtml = () => editorRef.current?.html() ?? '';
  const bodyBlank = () => editorRef.current?.isBlank() ?? true;
  const fieldsReady = () => to.length + cc.length + bcc.length > 0 && subject.trim() !== '' && !bodyBlank();

  function mail(): OutgoingMail {
    return {
      to,
      cc,
      bcc,
      subject: subject.trim(),
      body: bodyHtml(),
      priority,
      attachments: uploads.ids(),
      ...initial.reply,
    };
  }

  function send() {
    if (locked) return;
    if (!fieldsReady()) {
      setError(t.required);
      return;
    }
    setError(null);
    void submit('send', mail());
  }

  function openSchedule() {
    setScheduleReady(fieldsReady());
    setModal('schedule');
  }

  /** Recent contacts and the address book add to To, with the same duplicate rule as typing. */
  function addToRecipient(email: string) {
    const problem = recipientProblem(email, to);
    if (problem) {
      setError(problem);
      return;
    }
    setTo([...to, email]);
    setError(null);
  }

  function applyTemplate(template: Template) {
    const original = initial.replySubject || subject;
    if (template.subject.trim()) setSubject(template.subject.split(ORIGINAL_SUBJECT).join(original).trim());
    editorRef.current?.setHtml(asHtml(template.body));
    // A body of the template's now: an AI improvement before it can no longer be undone.
    ai.forgetUndo();
    setError(null);
    setModal(null);
  }

  // Ctrl+Enter (Cmd+Enter) sends, as in other mail clients.
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !modal) {
      e.preventDefault();
      send();
    }
  }

  const toggle = (shown: boolean, list: string[], set: (v: boolean) => void, label: string, testId: string) => (
    <button
      type="button"
      className="link-button compose__toggle"
      aria-expanded={shown}
      // Hiding a row that still has addresses would send to people the user no longer sees.
      disabled={shown && list.length > 0}
      title={shown && list.length > 0 ? t.toggleLocked : undefined}
      onClick={() => set(!shown)}
      data-testid={testId}
    >
      {label}
    </button>
  );

  return (
    <section className="page-section compose" data-testid="compose-page" onKeyDown={onKeyDown}>
      <div className="compose__layout">
        <div className="compose__main" role="group" aria-label={t.formLabel}>
          <div className="compose__header">
            <Link to="/Inbox" className="button compose__back" data-testid="compose-back">
              <BackIcon />
              {t.back}
            </Link>
            {outboxId && <p className="compose__mode">{t.editingOutbox}</p>}
            <button type="button" className="button compose__templates" onClick={() => setModal('templates')} data-testid="templates-open">
              <TemplateIcon />
              {t.templates}
            </button>
          </div>

          <div className="compose__recipients">
            <RecipientField
              id="compose-to"
              label={t.to}
              emails={to}
              onChange={setTo}
              onError={setError}
              testId="compose-to"
              autoFocus={initial.to.length === 0}
              after={
                <span className="compose__toggles">
                  {toggle(showCc, cc, setShowCc, t.showCc, 'compose-cc-toggle')}
                  {toggle(showBcc, bcc, setShowBcc, t.showBcc, 'compose-bcc-toggle')}
                </span>
              }
            />
            {showCc && <RecipientField id="compose-cc" label={t.cc} emails={cc} onChange={setCc} onError={setError} testId="compose-cc" />}
            {showBcc && (
              <RecipientField id="compose-bcc" label={t.bcc} emails={bcc} onChange={setBcc} onError={setError} testId="compose-bcc" />
            )}
          </div>

          {error && (
            <p ref={errorRef} className="notice notice--error compose__error" role="alert" data-testid="compose-error">
              {error}
            </p>
          )}

          <TextField
            id="compose-subject"
            label={t.subject}
            value={subject}
            onValueChange={(v) => {
              setSubject(v);
              if (error === t.required) setError(null);
            }}
            testId="compose-subject"
            dir={subjectDirection(subject)}
          />

          <RichEditor
            editorRef={editorRef}
            initialHtml={initial.bodyHtml}
            onInput={() => {
              if (error === t.required || error === heAi.bodyRequired) setError(null);
              ai.forgetUndo();
            }}
            toolbarEnd={<AiMenu busy={ai.busy !== null} onRun={(action) => void ai.run(action)} />}
          />
          {ai.undoHtml !== null && <AiUndoBar onUndo={ai.undoImprove} />}

          <div className="compose__meta">
            <SelectField
              id="compose-priority"
              label={t.priority}
              value={priority}
              onValueChange={(v) => setPriority(v as Priority)}
              testId="compose-priority"
            >
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {t.priorities[p]}
                </option>
              ))}
            </SelectField>
            <button type="button" className="button compose__attach" onClick={() => fileInput.current?.click()} data-testid="compose-attach">
              <PaperclipIcon />
              {t.attach}
            </button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              onChange={(e) => {
                if (e.target.files) uploads.add(Array.from(e.target.files));
                // Cleared so choosing the same file again (after removing it) fires a change.
                e.target.value = '';
              }}
              data-testid="compose-file-input"
            />
          </div>

          <AttachmentList items={uploads.items} onRemove={uploads.remove} />

          <div className="compose__actions" role="group" aria-label={t.actions}>
            <button type="button" className="button button--primary" onClick={send} disabled={locked} data-testid="compose-send">
              <SendIcon />
              {busy === 'send' ? t.sending : t.send}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => void submit('draft', mail())}
              disabled={locked}
              data-testid="compose-save-draft"
            >
              {busy === 'draft' ? t.savingDraft : t.saveDraft}
            </button>
            <button type="button" className="button" onClick={openSchedule} disabled={locked} data-testid="compose-schedule-open">
              <ScheduleIcon />
              {t.schedule}
            </button>
            {uploads.busy && (
              <span className="compose__wait" role="status">
                {t.waitForUploads}
              </span>
            )}
          </div>
        </div>

        <ComposeSidePanel
          onPickContacts={() => setModal('contacts')}
          onAttach={() => fileInput.current?.click()}
          onAddRecipient={addToRecipient}
        />
      </div>

      {modal === 'templates' && (
        <TemplatesModal
          onApply={applyTemplate}
          onClose={() => setModal(null)}
          current={() => ({ subject: subject.trim(), body: bodyHtml() })}
        />
      )}
      {modal === 'contacts' && <AddressBookModal chosen={to} onPick={addToRecipient} onClose={() => setModal(null)} />}
      {modal === 'schedule' && (
        <ScheduleModal
          fieldsReady={scheduleReady}
          busy={busy === 'schedule'}
          onSchedule={(when) => void submit('schedule', mail(), when)}
          onClose={() => setModal(null)}
        />
      )}
    </section>
  );
}
