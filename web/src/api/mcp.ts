// The agent API's tokens (docs/API.md "Agent API (MCP)"): the settings page lists, makes and
// revokes them and reads each one's call log. The secret of a new token comes once, in the
// answer that made it.

import { api } from './client';
import type { McpCallsResponse, McpScope, McpTokenCreated, McpTokenRevoked } from './generated';

export type { McpCall, McpCallsResponse, McpScope, McpToken, McpTokenCreated, McpTokensResponse } from './generated';

const id = (value: string) => encodeURIComponent(value);

/** Every scope, in the order the form offers them (sending is none of them). */
export const MCP_SCOPES: readonly McpScope[] = ['read', 'triage', 'drafts'];

export const mcpKeys = {
  tokens: () => '/api/mcp/tokens',
  calls: (tokenId: string) => `/api/mcp/tokens/${id(tokenId)}/calls`,
};

export const createMcpToken = (name: string, scopes: McpScope[]) =>
  api<McpTokenCreated>('/api/mcp/tokens', { method: 'POST', body: { name, scopes } });

export const revokeMcpToken = (tokenId: string) =>
  api<McpTokenRevoked>(`/api/mcp/tokens/${id(tokenId)}`, { method: 'DELETE' });

export const mcpCalls = (tokenId: string) => api<McpCallsResponse>(mcpKeys.calls(tokenId));
