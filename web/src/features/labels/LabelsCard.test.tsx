import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Label } from '../../api/labels';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { LabelsCard } from './LabelsCard';
import { lookOf } from './useLabels';

const PALETTE = ['#d93025', '#e8710a', '#f9ab00', '#188038', '#1a73e8', '#9334e6', '#e52592', '#5f6368'];
const WORK: Label = { id: '1', keyword: '$label_0123456789', name: 'עבודה', color: '#188038' };

function list(labels: Label[]) {
  return { labels, defaultColor: '#5f6368', palette: PALETTE, maxLabels: 100, maxName: 40 };
}

function server() {
  let labels = [WORK];
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/labels': () => json(200, list(labels)),
    'POST /api/labels': (init) => {
      const body = JSON.parse(String(init?.body));
      if (labels.some((l) => l.name === body.name)) return json(400, { success: false, error: 'bad_request', message: 'כבר יש תווית בשם הזה' });
      const made = { id: '2', keyword: '$label_aaaaaaaaaa', name: body.name, color: body.color };
      labels = [...labels, made];
      return json(200, made);
    },
    'PUT /api/labels/1': (init) => {
      labels = labels.map((l) => (l.id === '1' ? { ...l, ...JSON.parse(String(init?.body)) } : l));
      return json(200, labels[0]);
    },
    'DELETE /api/labels/1': () => {
      labels = labels.filter((l) => l.id !== '1');
      return json(200, { success: true, unlabelled: 3 });
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('lookOf', () => {
  it('names a keyword by its label, else shows it as it is in the default colour', () => {
    const data = list([WORK]);
    expect(lookOf('$LABEL_0123456789', data)).toMatchObject({ name: 'עבודה', color: '#188038', known: true });
    expect(lookOf('invoices', data)).toEqual({ keyword: 'invoices', name: 'invoices', color: '#5f6368', known: false });
    expect(lookOf('invoices', undefined).color).toBeNull();
  });
});

describe('LabelsCard', () => {
  it('creates a Hebrew label with a palette colour, recolours, renames and deletes', async () => {
    const fetch = server();
    signInAs(DANA);
    renderWithProviders(<LabelsCard />, { route: '/Settings' });
    const row = await screen.findByTestId('label-row');
    expect(within(row).getByTestId('label-row-chip')).toHaveTextContent('עבודה');
    expect(within(row).getByTestId('label-row-chip').style.getPropertyValue('--label-color')).toBe('#188038');

    // New: a name and the purple swatch.
    await userEvent.type(screen.getByTestId('label-new-name'), 'משפחה');
    const swatches = within(screen.getByTestId('label-new-colors'));
    await userEvent.click(swatches.getByRole('radio', { name: 'סגול' }));
    await userEvent.click(screen.getByTestId('label-new-add'));
    await waitFor(() => expect(screen.getAllByTestId('label-row')).toHaveLength(2));
    expect(bodyOf(calls(fetch, 'POST', '/api/labels')[0])).toEqual({ name: 'משפחה', color: '#9334e6' });

    // A name already there: the server's Hebrew words, nothing lost.
    await userEvent.type(screen.getByTestId('label-new-name'), 'עבודה');
    await userEvent.click(screen.getByTestId('label-new-add'));
    expect(await screen.findByTestId('label-new-error')).toHaveTextContent('כבר יש תווית בשם הזה');

    // Recolour at once; rename on save.
    const first = screen.getAllByTestId('label-row')[0];
    await userEvent.click(within(within(first).getByTestId('label-row-colors')).getByRole('radio', { name: 'כחול' }));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/labels/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/labels/1')[0])).toEqual({ color: '#1a73e8' });
    const name = within(screen.getAllByTestId('label-row')[0]).getByTestId('label-row-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'עבודה שוטפת');
    await userEvent.click(within(screen.getAllByTestId('label-row')[0]).getByTestId('label-row-rename'));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/labels/1')).toHaveLength(2));
    expect(bodyOf(calls(fetch, 'PUT', '/api/labels/1')[1])).toEqual({ name: 'עבודה שוטפת' });

    // Delete says what it does to the mail, then does it.
    await userEvent.click(within(screen.getAllByTestId('label-row')[0]).getByTestId('label-row-delete'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('תוסר מכל המיילים שלך');
    await userEvent.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.getAllByTestId('label-row')).toHaveLength(1));
    expect(calls(fetch, 'DELETE', '/api/labels/1')).toHaveLength(1);
  });
});
