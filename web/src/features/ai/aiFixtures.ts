// The AI settings as the server answers them with nothing chosen (Anthropic, the server's defaults,
// no key stored), for the tests of every card that reads them.

import type { AiSettings } from '../../api/ai';

/** Anthropic's server defaults. */
export const ANTHROPIC = { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com' } as const;

export const AI_SETTINGS: AiSettings = {
  provider: 'anthropic',
  model: '',
  baseUrl: '',
  effective: ANTHROPIC,
  defaults: ANTHROPIC,
  keyStored: false,
  keyRequired: true,
  baseUrlEditable: true,
};
