// The reading pane's quick reply (spec 000 §2 "Inbox page", §4 "Reply panel", §5): 'השב' opens a
// panel below the thread with a plain-text reply to the sender. Send and save are disabled while
// the text is empty or whitespace; send also while sending. A send goes through the outbox and
// offers undo (useUndoSend); a saved draft goes to Pending replies (shouldNavigate). The text is
// kept per mail in replyDrafts, so switching mails does not lose it.
// 'כתיבת תשובה מלאה' opens the Compose page for what the panel cannot do (cc, formatting, files).
// 'תשובה חכמה' fills the panel with an AI reply (smartReply.ts); while it is being written the
// panel's text is read-only, and a replaced text of the user's can be put back. Beside it, a
// select of the user's AI templates (training settings) picks one for the smart reply to follow.
// Sending and saving are tracked per mail in replyDrafts (`busy`): the smart reply button is
// disabled meanwhile, and a pane shown again during the request is still locked.

import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, type AiTrainingSettings } from '../../../api/ai';
import { keys } from '../../../api/keys';
import { failureMessage, outgoingKeys, saveDraft, sendMail } from '../../../api/outgoing';
import type { EmailDetail } from '../../../api/types';
import { useToast } from '../../../session/Toasts';
import { PenIcon, SendIcon, SparkIcon } from '../../../components/icons';
import { heOutgoing } from '../../../i18n/outgoing';
import { heAi } from '../../../i18n/ai';
import { useUndoSend } from '../../outbox/undoSend';
import { replyHref } from '../threads';
import { replyDraftRequest, replyMail, type ReplySource } from './replyPayload';
import { replyDrafts, useReplyDraft } from './replyDrafts';
import { showAiFailure } from '../../ai/aiFailure';
import { usePreferences } from '../../settings/sync/SettingsProvider';
import { useSmartReply, useSmartReplyTemplate } from './smartReply';

const t = heOutgoing.reply;

/** The header's buttons: open the panel here, or reply in the full Compose page. */
/** `children`: more actions on the mail, in the same row (the reading pane's 'צור משימה'). */
export function ReplyButtons({ mail, children }: { mail: ReplySource; children?: ReactNode }) {
  const { isOpen } = useReplyDraft(mail.id);
  const { smartReply } = usePreferences();
  return (
    <div className="reply-buttons">
      <button
        type="button"
        className="chip-button chip-button--reply"
        aria-expanded={isOpen}
        title={t.openHint}
        onClick={() => replyDrafts.open(mail.id, { focus: true })}
        data-testid="reply-open"
      >
        <SendIcon />
        {t.open}
      </button>
      {/* The smartReply preference shows or hides it. */}
      {smartReply && <SmartReply id={mail.id} />}
      <Link className="chip-button" to={replyHref(mail)} title={t.fullComposeHint} data-testid="reply-compose">
        <PenIcon />
        {t.fullCompose}
      </Link>
      {children}
    </div>
  );
}

/**
 * 'תשובה חכמה': disabled and busy while the reply is written, disabled while the mail's reply is
 * being sent or saved; the result opens the panel. With AI templates, a select beside it.
 */
function SmartReply({ id }: { id: string }) {
  const smart = useSmartReply(id);
  const { busy: sending } = useReplyDraft(id);
  const toast = useToast();
  // Edits on the AI training page update this cache; no re-read for every mail shown.
  const training = useSWR<AiTrainingSettings>(aiKeys.training(), { revalidateIfStale: false });
  const templates = training.data?.templates ?? [];
  const [chosen, choose] = useSmartReplyTemplate();
  // A template deleted since it was chosen counts as none.
  const templateId = templates.some((tpl) => tpl.id === chosen) ? chosen : '';
  return (
    <span className="smart-reply">
      <button
        type="button"
        className="chip-button chip-button--ai"
        disabled={smart.busy || sending !== null}
        aria-busy={smart.busy}
        title={heAi.smartReplyHint}
        onClick={() => void smart.run((e) => showAiFailure(toast, e, heAi.smartReplyFailed), templateId || undefined)}
        data-testid="smart-reply"
      >
        <SparkIcon />
        {smart.busy ? heAi.smartReplyBusy : heAi.smartReply}
      </button>
      {templates.length > 0 && (
        <select
          className="smart-reply__template"
          aria-label={heAi.template}
          title={heAi.template}
          value={templateId}
          onChange={(e) => choose(e.target.value)}
          data-testid="smart-reply-template"
        >
          <option value="">{heAi.noTemplate}</option>
          {templates.map((tpl) => (
            <option key={tpl.id} value={tpl.id}>
              {tpl.name}
            </option>
          ))}
        </select>
      )}
    </span>
  );
}

export function ReplyPanel({ mail }: { mail: ReplySource }) {
  const draft = useReplyDraft(mail.id);
  const smart = useSmartReply(mail.id);
  const toast = useToast();
  const navigate = useNavigate();
  const announce = useUndoSend();
  const { cache, mutate } = useSWRConfig();
  const busy = draft.busy;
  const panel = useRef<HTMLElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  // Opened by the button or the `r` shortcut: bring it into view and put the caret in it.
  useEffect(() => {
    if (!draft.isOpen || !draft.wantsFocus || !replyDrafts.takeFocus(mail.id)) return;
    panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    textarea.current?.focus();
  }, [draft.isOpen, draft.wantsFocus, mail.id]);

  if (!draft.isOpen) return null;

  const empty = draft.text.trim() === '';
  // The user's own text, while the smart reply that replaced it is still untouched.
  const replacedText = smart.replaced && smart.replaced.generated === draft.text ? smart.replaced.previous : null;
  const locked = busy !== null || smart.busy;

  async function send() {
    if (empty || locked || replyDrafts.busy(mail.id) !== null) return;
    replyDrafts.setBusy(mail.id, 'send');
    try {
      const result = await sendMail(replyMail(mail, draft.text));
      replyDrafts.clear(mail.id);
      announce(result);
      void mutate(outgoingKeys.outbox());
    } catch (e) {
      toast.error(failureMessage(e, t.sendFailed));
    } finally {
      replyDrafts.setBusy(mail.id, null);
    }
  }

  async function save() {
    if (empty || locked || replyDrafts.busy(mail.id) !== null) return;
    replyDrafts.setBusy(mail.id, 'save');
    // The body the reading pane already loaded (same cache key), else the list's preview.
    const detail = cache.get(keys.email(mail.id))?.data as EmailDetail | undefined;
    try {
      const res = await saveDraft(replyDraftRequest(mail, draft.text, detail?.body ?? mail.body ?? mail.preview ?? ''));
      replyDrafts.clear(mail.id);
      if (res.savedInGmail === false) toast.warning(res.message);
      else toast.success(res.message);
      void mutate(outgoingKeys.drafts());
      void mutate(keys.emailCounts());
      if (res.shouldNavigate) navigate('/PendingReplies');
    } catch (e) {
      toast.error(failureMessage(e, t.saveFailed));
    } finally {
      replyDrafts.setBusy(mail.id, null);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Ctrl+Enter (⌘+Enter) sends, as in most mail clients.
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  }

  const textId = `reply-text-${mail.id}`;
  return (
    <section ref={panel} className="reply-panel" aria-label={t.title} data-testid="reply-panel" data-id={mail.id}>
      <header className="reply-panel__header">
        <h3 className="reply-panel__title">{t.title}</h3>
        <p className="reply-panel__to">
          <span className="reply-panel__label">{t.to}</span>{' '}
          {mail.from_name?.trim() && <bdi dir="auto">{mail.from_name} </bdi>}
          <bdi dir="ltr">{mail.from}</bdi>
        </p>
      </header>
      <label htmlFor={textId} className="visually-hidden">
        {t.label}
      </label>
      <textarea
        id={textId}
        ref={textarea}
        className="textbox reply-panel__text"
        dir="auto"
        rows={6}
        placeholder={t.placeholder}
        value={draft.text}
        readOnly={locked}
        aria-busy={smart.busy}
        onChange={(e) => draft.setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="reply-text"
      />
      <div className="reply-panel__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={empty || locked}
          onClick={() => void send()}
          data-testid="reply-send"
        >
          <SendIcon />
          {busy === 'send' ? t.sending : t.send}
        </button>
        <button
          type="button"
          className="button"
          disabled={empty || locked}
          onClick={() => void save()}
          data-testid="reply-save"
        >
          {busy === 'save' ? t.saving : t.save}
        </button>
        <button
          type="button"
          className="button reply-panel__close"
          disabled={busy !== null}
          title={t.closeHint}
          onClick={draft.clear}
          data-testid="reply-close"
        >
          {t.close}
        </button>
        {replacedText !== null && (
          <button
            type="button"
            className="link-button reply-panel__restore"
            title={heAi.restoreTextHint}
            disabled={locked}
            onClick={smart.restore}
            data-testid="smart-reply-restore"
          >
            {heAi.restoreText}
          </button>
        )}
      </div>
    </section>
  );
}
