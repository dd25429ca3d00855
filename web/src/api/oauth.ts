// Signing in to Gmail and Microsoft mailboxes with OAuth2 (issue 24, /work/oauth-contract.md):
// the providers the admin configured, Microsoft's device-code flow, Google's authorization code
// with PKCE (back by redirect, or by pasting the address the browser ended on), and what the
// accounts list says about an account's sign-in. Typed calls, so components never spell a path.

import { api } from './client';

import type {
  DeviceFlowResponse,
  GoogleClaimRequest,
  GoogleClaimResponse,
  GoogleFinishRequest,
  GoogleFinishResponse,
  GoogleStartResponse,
  MailAccountAuth,
  OAuthFlowResponse,
  OAuthProvidersResponse,
  OAuthStartRequest,
} from './generated';

export type {
  DeviceFlowResponse,
  GoogleClaimResponse,
  GoogleFinishResponse,
  GoogleStartResponse,
  MailAccountAuth,
  OAuthFlowKind,
  OAuthFlowResponse,
  OAuthFlowState,
  OAuthProvider,
  OAuthProvidersResponse,
} from './generated';

/** The providers that sign in with OAuth2 (a MailAccountAuth other than the password). */
export type OAuthProviderId = Exclude<MailAccountAuth, 'password'>;

export const oauthKeys = {
  providers: () => '/api/oauth/providers',
  flow: (flowId: string) => `/api/oauth/flows/${encodeURIComponent(flowId)}`,
} as const;

export function oauthProviders(): Promise<OAuthProvidersResponse> {
  return api<OAuthProvidersResponse>(oauthKeys.providers());
}

export function startMicrosoftDevice(email: string): Promise<DeviceFlowResponse> {
  const body: OAuthStartRequest = { email };
  return api<DeviceFlowResponse>('/api/oauth/microsoft/device', { method: 'POST', body });
}

/** A device flow's state; asking is what makes the server ask Microsoft (at most once per interval). */
export function oauthFlow(flowId: string, signal?: AbortSignal): Promise<OAuthFlowResponse> {
  return api<OAuthFlowResponse>(oauthKeys.flow(flowId), { signal });
}

export function startGoogle(email: string): Promise<GoogleStartResponse> {
  const body: OAuthStartRequest = { email };
  return api<GoogleStartResponse>('/api/oauth/google/start', { method: 'POST', body });
}

/** The paste flow's end: the whole address the browser ended on. */
export function finishGoogle(flowId: string, redirectedUrl: string): Promise<GoogleFinishResponse> {
  const body: GoogleFinishRequest = { flowId, redirectedUrl };
  return api<GoogleFinishResponse>('/api/oauth/google/finish', { method: 'POST', body });
}

/**
 * The redirect flow's way back: which of this session's flows the returning state names, and the
 * address it connects (a 404 when the flow is not this user's). Nothing is connected yet.
 */
export function claimGoogle(state: string): Promise<GoogleClaimResponse> {
  const body: GoogleClaimRequest = { state };
  return api<GoogleClaimResponse>('/api/oauth/google/claim', { method: 'POST', body });
}

/** The redirect flow's end, once the user confirmed the address: the code and state the callback handed on. */
export function finishGoogleReturn(flowId: string, code: string, state: string): Promise<GoogleFinishResponse> {
  const body: GoogleFinishRequest = { flowId, code, state };
  return api<GoogleFinishResponse>('/api/oauth/google/finish', { method: 'POST', body });
}

/** How an account signs in to its mailbox (a record from before OAuth says nothing: a password). */
export function accountAuth(a: { auth?: MailAccountAuth | null }): MailAccountAuth {
  return a.auth === 'google' || a.auth === 'microsoft' ? a.auth : 'password';
}

/** The provider revoked or expired the sign-in: sync stopped until the user signs in again. */
export function accountNeedsSignIn(a: { needsSignIn?: boolean | null }): boolean {
  return a.needsSignIn === true;
}

/** The provider detection's id (src/mail/providers.rs) → the OAuth provider that signs it in. */
export function oauthProviderOf(detectedId: string | null | undefined): OAuthProviderId | null {
  if (detectedId === 'gmail') return 'google';
  if (detectedId === 'outlook') return 'microsoft';
  return null;
}
