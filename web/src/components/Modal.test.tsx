import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';

describe('Modal', () => {
  it('is titled, focuses the marked field, and closes with its button, Escape or the backdrop', async () => {
    const onClose = vi.fn();
    render(
      <Modal title="אנשי קשר" closeLabel="סגירה" onClose={onClose} testId="the-modal" wide>
        <button type="button">פעולה</button>
        <input aria-label="חיפוש" data-autofocus />
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'אנשי קשר' });
    expect(dialog).toHaveAttribute('data-testid', 'the-modal');
    expect(dialog).toHaveClass('dialog', 'dialog--wide', 'compose-modal');
    expect(screen.getByLabelText('חיפוש')).toHaveFocus();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'סגירה' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.pointer({ keys: '[MouseLeft]', target: dialog.parentElement! });
    expect(onClose).toHaveBeenCalledTimes(3);
    // A press inside the dialog is not a press on the backdrop.
    await user.pointer({ keys: '[MouseLeft]', target: dialog });
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('without a marked field, focuses the first control of the content, not the close button', () => {
    render(
      <Modal title="תזמון" closeLabel="סגירה" onClose={() => {}} testId="m">
        <button type="button">מחר בבוקר</button>
      </Modal>,
    );
    expect(screen.getByRole('button', { name: 'מחר בבוקר' })).toHaveFocus();
  });

  it('stays open while busy', async () => {
    const onClose = vi.fn();
    render(
      <Modal title="תזמון" closeLabel="סגירה" onClose={onClose} testId="m" busy>
        <input aria-label="תאריך" />
      </Modal>,
    );
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'סגירה' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await user.pointer({ keys: '[MouseLeft]', target: screen.getByTestId('m').parentElement! });
    expect(onClose).not.toHaveBeenCalled();
  });
});
