// AI help (docs/API.md "AI help"): the provider key and choice, the AI-training settings, the three
// compose/reply calls and the smart-features calls. Typed wrappers so components never spell a
// path or a body shape. Every failure arrives as an ApiError whose message is the server's Hebrew
// text (`ai_key_missing`, `ai_failed` with the reason); `isKeyMissing` tells the first apart so a
// screen can link to the settings.

import { ApiError, api } from './client';
import { failureMessage, withReason } from './outgoing';
import type {
  AiKeyResponse,
  AiLanguage,
  AiProviderChoice,
  AiSettings,
  AiTone,
  AiTrainingSettings,
  GenerateSubjectResponse,
  ImproveEmailResponse,
  SaveTrainingResponse,
  SmartComposeResponse,
  SmartReplyResponse,
  SmartSummaryResponse,
  SuggestedRepliesResponse,
} from './generated';

// The server's shapes (GET/PUT /api/settings/ai, /api/settings/ai-training, the AI calls' answers).
export type {
  AiKeyResponse,
  AiLanguage,
  AiProvider,
  AiProviderChoice,
  AiSettings,
  AiTemplate,
  AiTone,
  AiTrainingSettings,
  GenerateSubjectResponse,
  ImproveEmailResponse,
  Insights,
  InsightsBacklog,
  InsightsBusiestDay,
  InsightsReplyTime,
  InsightsSender,
  KeyExists,
  SaveTrainingResponse,
  Sentiment,
  SmartComposeResponse,
  SmartReplyResponse,
  SmartSummary,
  SmartSummaryResponse,
  SuggestedRepliesResponse,
  SuggestedReply,
  SummaryPriority,
  TrainingExample,
} from './generated';

export const AI_TONES: readonly AiTone[] = ['professional', 'friendly', 'formal', 'casual', 'creative'];
export const AI_LANGUAGES: readonly AiLanguage[] = ['auto', 'hebrew', 'english', 'arabic', 'russian'];
export const MAX_LENGTH_RANGE = { min: 50, max: 5000 } as const;

export type ImproveStyle = 'professional' | 'friendly' | 'concise';
export const IMPROVE_STYLES: readonly ImproveStyle[] = ['professional', 'friendly', 'concise'];

/** Optional extras of every call: overrides for this call only (nothing is stored). */
export interface AiCallOptions {
  settings?: Partial<AiTrainingSettings>;
  customSystemPrompt?: string;
  apiKey?: string;
}

export const aiKeys = {
  keyExists: () => '/api/settings/claude-api-key/exists',
  settings: () => '/api/settings/ai',
  training: () => '/api/settings/ai-training',
  insights: () => '/api/smart/insights',
} as const;

/** The server said no key is stored (the spec's 'לא הוגדר מפתח API של Claude…'). */
export function isKeyMissing(e: unknown): boolean {
  return e instanceof ApiError && e.code === 'ai_key_missing';
}

// ---- key and provider ----

export const storeApiKey = (apiKey: string) =>
  api<AiKeyResponse>('/api/settings/claude-api-key', { method: 'POST', body: { apiKey } });

export const deleteApiKey = () =>
  api<AiKeyResponse>('/api/settings/claude-api-key', { method: 'DELETE' });

export const saveAiSettings = (choice: AiProviderChoice) =>
  api<AiSettings>('/api/settings/ai', { method: 'PUT', body: choice });

/** GET /api/settings/ai-training outside SWR (the training page's 'טען מהשרת'). */
export const loadTraining = () => api<AiTrainingSettings>(aiKeys.training());

export const saveTraining = (settings: Omit<AiTrainingSettings, 'updatedAt'>) =>
  api<SaveTrainingResponse>('/api/settings/ai-training', { method: 'POST', body: settings });

// ---- the reply panel and compose ----

export interface EmailContent {
  from: string;
  subject: string;
  body: string;
  date?: string;
}

/** A stored mail by id (the server reads it and its thread), or content given here. */
export type SmartReplySource = { emailId: string } | { emailContent: EmailContent | string };

export interface SmartReplyOptions extends AiCallOptions {
  /** The id of one of the training settings' templates: its prompt is added as instructions. */
  templateId?: string;
}

export const smartReply = (source: SmartReplySource, options: SmartReplyOptions = {}) =>
  api<SmartReplyResponse>('/api/claude/smart-reply', { method: 'POST', body: { ...source, ...options } });

export const generateSubject = (emailBody: string, options: AiCallOptions = {}) =>
  api<GenerateSubjectResponse>('/api/claude/generate-subject', { method: 'POST', body: { emailBody, ...options } });

export const improveEmail = (emailContent: string, style: ImproveStyle, options: AiCallOptions = {}) =>
  api<ImproveEmailResponse>('/api/claude/improve-email', {
    method: 'POST',
    body: { emailContent, style, ...options },
  });

// ---- smart features ----

export const summarize = (emailId: string) =>
  api<SmartSummaryResponse>('/api/smart/summary', { method: 'POST', body: { emailId } });

export const suggestReplies = (emailId: string) =>
  api<SuggestedRepliesResponse>('/api/smart/replies', { method: 'POST', body: { emailId } });

export const smartCompose = (prompt: string, emailId?: string) =>
  api<SmartComposeResponse>('/api/smart/compose', {
    method: 'POST',
    body: emailId ? { prompt, emailId } : { prompt },
  });

/**
 * What to show for a failed AI call: the server's text as is when it already names the failure
 * (`ai_failed` starts with it), is the key-missing or empty-body message, else the spec's fixed
 * failure text with the server's reason after it ('שגיאה ביצירת כותרת: …'), or alone.
 */
export function aiFailureMessage(e: unknown, fixed: string): string {
  // A missing key or a refused request is a whole sentence of its own, not a reason for the failure.
  if (isKeyMissing(e) || (e instanceof ApiError && e.code === 'bad_request')) return failureMessage(e, fixed);
  return withReason(fixed, e);
}
