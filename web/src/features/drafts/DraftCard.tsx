// One draft on the Pending replies page (spec 000 §2, 001 §2 "Pending replies page", §4 "Draft"):
// collapsed (who, subject, when, a 200-character preview) or expanded (the original mail with its
// 'טופל' badge, then the draft). View mode shows the draft's HTML in the sandboxed mail frame;
// edit mode is compose's rich editor (loaded when first needed), so a formatted draft keeps its
// formatting and each paragraph its direction; what is saved is the editor's HTML.
// Send goes through the outbox with undo; delete asks first. Toasts use the spec's wording.

import { lazy, Suspense, useId, useMemo, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError } from '../../api/client';
import { deleteDraft, failureMessage, outgoingKeys, sendDraft, updateDraft, withReason, type Draft } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { ConfirmDelete } from '../../components/ConfirmDialog';
import { DraftIcon, SendIcon, TrashIcon } from '../../components/icons';
import { MailBody } from '../../components/MailBody';
import { he } from '../../i18n/he';
import { heOutgoing } from '../../i18n/outgoing';
import { formatDateTime } from '../../lib/dates';
import { decodeBase64Html, previewText } from '../../lib/mailText';
import type { EditorHandle } from '../compose/RichEditor';
import { useUndoSend } from '../outbox/undoSend';
import { OriginalMail } from './OriginalMail';
import { useRefreshDrafts } from './useDrafts';

const t = heOutgoing.drafts;

/** Compose's editor, in its own chunk: the pending replies page loads it only to edit a draft. */
const RichEditor = lazy(() => import('../compose/RichEditor').then((m) => ({ default: m.RichEditor })));

/** The name and the address, each isolated so neither reorders the other in RTL. */
function Recipient({ draft: d }: { draft: Draft }) {
  const name = d.toName?.trim() && d.toName.trim() !== d.to ? d.toName.trim() : '';
  if (!name && !d.to) return <>{t.noRecipient}</>;
  return (
    <>
      {name && <bdi dir="auto">{name}</bdi>}
      {name && d.to && ' '}
      {d.to && (
        <bdi dir="ltr" className={name ? 'draft-card__address' : undefined}>
          {name ? `<${d.to}>` : d.to}
        </bdi>
      )}
    </>
  );
}

export function DraftCard({ draft }: { draft: Draft }) {
  const toast = useToast();
  const announce = useUndoSend();
  const refresh = useRefreshDrafts();
  const { mutate } = useSWRConfig();
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState(false);
  // Whether the draft being edited has no text (save is disabled then).
  const [blank, setBlank] = useState(false);
  const editorRef = useRef<EditorHandle>(null);
  const [busy, setBusy] = useState<'save' | 'send' | 'delete' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const bodyId = useId();

  const html = useMemo(() => decodeBase64Html(draft.draftContent ?? ''), [draft.draftContent]);
  const preview = useMemo(() => previewText(html), [html]);
  const subject = draft.subject?.trim() || he.mail.noSubject;
  const isGone = (d: Draft) => d.id === draft.id;

  async function save() {
    const editor = editorRef.current;
    if (!editing || !editor || editor.isBlank()) return;
    setBusy('save');
    try {
      const res = await updateDraft(draft.id, { draftContent: editor.html() });
      toast.success(res.message || t.updated);
      setEditing(false);
      refresh();
    } catch (e) {
      toast.error(withReason(t.updateFailed, e));
    } finally {
      setBusy(null);
    }
  }

  async function send() {
    setBusy('send');
    try {
      const result = await sendDraft(draft.id);
      announce({ ...result, message: result.message || t.sent });
      refresh(isGone);
      // It now waits in the outbox (its undo delay), shown above the drafts.
      void mutate(outgoingKeys.outbox());
    } catch (e) {
      toast.error(failureMessage(e, t.sendFailed));
      // Sent meanwhile by another session: the list is stale.
      if (e instanceof ApiError && e.status === 404) refresh();
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy('delete');
    try {
      const res = await deleteDraft(draft.id);
      toast.success(res.message || t.deleted);
      setConfirming(false);
      refresh(isGone);
    } catch (e) {
      toast.error(withReason(t.deleteFailed, e));
      setConfirming(false);
    } finally {
      setBusy(null);
    }
  }

  function startEdit() {
    setExpanded(true);
    setBlank(!previewText(html).trim());
    setEditing(true);
  }

  return (
    <article
      className={`draft-card${expanded ? ' is-expanded' : ''}`}
      data-testid="draft-card"
      data-id={draft.id}
      data-expanded={expanded}
      aria-labelledby={`${bodyId}-subject`}
    >
      <button
        type="button"
        className="draft-card__toggle"
        aria-expanded={expanded}
        aria-controls={bodyId}
        title={expanded ? t.collapse : t.expand}
        onClick={() => setExpanded((x) => !x)}
        data-testid="draft-toggle"
      >
        <span className="draft-card__line">
          <span className="draft-card__to" dir="auto">
            <span className="draft-card__label">{t.to}</span> <Recipient draft={draft} />
          </span>
          <time className="draft-card__date" dateTime={draft.createdAt}>
            {formatDateTime(draft.createdAt)}
          </time>
        </span>
        <span id={`${bodyId}-subject`} className="draft-card__subject" dir="auto">
          {subject}
        </span>
        {!expanded && (
          <span className="draft-card__preview" dir="auto" data-testid="draft-preview">
            {preview || t.emptyDraft}
          </span>
        )}
      </button>

      <div className="draft-card__badges">
        {draft.scheduledAt && (
          <span className="label-chip label-chip--scheduled" data-testid="draft-scheduled">
            {t.scheduled(formatDateTime(draft.scheduledAt))}
          </span>
        )}
        {draft.savedInGmail === false && (
          <span className="label-chip label-chip--local" title={t.localOnlyHint} data-testid="draft-local">
            {t.localOnly}
          </span>
        )}
        {draft.isAutoReply && (
          <span className="label-chip" data-testid="draft-auto-reply">
            {t.autoReply}
          </span>
        )}
      </div>

      {expanded && (
        <div id={bodyId} className="draft-card__body">
          {draft.originalEmail && <OriginalMail original={draft.originalEmail} />}
          {editing ? (
            <Suspense
              fallback={
                <p className="card__status" role="status">
                  {t.editorLoading}
                </p>
              }
            >
              <RichEditor
                editorRef={editorRef}
                initialHtml={html}
                onInput={() => setBlank(editorRef.current?.isBlank() ?? true)}
                id={`${bodyId}-text`}
                testId="draft-text"
                label={t.textLabel}
              />
            </Suspense>
          ) : (
            <div className="draft-card__frame">
              <MailBody html={html} title={t.draftTitle(subject)} />
            </div>
          )}
        </div>
      )}

      <div className="draft-card__actions">
        {editing ? (
          <>
            <button
              type="button"
              className="button button--primary"
              disabled={busy !== null || blank}
              onClick={() => void save()}
              data-testid="draft-save"
            >
              {busy === 'save' ? t.saving : t.save}
            </button>
            <button type="button" className="button" disabled={busy !== null} onClick={() => setEditing(false)}>
              {t.cancelEdit}
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button button--primary"
              disabled={busy !== null}
              onClick={() => void send()}
              data-testid="draft-send"
            >
              <SendIcon />
              {busy === 'send' ? t.sending : t.send}
            </button>
            <button type="button" className="button" disabled={busy !== null} onClick={startEdit} data-testid="draft-edit">
              <DraftIcon />
              {t.edit}
            </button>
            <button
              type="button"
              className="button draft-card__delete"
              disabled={busy !== null}
              onClick={() => setConfirming(true)}
              data-testid="draft-delete"
            >
              <TrashIcon />
              {t.delete}
            </button>
          </>
        )}
      </div>

      {confirming && (
        <ConfirmDelete text={t} busy={busy === 'delete'} onConfirm={() => void remove()} onCancel={() => setConfirming(false)}>
          <p dir="auto">{t.deleteQuestion(subject)}</p>
          <p>{t.deleteWarning}</p>
        </ConfirmDelete>
      )}
    </article>
  );
}
