// The OAuth2 providers the admin configured (GET /api/oauth/providers): the card shows a sign-in
// button for each. A failure to ask counts as none configured: the password form still works.

import useSWR from 'swr';
import { oauthKeys, type OAuthProvider, type OAuthProviderId, type OAuthProvidersResponse } from '../../api/oauth';
import { useAuth } from '../../session/AuthProvider';

export function useOAuthProviders() {
  const { isAuthenticated } = useAuth();
  const swr = useSWR<OAuthProvidersResponse>(isAuthenticated ? oauthKeys.providers() : null, {
    revalidateOnFocus: false,
  });
  const providers: OAuthProvider[] = Array.isArray(swr.data?.providers)
    ? swr.data.providers.filter((p) => p.id === 'google' || p.id === 'microsoft')
    : [];
  return {
    providers,
    /** Known once the server answered (or failed to): the help for unconfigured providers waits for it. */
    loaded: swr.data !== undefined || swr.error !== undefined,
    configured: (id: OAuthProviderId) => providers.some((p) => p.id === id),
  };
}
