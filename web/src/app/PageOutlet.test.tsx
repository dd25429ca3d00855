// The page outlet loads the page of the path: a real page, not a placeholder.

import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DANA, json, LAZY_PAGE, mockFetch, renderWithProviders, signInAs } from '../test/helpers';
import { PageOutlet, preloadPage } from './PageOutlet';

describe('PageOutlet', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the AI training page at /AITraining (no longer the placeholder)', async () => {
    mockFetch({ 'GET /api/app/me': () => json(200, { success: true, user: DANA }) });
    signInAs(DANA);
    renderWithProviders(<PageOutlet />, { route: '/AITraining' });
    expect(await screen.findByTestId('page-AITrainingPage', {}, LAZY_PAGE)).toBeInTheDocument();
  });

  it('renders a preloaded page in its first commit, without the loading fallback', async () => {
    mockFetch({ 'GET /api/app/me': () => json(200, { success: true, user: DANA }) });
    signInAs(DANA);
    preloadPage('Contacts');
    // The module's arrival, as main.tsx's preload has it before React's first render.
    await import('../features/contacts/ContactsPage');
    await new Promise((resolve) => setTimeout(resolve, 0));
    renderWithProviders(<PageOutlet />, { route: '/Contacts' });
    expect(document.querySelector('.page-loading')).toBeNull();
    expect(screen.getByTestId('page-ContactsPage')).toBeInTheDocument();
  });
});
