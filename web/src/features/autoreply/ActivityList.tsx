// What the monitor decided about each mail it checked, newest first (GET /api/auto-reply/activity:
// the last 100): when, from whom, the subject and the reason in Hebrew — with the cause for a
// failure — so a mail that got no draft says why. A draft addressed to a Reply-To of another domain
// than the sender's is flagged: anyone can write a Reply-To, so the user looks before sending. The first ten show; the rest on request, in a
// box that scrolls so the card stays short. Re-read with the stats (every 30 s, and at once on
// the live `auto_reply` event).

import { useState } from 'react';
import type { SWRResponse } from 'swr';
import type { AutoReplyActivity, AutoReplyActivityItem, AutoReplyReason } from '../../api/autoReply';
import { heAutoReply } from '../../i18n/autoReply';
import { formatDateTime } from '../../lib/dates';
import { LoadState } from '../../components/LoadState';

const t = heAutoReply.activity;

/** Shown before 'show all'. */
export const ACTIVITY_SHOWN = 10;

function kindOf(reason: AutoReplyReason): 'answered' | 'failed' | 'skipped' {
  if (reason === 'answered') return 'answered';
  return reason === 'failed' ? 'failed' : 'skipped';
}

function Item({ item }: { item: AutoReplyActivityItem }) {
  const kind = kindOf(item.reason);
  const sender = item.fromName.trim() || item.from || t.unknownSender;
  return (
    <li className={`auto-reply-activity__item auto-reply-activity__item--${kind}`} data-testid="auto-reply-activity-item" data-reason={item.reason}>
      <div className="auto-reply-activity__head">
        <span className="auto-reply-activity__sender" dir="auto" title={item.from || undefined}>
          {sender}
        </span>
        <time className="auto-reply-activity__time" dateTime={item.at}>
          {formatDateTime(item.at)}
        </time>
      </div>
      <span className="auto-reply-activity__subject" dir="auto">
        {item.subject.trim() || t.noSubject}
      </span>
      <span className={`auto-reply-activity__reason auto-reply-activity__reason--${kind}`} data-testid="auto-reply-activity-reason">
        {item.text}
        {item.detail && (
          <span className="auto-reply-activity__detail" dir="auto">
            {' — '}
            {item.detail}
          </span>
        )}
      </span>
      {item.replyToElsewhere && (
        <span className="auto-reply-activity__warning" role="note" data-testid="auto-reply-activity-reply-to">
          {t.replyToElsewhere} <bdi dir="ltr">{item.replyToElsewhere}</bdi>
          {t.replyToElsewhereAfter}
        </span>
      )}
    </li>
  );
}

export function ActivityList({ activity }: { activity: SWRResponse<AutoReplyActivity> }) {
  const [all, setAll] = useState(false);
  const items = activity.data?.items;

  let body;
  if (items && items.length === 0) {
    body = (
      <p className="muted" data-testid="auto-reply-activity-empty">
        {t.empty}
      </p>
    );
  } else if (items) {
    const shown = all ? items : items.slice(0, ACTIVITY_SHOWN);
    body = (
      <>
        <ol className="auto-reply-activity__list list-box" aria-labelledby="auto-reply-activity-title" data-testid="auto-reply-activity-list">
          {shown.map((item, i) => (
            // Decisions carry no id; the rows hold no state, so a position key is harmless.
            <Item key={i} item={item} />
          ))}
        </ol>
        {items.length > ACTIVITY_SHOWN && (
          <button
            type="button"
            className="link-button auto-reply-activity__toggle"
            aria-expanded={all}
            onClick={() => setAll((a) => !a)}
            data-testid="auto-reply-activity-toggle"
          >
            {all ? t.showLess : t.showAll(items.length)}
          </button>
        )}
      </>
    );
  } else {
    body = <LoadState of={activity} text={{ loadFailed: t.loadFailed }} testIds={{ error: 'auto-reply-activity-error' }} />;
  }

  return (
    <section className="auto-reply__section auto-reply-activity" aria-labelledby="auto-reply-activity-title" data-testid="auto-reply-activity">
      <h3 id="auto-reply-activity-title" className="card__subtitle">
        {t.title}
      </h3>
      <p className="muted">{t.hint}</p>
      {body}
    </section>
  );
}
