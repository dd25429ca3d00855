// One sender on the subscription manager's page: a checkbox for the bulk bar, the name and
// address, its mail over 30 and 90 days with the share opened, the ad detector's verdict, how it
// can be left, and its own actions (unsubscribe, block, archive). The last attempt's state shows
// beside it; links the server would not follow are shown for the user to open.

import { memo } from 'react';
import type { BlockTarget, Subscription } from '../../api/subscriptions';
import { heSubscriptions } from '../../i18n/subscriptions';

const t = heSubscriptions;

/** How the sender can be left, in the order the server tries. */
export function methodLabel(s: Subscription): string {
  if (s.oneClick) return t.oneClick;
  if (s.mailto) return t.byMail;
  if (s.link) return t.byPage;
  if (s.bodyLinks.length > 0) return t.byBodyLink;
  return t.noMethod;
}

/** The share of its recent mail the user opened, in whole percent. */
export function openedShare(s: Subscription): number {
  return s.last90 === 0 ? 0 : Math.round((100 * s.opened) / s.last90);
}

export interface RowProps {
  sender: Subscription;
  checked: boolean;
  busy: boolean;
  onCheck: (id: string, checked: boolean) => void;
  onUnsubscribe: (s: Subscription) => void;
  onBlock: (s: Subscription, to: BlockTarget) => void;
  onArchive: (s: Subscription) => void;
}

export const SubscriptionRow = memo(function SubscriptionRow({ sender: s, checked, busy, onCheck, onUnsubscribe, onBlock, onArchive }: RowProps) {
  const name = s.name || s.address;
  const canLeave = s.oneClick || s.mailto || s.link !== null || s.bodyLinks.length > 0;
  return (
    <li className="subscription panel-row" data-testid="subscription" data-address={s.address}>
      <input type="checkbox" checked={checked} aria-label={t.select(name)} onChange={(e) => onCheck(s.id, e.target.checked)} />
      <div className="subscription__who">
        <span className="subscription__name">{name}</span>
        <span className="subscription__address" dir="ltr">
          {s.address}
        </span>
      </div>
      <div className="subscription__facts">
        <span data-testid="subscription-counts">{t.counts(s.last30, s.last90)}</span>
        <span data-testid="subscription-opened">{t.opened(openedShare(s))}</span>
        <span className={`pill subscription__verdict subscription__verdict--${s.verdict}`}>{t.verdicts[s.verdict]}</span>
        <span className="subscription__method">{methodLabel(s)}</span>
        {s.blocked && <span className="pill">{t.blocked}</span>}
        {s.unsubscribed && <span className="pill subscription__left">{t.unsubscribed}</span>}
        {s.attempt && !s.unsubscribed && <span className="subscription__state">{t.states[s.attempt.state]}</span>}
      </div>
      <div className="subscription__actions">
        <button type="button" className="button button--primary" disabled={busy || !canLeave} onClick={() => onUnsubscribe(s)} data-testid="subscription-unsubscribe">
          {t.unsubscribe}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => onBlock(s, 'promotions')} data-testid="subscription-block">
          {t.blockToPromotions}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => onArchive(s)} data-testid="subscription-archive">
          {t.archive}
        </button>
      </div>
    </li>
  );
});
