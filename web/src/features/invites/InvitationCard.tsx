// The meeting invitation's card above a mail's body (docs/API.md "Invitations"): what the
// server read from the mail's calendar (title, when in the user's zone and the event's own when
// it differs, recurrence, where, organiser, attendees and their answers), what the user's
// records add (cancelled, a newer version, conflicts with invitations the user accepted, the
// user's own answer), and the actions: accept / maybe / decline with an optional note (an iTIP
// REPLY to the organiser), add to my tasks, download the .ics. Asked for only when the mail's
// parts include a calendar; a mail without one shows nothing.

import { useId, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import {
  answerInvitation,
  carriesInvitation,
  downloadInvitation,
  invitationKey,
  invitationTask,
  type Invitation,
  type InvitationResponse,
} from '../../api/invites';
import { isTasksKey } from '../../api/keys';
import type { EmailAttachment } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { DownloadIcon, TasksIcon } from '../../components/icons';
import { heInvites } from '../../i18n/invites';
import '../../styles/invites.css';
import { Attendees } from './Attendees';
import { CalendarIcon } from './CalendarIcon';

const t = heInvites;

type Choice = 'accepted' | 'tentative' | 'declined';
const CHOICES: readonly Choice[] = ['accepted', 'tentative', 'declined'];

export function InvitationCard({ mail }: { mail: { id: string; attachments: EmailAttachment[] } }) {
  const carries = carriesInvitation(mail.attachments);
  const { data, error } = useSWR<InvitationResponse>(carries ? invitationKey(mail.id) : null, {
    revalidateOnFocus: false,
  });
  if (!carries) return null;
  if (error !== undefined && !data) {
    return (
      <p className="notice notice--error invite-card__load-error" role="alert" data-testid="invite-card-error">
        {t.loadFailed}: {errorMessage(error)}
      </p>
    );
  }
  const invitation = data?.invitation;
  if (!invitation) return null;
  return <Card emailId={mail.id} invitation={invitation} />;
}

function Card({ emailId, invitation: inv }: { emailId: string; invitation: Invitation }) {
  const idBase = useId();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState<Choice | 'task' | 'ics' | null>(null);
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState('');

  async function answer(choice: Choice) {
    setBusy(choice);
    try {
      const next = await answerInvitation(emailId, choice, comment);
      await mutate(invitationKey(emailId), next, { revalidate: false });
      setCommenting(false);
      setComment('');
      toast.success(t.sent);
    } catch (err) {
      toast.error(`${t.failed}: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  }

  async function addTask() {
    setBusy('task');
    try {
      await invitationTask(emailId);
      toast.success(t.taskAdded);
      void mutate(isTasksKey);
    } catch (err) {
      toast.error(`${t.taskFailed}: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  }

  async function download() {
    setBusy('ics');
    try {
      await downloadInvitation(emailId);
    } catch (err) {
      toast.error(`${t.downloadFailed}: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  }

  const from = inv.fromAttendee;
  const who = from ? from.name || from.email : '';
  return (
    <section
      className={`invite-card invite-card--${inv.state}`}
      aria-labelledby={`${idBase}-title`}
      data-testid="invite-card"
      data-state={inv.state}
      data-method={inv.method}
    >
      <header className="invite-card__header">
        <CalendarIcon />
        <span className="invite-card__kind">{t.method[inv.method]}</span>
        {inv.answer && inv.method === 'request' && (
          <span className={`label-chip invite-answer invite-answer--${inv.answer}`} data-testid="invite-your-answer">
            {t.yourAnswer(t.answers[inv.answer])}
          </span>
        )}
      </header>
      <h3 id={`${idBase}-title`} className="invite-card__title" dir="auto">
        {inv.title || t.cardLabel}
      </h3>

      {inv.state === 'cancelled' && (
        <p className="notice notice--warning invite-card__note" role="note" data-testid="invite-cancelled">
          {t.cancelledNote}
        </p>
      )}
      {inv.state === 'superseded' && (
        <p className="notice notice--info invite-card__note" role="note" data-testid="invite-superseded">
          {t.supersededNote}
        </p>
      )}
      {from && (
        <p className="invite-card__from" data-testid="invite-from">
          {inv.method === 'reply' ? t.replied(who, t.answers[from.answer]) : t.proposed(who)}
          {inv.comment && (
            <q className="invite-card__comment" dir="auto">
              {inv.comment}
            </q>
          )}
        </p>
      )}

      <dl className="invite-card__facts">
        <div>
          <dt>{t.when}</dt>
          <dd data-testid="invite-when">
            <span>{inv.when}</span>
            {inv.whenInEventZone && (
              <span className="invite-card__zone" data-testid="invite-event-zone">
                {inv.whenInEventZone}
              </span>
            )}
          </dd>
        </div>
        {inv.recurrence && (
          <div>
            <dt>{t.recurrence}</dt>
            <dd data-testid="invite-recurrence">{inv.recurrence}</dd>
          </div>
        )}
        {inv.location && (
          <div>
            <dt>{t.where}</dt>
            <dd dir="auto" data-testid="invite-location">
              {inv.location}
            </dd>
          </div>
        )}
        {inv.organizer && (
          <div>
            <dt>{t.organizer}</dt>
            <dd className="invite-card__organizer">
              {inv.organizer.name && <bdi>{inv.organizer.name}</bdi>} <bdi className="invite-card__address">{inv.organizer.email}</bdi>
            </dd>
          </div>
        )}
        {inv.attendees.length > 0 && (
          <div>
            <dt>{t.attendees}</dt>
            <dd>
              <Attendees attendees={inv.attendees} more={inv.moreAttendees} />
            </dd>
          </div>
        )}
        {inv.replies.length > 0 && (
          <div>
            <dt>{t.repliesTitle}</dt>
            <dd>
              <Attendees attendees={inv.replies} more={0} />
            </dd>
          </div>
        )}
      </dl>

      {inv.conflicts.length > 0 && (
        <div className="notice notice--warning invite-card__conflicts" role="note" data-testid="invite-conflicts">
          <p>{t.conflictsTitle}</p>
          <ul>
            {inv.conflicts.map((c, i) => (
              <li key={i}>
                <bdi>{c.title}</bdi> · {c.when}
              </li>
            ))}
          </ul>
        </div>
      )}

      {inv.description && (
        <details className="invite-card__details">
          <summary>{t.details}</summary>
          <p dir="auto">{inv.description}</p>
        </details>
      )}

      {inv.answerOutdated && (
        <p className="invite-card__outdated" role="note" data-testid="invite-outdated">
          {t.answerOutdated}
        </p>
      )}

      {inv.canAnswer && (
        <div className="invite-card__answer">
          <div className="invite-card__choices" role="group" aria-label={t.answersLabel}>
            {CHOICES.map((c) => (
              <button
                key={c}
                type="button"
                className={`button${inv.answer === c ? ' button--primary' : ''}`}
                aria-pressed={inv.answer === c}
                disabled={busy !== null}
                onClick={() => void answer(c)}
                data-testid={`invite-${c}`}
              >
                {t.answerButtons[c]}
              </button>
            ))}
            {!commenting && (
              <button
                type="button"
                className="link-button"
                onClick={() => setCommenting(true)}
                data-testid="invite-add-comment"
              >
                {t.addComment}
              </button>
            )}
          </div>
          {commenting && (
            <div className="field invite-card__comment-field">
              <label htmlFor={`${idBase}-comment`}>{t.commentLabel}</label>
              <textarea
                id={`${idBase}-comment`}
                dir="auto"
                rows={2}
                maxLength={500}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                data-testid="invite-comment"
              />
            </div>
          )}
        </div>
      )}

      <div className="invite-card__tools">
        {inv.method !== 'cancel' && (
          <button
            type="button"
            className="chip-button"
            disabled={busy !== null}
            onClick={() => void addTask()}
            data-testid="invite-task"
          >
            <TasksIcon />
            {t.addTask}
          </button>
        )}
        <button
          type="button"
          className="chip-button"
          disabled={busy !== null}
          onClick={() => void download()}
          data-testid="invite-ics"
        >
          <DownloadIcon />
          {t.download}
        </button>
      </div>
    </section>
  );
}

