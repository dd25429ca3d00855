// The subscription manager (issue 40): every sender of list or bulk mail of the last 90 days,
// busiest first, with its own actions and a bar for many at once. Unsubscribing is the server's
// (RFC 8058's one click, else a mail from the user's mailbox); a page or a removal link the server
// will not follow is shown here for the user to open in a new tab, never opened by itself.

import { useCallback, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import {
  archiveSender,
  blockSender,
  bulkSubscriptions,
  unsubscribe,
  type BlockTarget,
  type Subscription,
  type SubscriptionsResponse,
} from '../../api/subscriptions';
import { EmptyState } from '../../components/EmptyState';
import { TagIcon } from '../../components/icons';
import { ListHeader } from '../../components/ListHeader';
import { LoadState, RefreshFailed } from '../../components/LoadState';
import { heSubscriptions } from '../../i18n/subscriptions';
import { useToast } from '../../session/Toasts';
import '../../styles/subscriptions.css';
import { SubscriptionRow } from './SubscriptionRow';

const t = heSubscriptions;

export default function SubscriptionsPage() {
  const toast = useToast();
  const list = useSWR<SubscriptionsResponse>(keys.subscriptions());
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [toOpen, setToOpen] = useState<string[]>([]);
  const { mutate } = list;

  const run = useCallback(
    async (ids: string[], act: () => Promise<{ message: string; open?: string[] }>) => {
      setBusy((b) => new Set([...b, ...ids]));
      try {
        const out = await act();
        toast.success(out.message);
        if (out.open && out.open.length > 0) setToOpen(out.open);
      } catch (err) {
        toast.error(`${t.actionFailed}: ${errorMessage(err)}`);
      } finally {
        setBusy((b) => new Set([...b].filter((x) => !ids.includes(x))));
        void mutate();
      }
    },
    [mutate, toast],
  );

  const onUnsubscribe = useCallback((s: Subscription) => void run([s.id], () => unsubscribe(s.id)), [run]);
  const onBlock = useCallback((s: Subscription, to: BlockTarget) => void run([s.id], () => blockSender(s.id, to)), [run]);
  const onArchive = useCallback((s: Subscription) => void run([s.id], () => archiveSender(s.id)), [run]);
  const onCheck = useCallback(
    (id: string, on: boolean) =>
      setChecked((c) => {
        const next = new Set(c);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );

  function bulk(action: 'unsubscribe' | 'block' | 'archive') {
    const ids = [...checked];
    void run(ids, async () => {
      const { results } = await bulkSubscriptions({ ids, action, to: action === 'block' ? 'promotions' : undefined });
      const ok = results.filter((r) => r.ok).length;
      setChecked(new Set());
      return { message: t.bulkDone(ok, results.length - ok), open: results.flatMap((r) => r.open) };
    });
  }

  const data = list.data;
  let content;
  if (!data) {
    content = <LoadState of={list} text={t} testIds={{ error: 'subscriptions-error', loading: 'subscriptions-loading' }} />;
  } else if (data.subscriptions.length === 0) {
    content = (
      <EmptyState testId="subscriptions-empty" icon={<TagIcon />}>
        <p className="empty-state__title">{t.empty}</p>
        <p>{t.emptyHint}</p>
      </EmptyState>
    );
  } else {
    content = (
      <ul className="subscription-list panel" aria-label={t.listLabel} data-testid="subscription-list">
        {data.subscriptions.map((s) => (
          <SubscriptionRow
            key={s.id}
            sender={s}
            checked={checked.has(s.id)}
            busy={busy.has(s.id)}
            onCheck={onCheck}
            onUnsubscribe={onUnsubscribe}
            onBlock={onBlock}
            onArchive={onArchive}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className="page-section list-page subscriptions-page" data-testid="page-SubscriptionsPage" aria-labelledby="subscriptions-title">
      <ListHeader
        titleId="subscriptions-title"
        title={t.pageLabel}
        count={data && { text: t.summary(data.subscriptions.length), n: data.subscriptions.length, testId: 'subscriptions-summary' }}
      >
        {null}
      </ListHeader>
      {checked.size > 0 && (
        <div className="subscriptions-bulk panel-row" role="toolbar" data-testid="subscriptions-bulk">
          <span>{t.selected(checked.size)}</span>
          <button type="button" className="button button--primary" onClick={() => bulk('unsubscribe')}>
            {t.unsubscribe}
          </button>
          <button type="button" className="button" onClick={() => bulk('block')}>
            {t.block}
          </button>
          <button type="button" className="button" onClick={() => bulk('archive')}>
            {t.archive}
          </button>
        </div>
      )}
      {toOpen.length > 0 && (
        <div className="notice" role="status" data-testid="subscriptions-open">
          <p>{t.openLinks}</p>
          <ul>
            {toOpen.map((u) => (
              <li key={u}>
                <a href={u} target="_blank" rel="noopener noreferrer">
                  {t.openLink}: <bdi dir="ltr">{u}</bdi>
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {list.error && data && <RefreshFailed error={list.error} text={t} />}
      {content}
    </section>
  );
}
