// The actions taken offline that were not applied (issue 39): for each, the mail, what the user
// did, and what the mail is on the server now; "apply mine" sends the action over the change made
// elsewhere, "keep theirs" drops it. Nothing is dropped without this choice.

import { useState } from 'react';
import { Modal } from '../../components/Modal';
import { heOfflineActions } from '../../i18n/offlineActions';
import type { QueuedAction } from './actions';
import { describeAction, describeState } from './describe';
import type { OfflineHandle } from './layer';

const t = heOfflineActions.dialog;

export default function ConflictDialog({
  layer,
  problems,
  onClose,
}: {
  layer: Promise<OfflineHandle | null>;
  problems: QueuedAction[];
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);

  async function choose(seq: number, choice: 'mine' | 'theirs') {
    setBusy(true);
    try {
      await (await layer)?.settle(seq, choice);
    } finally {
      setBusy(false);
    }
  }

  const choiceButton = (seq: number, choice: 'mine' | 'theirs') => (
    <button
      type="button"
      className={choice === 'mine' ? 'button button--primary' : 'button'}
      disabled={busy}
      onClick={() => void choose(seq, choice)}
      data-testid={`offline-conflict-${choice}`}
    >
      {t[choice]}
    </button>
  );

  return (
    <Modal title={t.title} closeLabel={t.close} onClose={onClose} testId="offline-conflicts" busy={busy} wide>
      {problems.length === 0 ? (
        <div className="offline-conflict__done">
          <p className="muted">{t.none}</p>
          <button type="button" className="button" autoFocus onClick={onClose}>
            {t.close}
          </button>
        </div>
      ) : (
        <>
          <p>{t.intro}</p>
          <ul className="offline-conflict__list">
            {problems.map((q) => (
              <li key={q.seq} className="offline-conflict" data-testid="offline-conflict">
                <strong className="offline-conflict__subject">{q.subject}</strong>
                <span>
                  {t.yours} {describeAction(q)}
                </span>
                <span>
                  {q.state === 'failed'
                    ? t.refusedWith(q.message ?? heOfflineActions.refused)
                    : q.theirs
                      ? `${t.there} ${describeState(q.theirs)}`
                      : t.gone}
                </span>
                <div className="offline-conflict__buttons">
                  {q.state === 'conflict' && q.theirs && choiceButton(q.seq, 'mine')}
                  {choiceButton(q.seq, 'theirs')}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}
