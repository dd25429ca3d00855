// Signing in to Gmail and Microsoft mailboxes with OAuth2 (issue 24, /work/oauth-contract.md):
// the providers the admin configured, Microsoft's device-code flow, Google's authorization code
// with PKCE (back by redirect, or by pasting the address the browser ended on), and what the
// accounts list says about an account's sign-in. Typed calls, so components never spell a path.

import { api } from './client';
import type { MailAccountWithSync } from './types';

export type OAuthProviderId = 'google' | 'microsoft';

/** How a provider's sign-in comes back: by redirect, by a pasted address, or by a device code. */
export type OAuthFlowMode = 'redirect' | 'paste' | 'device';

export interface OAuthProvider {
  id: OAuthProviderId;
  flow: OAuthFlowMode;
}

export interface OAuthProvidersResponse {
  providers: OAuthProvider[];
}

export interface DeviceFlowResponse {
  flowId: string;
  userCode: string;
  verificationUri: string;
  /** Seconds the code is good for. */
  expiresIn: number;
  /** Seconds between polls. */
  interval: number;
}

export type OAuthFlowState = 'pending' | 'done' | 'expired' | 'denied' | 'failed';

export interface OAuthFlowResponse {
  state: OAuthFlowState;
  /** Hebrew, when not pending or done. */
  message?: string | null;
  email?: string | null;
}

export interface GoogleStartResponse {
  flowId: string;
  authorizeUrl: string;
  flow: 'redirect' | 'paste';
  redirectUri: string;
}

export interface GoogleFinishResponse {
  state: 'done';
  email: string;
}

export const oauthKeys = {
  providers: () => '/api/oauth/providers',
  flow: (flowId: string) => `/api/oauth/flows/${encodeURIComponent(flowId)}`,
} as const;

export function oauthProviders(): Promise<OAuthProvidersResponse> {
  return api<OAuthProvidersResponse>(oauthKeys.providers());
}

export function startMicrosoftDevice(email: string): Promise<DeviceFlowResponse> {
  return api<DeviceFlowResponse>('/api/oauth/microsoft/device', { method: 'POST', body: { email } });
}

/** A device flow's state; asking is what makes the server ask Microsoft (at most once per interval). */
export function oauthFlow(flowId: string, signal?: AbortSignal): Promise<OAuthFlowResponse> {
  return api<OAuthFlowResponse>(oauthKeys.flow(flowId), { signal });
}

export function startGoogle(email: string): Promise<GoogleStartResponse> {
  return api<GoogleStartResponse>('/api/oauth/google/start', { method: 'POST', body: { email } });
}

/** The paste flow's end: the whole address the browser ended on. */
export function finishGoogle(flowId: string, redirectedUrl: string): Promise<GoogleFinishResponse> {
  return api<GoogleFinishResponse>('/api/oauth/google/finish', { method: 'POST', body: { flowId, redirectedUrl } });
}

/** How an account signs in to its mailbox. */
export type AccountAuth = 'password' | OAuthProviderId;

type WithAuth = Pick<MailAccountWithSync, 'email_address'> & { auth?: string | null; needsSignIn?: boolean | null };

export function accountAuth(a: WithAuth): AccountAuth {
  return a.auth === 'google' || a.auth === 'microsoft' ? a.auth : 'password';
}

/** The provider revoked or expired the sign-in: sync stopped until the user signs in again. */
export function accountNeedsSignIn(a: WithAuth): boolean {
  return a.needsSignIn === true;
}

/** The provider detection's id (src/mail/providers.rs) → the OAuth provider that signs it in. */
export function oauthProviderOf(detectedId: string | null | undefined): OAuthProviderId | null {
  if (detectedId === 'gmail') return 'google';
  if (detectedId === 'outlook') return 'microsoft';
  return null;
}
