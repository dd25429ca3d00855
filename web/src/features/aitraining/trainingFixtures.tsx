// The AI training page's tests: its settings as the server answers them (the test's own values
// over a plain copy), a server that keeps what is saved, and the page rendered and loaded.

import { screen } from '@testing-library/react';
import type { AiTrainingSettings } from '../../api/ai';
import type { User } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs, type Handler } from '../../test/helpers';
import AITrainingPage from './AITrainingPage';

/** What GET /api/global-settings/ai-training/exists says when the household has none. */
export const NO_GLOBAL = { exists: false, lastUpdated: null, updatedBy: null };

export function trainingSettings(over: Partial<AiTrainingSettings> = {}): AiTrainingSettings {
  return {
    systemPrompt: 'אתה עוזר אישי שכותב מיילים בשמי.',
    templates: [],
    tone: 'professional',
    language: 'auto',
    creativity: 0.7,
    maxLength: 2000,
    includeContext: true,
    autoCorrect: true,
    spamTrainingEnabled: true,
    spamExamples: [],
    hamExamples: [],
    spamKeywords: '',
    spamDomains: '',
    spamPatterns: '',
    updatedAt: '2026-11-22T10:00:00Z',
    ...over,
  };
}

/** A server that keeps what is saved and answers with it; no household settings unless `routes` say so. */
export function trainingServer(initial: AiTrainingSettings, routes: Record<string, Handler> = {}, user: User = DANA) {
  let stored = initial;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user }),
    'GET /api/settings/ai-training': () => json(200, stored),
    'GET /api/global-settings/ai-training/exists': () => json(200, NO_GLOBAL),
    'POST /api/settings/ai-training': (init) => {
      stored = { ...stored, ...JSON.parse(String(init?.body)), updatedAt: '2026-11-23T09:00:00Z' };
      return json(200, { success: true, settings: stored });
    },
    ...routes,
  });
}

/** Signs `user` in and renders the page, once its general tab is there. */
export async function renderTrainingPage(user: User = DANA) {
  signInAs(user);
  const r = renderWithProviders(<AITrainingPage />, { route: '/AITraining' });
  await screen.findByTestId('training-general');
  return r;
}
