import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

function renderDialog(props: { busy?: boolean; danger?: boolean } = {}) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <>
      <button type="button">לפני</button>
      <ConfirmDialog title="מחיקה" confirmLabel="מחק" cancelLabel="ביטול" onConfirm={onConfirm} onCancel={onCancel} {...props}>
        <p>למחוק?</p>
      </ConfirmDialog>
    </>,
  );
  return { onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  it('is a labelled modal dialog that starts on the safe choice', () => {
    renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'מחיקה' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('למחוק?');
    expect(screen.getByTestId('confirm-no')).toHaveFocus();
    expect(screen.getByTestId('confirm-yes')).toHaveClass('button--primary');
  });

  it('confirms with the yes button; Escape and the backdrop cancel', async () => {
    const { onConfirm, onCancel } = renderDialog({ danger: true });
    const user = userEvent.setup();
    expect(screen.getByTestId('confirm-yes')).toHaveClass('button--danger');
    await user.click(screen.getByTestId('confirm-yes'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.pointer({ keys: '[MouseLeft]', target: screen.getByTestId('confirm-dialog').parentElement! });
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('keeps Tab inside the dialog', async () => {
    renderDialog();
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByTestId('confirm-yes')).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByTestId('confirm-no')).toHaveFocus();
  });

  it('while busy, both buttons are disabled and neither Escape nor the backdrop cancels', () => {
    const { onCancel } = renderDialog({ busy: true });
    expect(screen.getByTestId('confirm-yes')).toBeDisabled();
    expect(screen.getByTestId('confirm-no')).toBeDisabled();
    fireEvent.keyDown(screen.getByTestId('confirm-dialog'), { key: 'Escape' });
    fireEvent.mouseDown(screen.getByTestId('confirm-dialog').parentElement!);
    expect(onCancel).not.toHaveBeenCalled();
  });
});
