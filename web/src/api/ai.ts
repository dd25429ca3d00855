// AI help (docs/API.md "AI help"): the provider key and choice, the AI-training settings, the three
// compose/reply calls and the smart-features calls. Typed wrappers so components never spell a
// path or a body shape. Every failure arrives as an ApiError whose message is the server's Hebrew
// text (`ai_key_missing`, `ai_failed` with the reason); `isKeyMissing` tells the first apart so a
// screen can link to the settings.

import { ApiError, api } from './client';
import { failureMessage, withReason } from './outgoing';

export type AiProvider = 'anthropic' | 'openai';

export interface AiProviderChoice {
  provider: AiProvider;
  model: string;
  baseUrl: string;
}

/** GET/PUT /api/settings/ai: the user's overrides ('' = server default) and what is in effect. */
export interface AiSettings extends AiProviderChoice {
  effective: AiProviderChoice;
  defaults: AiProviderChoice;
  keyStored: boolean;
  /** False for an OpenAI-compatible server (a local model needs no key). */
  keyRequired: boolean;
  /**
   * Whether this user may set the base URL (admins, or all when the server allows it). When false,
   * a PUT that changes `baseUrl` from the saved one answers 403.
   */
  baseUrlEditable: boolean;
}

export type AiTone = 'professional' | 'friendly' | 'formal' | 'casual' | 'creative';
export type AiLanguage = 'auto' | 'hebrew' | 'english' | 'arabic' | 'russian';

export interface AiTemplate {
  id: string;
  name: string;
  prompt: string;
}

export interface TrainingExample {
  id: string;
  text: string;
  date: string;
}

/** spec 001 §3 "AI training settings" (server defaults filled in). */
export interface AiTrainingSettings {
  systemPrompt: string;
  templates: AiTemplate[];
  tone: AiTone;
  language: AiLanguage;
  /** 0–1, steps of 0.1: the request's temperature. */
  creativity: number;
  /** 50–5000 words. */
  maxLength: number;
  includeContext: boolean;
  autoCorrect: boolean;
  spamTrainingEnabled: boolean;
  spamExamples: TrainingExample[];
  hamExamples: TrainingExample[];
  spamKeywords: string;
  spamDomains: string;
  spamPatterns: string;
  /** RFC 3339; null until first saved. */
  updatedAt: string | null;
}

export const AI_TONES: readonly AiTone[] = ['professional', 'friendly', 'formal', 'casual', 'creative'];
export const AI_LANGUAGES: readonly AiLanguage[] = ['auto', 'hebrew', 'english', 'arabic', 'russian'];
export const MAX_LENGTH_RANGE = { min: 50, max: 5000 } as const;

export type ImproveStyle = 'professional' | 'friendly' | 'concise';
export const IMPROVE_STYLES: readonly ImproveStyle[] = ['professional', 'friendly', 'concise'];

export type Sentiment = 'positive' | 'negative' | 'neutral';
export type SummaryPriority = 'low' | 'medium' | 'high' | 'urgent';

export interface SmartSummary {
  summary: string;
  sentiment: Sentiment;
  priority: SummaryPriority;
}

export interface SuggestedReply {
  label: string;
  text: string;
}

/** GET /api/smart/insights: computed from the user's stored mail over `periodDays`. */
export interface Insights {
  periodDays: number;
  received: number;
  sent: number;
  replyTime: { medianHours: number | null; averageHours: number | null; samples: number };
  /** answered ÷ (answered + still waiting for a reply); null when there is neither. */
  replyRate: number | null;
  needsReply: { count: number; urgent: number; oldestDays: number | null };
  busiestSenders: { address: string; name: string; count: number }[];
  /** 0 = Sunday. */
  busiestDay: { weekday: number; count: number } | null;
}

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
  api<{ success: boolean; exists: boolean }>('/api/settings/claude-api-key', { method: 'POST', body: { apiKey } });

export const deleteApiKey = () =>
  api<{ success: boolean; exists: boolean }>('/api/settings/claude-api-key', { method: 'DELETE' });

export const saveAiSettings = (choice: AiProviderChoice) =>
  api<AiSettings>('/api/settings/ai', { method: 'PUT', body: choice });

/** GET /api/settings/claude-api-key/exists (the SWR key `aiKeys.keyExists`). */
export interface KeyExists {
  exists: boolean;
}

/** GET /api/settings/ai-training outside SWR (the training page's 'טען מהשרת'). */
export const loadTraining = () => api<AiTrainingSettings>(aiKeys.training());

export const saveTraining = (settings: Omit<AiTrainingSettings, 'updatedAt'>) =>
  api<{ success: boolean; settings: AiTrainingSettings }>('/api/settings/ai-training', { method: 'POST', body: settings });

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
  api<{ success: boolean; reply: string }>('/api/claude/smart-reply', { method: 'POST', body: { ...source, ...options } });

export const generateSubject = (emailBody: string, options: AiCallOptions = {}) =>
  api<{ success: boolean; subject: string }>('/api/claude/generate-subject', { method: 'POST', body: { emailBody, ...options } });

export const improveEmail = (emailContent: string, style: ImproveStyle, options: AiCallOptions = {}) =>
  api<{ success: boolean; improved: string; improvedText: string }>('/api/claude/improve-email', {
    method: 'POST',
    body: { emailContent, style, ...options },
  });

// ---- smart features ----

export const summarize = (emailId: string) =>
  api<{ success: boolean } & SmartSummary>('/api/smart/summary', { method: 'POST', body: { emailId } });

export const suggestReplies = (emailId: string) =>
  api<{ success: boolean; replies: SuggestedReply[] }>('/api/smart/replies', { method: 'POST', body: { emailId } });

export const smartCompose = (prompt: string, emailId?: string) =>
  api<{ success: boolean; content: string }>('/api/smart/compose', {
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
