// The reading pane (spec 000 §2 "Inbox page"): the subject, the open mail's status and the
// actions (reply, a task from this mail, status buttons, delete, move to Trash), then the
// thread's messages oldest first, the open one (the newest when a thread is opened from the list)
// expanded and the rest collapsed, then the reply panel when it is open (reply/). The list carries
// a thread's newest mail: the rest of a thread shows once it is loaded (useFullThread), with a
// note until then.
// A mail opened by URL that is not in the loaded list is shown on its own. Spam and suspicious
// mail show their spam score; the Spam folder adds 'not spam' (MailView's onNotSpam).

import { useCallback, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import type { Email, EmailDetail, Thread } from '../../api/types';
import { TrashIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { he } from '../../i18n/he';
import { heSpam } from '../../i18n/spam';
import { CreateTaskFromMail } from '../tasks/CreateTaskFromMail';
import { ReplyButtons, ReplyPanel } from './reply/ReplyPanel';
import { SpamScoreChip } from '../spam/SpamScoreChip';
import { StatusButtons, StatusChips } from './StatusButtons';
import { FollowUpButton } from '../snooze/FollowUpButton';
import { MailLabels } from '../labels/MailLabels';
import { SnoozeButton } from '../snooze/SnoozeButton';
import { ThreadMessage } from './ThreadMessage';
import { threadSubject } from './ThreadRow';
import { isPartial, singleMailThread } from './threads';
import type { StatusAction } from './triageRules';
import { MailLoadState, ReadingBack } from './ListStates';
import { MoveToFolder } from '../folders/MoveToFolder';

export interface ReadingPaneProps {
  /** The open mail (the URL's `mail`). */
  id: string;
  /** The list's thread holding it, when it is in the loaded list (whole once loaded). */
  thread: Thread | null;
  /** The rest of a thread the list holds in part is on its way. */
  loadingRest?: boolean;
  /** Why the rest of the thread could not be loaded. */
  restError?: unknown;
  onRetryRest?: () => void;
  busy: boolean;
  canTrash: boolean;
  /** The open folder is Sent: its mail can be awaited for a reply (and not snoozed). */
  sentFolder?: boolean;
  /** The open folder's threads can be snoozed (they have mail in the inbox). */
  canSnooze?: boolean;
  onBack: () => void;
  /** Called once per message that turns out to be unread when shown. */
  onMarkRead: (email: Email) => void;
  onStatus: (thread: Thread, action: StatusAction) => void;
  /** In the Spam and Junk folders: 'not spam' (status none: back to the inbox, learned). */
  onNotSpam?: (thread: Thread) => void;
  onDelete: (thread: Thread) => void;
  onTrash: (thread: Thread) => void;
  /** The thread's mail went to another folder ('move to folder'). */
  onMoved?: (ids: string[]) => void;
}

export function ReadingPane({
  id,
  thread: listThread,
  loadingRest = false,
  restError,
  onRetryRest,
  busy,
  canTrash,
  sentFolder = false,
  canSnooze = true,
  onBack,
  onMarkRead,
  onStatus,
  onNotSpam,
  onDelete,
  onTrash,
  onMoved,
}: ReadingPaneProps) {
  // Outside the list (opened by URL), the mail itself stands for its thread.
  const { data: detail, error, mutate } = useSWR<EmailDetail>(listThread ? null : keys.email(id), {
    revalidateOnFocus: false,
  });
  const thread = listThread ?? (detail ? singleMailThread(detail) : null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set([id]));
  const toggle = useCallback(
    (mailId: string) =>
      setExpanded((s) => {
        const next = new Set(s);
        if (next.has(mailId)) next.delete(mailId);
        else next.add(mailId);
        return next;
      }),
    [],
  );

  if (!thread) {
    return (
      <article className="reading-pane" data-testid="reading-pane" data-id={id}>
        <ReadingBack onBack={onBack} />
        <MailLoadState error={error} onRetry={() => void mutate()} />
      </article>
    );
  }

  const open = thread.emails.find((e) => e.id === id) ?? thread.emails[0];
  // Oldest first, like a conversation; the list gives them newest first.
  const messages = [...thread.emails].reverse();
  const single = messages.length === 1 && thread.count <= 1;
  const partial = isPartial(thread);

  return (
    <article className="reading-pane" data-testid="reading-pane" data-id={id} aria-labelledby="reading-subject">
      <ReadingBack onBack={onBack} />
      <header className="reading-pane__header">
        <h2 id="reading-subject" className="reading-pane__subject" dir="auto" data-testid="reading-subject">
          {threadSubject(thread)}
        </h2>
        <div className="reading-pane__meta">
          {!single && (
            <span className="reading-pane__count" data-testid="reading-count">
              {he.inbox.messagesInThread(thread.count)}
            </span>
          )}
          <StatusChips email={open} />
          <MailLabels keywords={open.labels} />
          <SpamScoreChip email={open} />
        </div>
        <div className="reading-pane__actions" role="toolbar" aria-label={he.inbox.actionsLabel}>
          <ReplyButtons mail={open}>
            <CreateTaskFromMail mail={open} />
          </ReplyButtons>
          {onNotSpam && (
            <button
              type="button"
              className="chip-button chip-button--not-spam"
              disabled={busy}
              title={heSpam.notSpamHint}
              onClick={() => onNotSpam(thread)}
              data-testid="mail-not-spam"
            >
              {heSpam.notSpam}
            </button>
          )}
          <StatusButtons email={open} busy={busy} onStatus={(a) => onStatus(thread, a)} />
          {canSnooze && <SnoozeButton emailId={open.id} busy={busy} />}
          {sentFolder && <FollowUpButton emailId={open.id} busy={busy} />}
          <MoveToFolder ids={thread.emails.map((e) => e.id)} accountId={open.accountId} disabled={busy} onMoved={onMoved} />
          <div className="reading-pane__danger">
            <button
              type="button"
              className="chip-button chip-button--danger"
              disabled={busy}
              onClick={() => onDelete(thread)}
              data-testid="mail-delete"
            >
              {he.inbox.delete}
            </button>
            {canTrash && (
              <button
                type="button"
                className="chip-button"
                disabled={busy}
                onClick={() => onTrash(thread)}
                data-testid="mail-trash"
              >
                <TrashIcon />
                {he.inbox.trash}
              </button>
            )}
          </div>
        </div>
      </header>

      <div className="reading-pane__messages">
        {/* The older mail of the thread, above the newest while it loads. */}
        {partial && restError !== undefined && (
          <LoadError
            message={`${he.inbox.threadLoadFailed} ${errorMessage(restError)}`}
            onRetry={onRetryRest}
            testId="reading-thread-error"
          />
        )}
        {partial && restError === undefined && loadingRest && (
          <p className="card__status reading-pane__status" role="status" data-testid="reading-thread-loading">
            {he.inbox.threadLoading}
          </p>
        )}
        {messages.map((e) => (
          <ThreadMessage
            key={e.id}
            id={e.id}
            row={e}
            expanded={single || expanded.has(e.id)}
            onToggle={single ? null : () => toggle(e.id)}
            onMarkRead={onMarkRead}
          />
        ))}
      </div>
      {/* The quick reply to the open mail, below the thread (spec 000 §2). */}
      <ReplyPanel mail={open} />
    </article>
  );
}
