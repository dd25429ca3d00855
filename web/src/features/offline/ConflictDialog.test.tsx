// The conflicts dialog (issue 39): each action not applied shows the mail, what the user did and
// what the server has now, in Hebrew; "apply mine" / "keep theirs" reach the layer; a mail gone
// meanwhile or a refusal offers only dropping it.

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { QueuedAction } from './actions';
import ConflictDialog from './ConflictDialog';
import type { OfflineHandle } from './layer';

const base = { status: null, priority: null, is_read: true, is_starred: false, folder: 'INBOX' };

function problem(over: Partial<QueuedAction>): QueuedAction {
  return {
    kind: 'status',
    emailId: '1',
    path: '/api/emails/1/status',
    method: 'PUT',
    body: { status: 'info' },
    seq: 1,
    at: 0,
    subject: 'אסיפת הורים',
    base,
    state: 'conflict',
    theirs: { ...base, status: 'needs_reply', priority: 'high' },
    ...over,
  };
}

describe('ConflictDialog', () => {
  it('shows both sides and sends the choice', async () => {
    const settle = vi.fn(async () => undefined);
    const layer = Promise.resolve({ settle } as unknown as OfflineHandle);
    render(
      <ConflictDialog
        layer={layer}
        problems={[problem({}), problem({ seq: 2, kind: 'delete', body: undefined, theirs: null, subject: 'נמחק' })]}
        onClose={() => undefined}
      />,
    );
    const [first, second] = screen.getAllByTestId('offline-conflict');
    expect(first.textContent).toContain('אסיפת הורים');
    expect(first.textContent).toContain('סטטוס: מידע');
    expect(first.textContent).toContain('בשרת עכשיו: דורש תשובה · עדיפות גבוהה · נקרא · בתיקייה דואר נכנס');
    // Gone meanwhile: only "keep theirs".
    expect(second.textContent).toContain('המייל כבר לא נמצא');
    expect(second.querySelector('[data-testid="offline-conflict-mine"]')).toBeNull();

    await userEvent.click(screen.getAllByTestId('offline-conflict-mine')[0]);
    expect(settle).toHaveBeenCalledWith(1, 'mine');
    await userEvent.click(screen.getAllByTestId('offline-conflict-theirs')[1]);
    expect(settle).toHaveBeenCalledWith(2, 'theirs');
  });

  it('a refusal shows the server’s message', () => {
    render(
      <ConflictDialog
        layer={Promise.resolve(null)}
        problems={[problem({ state: 'failed', theirs: undefined, message: 'אין הרשאה' })]}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByTestId('offline-conflict').textContent).toContain('השרת דחה את הפעולה: אין הרשאה');
  });
});
