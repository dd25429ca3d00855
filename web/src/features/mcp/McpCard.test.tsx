import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpToken } from '../../api/mcp';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { claudeConfig, McpCard } from './McpCard';

const TOKEN: McpToken = {
  id: '4',
  name: 'Claude Desktop',
  scopes: ['read', 'drafts'],
  createdAt: '2026-11-20T10:00:00Z',
  lastUsedAt: '2026-11-21T08:30:00Z',
  calls: 12,
  revokedAt: null,
};

function server() {
  let tokens = [TOKEN];
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/mcp/tokens': () => json(200, { tokens, endpoint: '/mcp' }),
    'POST /api/mcp/tokens': (init) => {
      const body = JSON.parse(String(init?.body));
      if (!body.name) return json(400, { success: false, error: 'bad_request', message: 'יש לתת לאסימון שם' });
      const token = { ...TOKEN, id: '5', name: body.name, scopes: body.scopes, calls: 0, lastUsedAt: null };
      tokens = [token, ...tokens];
      return json(200, { token, secret: 'mcp_' + 'a'.repeat(64) });
    },
    'DELETE /api/mcp/tokens/4': () => {
      tokens = tokens.map((t) => (t.id === '4' ? { ...t, revokedAt: '2026-11-22T00:00:00Z' } : t));
      return json(200, { success: true });
    },
    'GET /api/mcp/tokens/4/calls': () =>
      json(200, {
        calls: [
          { at: '2026-11-21T08:30:00Z', method: 'tools/call', target: 'search_mail', ok: true, error: null, millis: 12 },
          { at: '2026-11-21T08:29:00Z', method: 'tools/call', target: 'send_email', ok: false, error: 'Unknown tool', millis: 1 },
        ],
      }),
  });
}

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(<McpCard />, { route: '/Settings' });
}

afterEach(() => vi.unstubAllGlobals());

describe('McpCard', () => {
  it('lists the tokens with their scopes, use and call log', async () => {
    server();
    renderCard();
    const row = await screen.findByTestId('mcp-token');
    expect(row.textContent).toContain('Claude Desktop');
    expect(within(row).getAllByTestId('mcp-token-scope').map((e) => e.textContent)).toEqual([
      'קריאה וחיפוש',
      'כתיבת טיוטות תשובה',
    ]);
    expect(within(row).getByTestId('mcp-token-calls').textContent).toBe('12 קריאות');
    await userEvent.click(within(row).getByTestId('mcp-token-show-calls'));
    const calls = await screen.findByTestId('mcp-calls');
    expect(calls.textContent).toContain('search_mail');
    expect(calls.textContent).toContain('נכשל');
    expect(screen.getByTestId('mcp-endpoint').textContent).toMatch(/\/mcp$/);
  });

  it('makes a token with the chosen scopes and shows its secret once', async () => {
    const fetch = server();
    renderCard();
    await screen.findByTestId('mcp-token');
    await userEvent.type(screen.getByTestId('mcp-name'), 'סקריפט');
    await userEvent.click(screen.getByTestId('mcp-scope-triage'));
    await userEvent.click(screen.getByTestId('mcp-create'));
    const secret = await screen.findByTestId('mcp-secret');
    expect(secret.textContent).toBe('mcp_' + 'a'.repeat(64));
    expect(screen.getByTestId('mcp-config').textContent).toContain('Authorization: Bearer mcp_');
    const post = fetch.mock.calls.find(([u, i]) => String(u) === '/api/mcp/tokens' && i?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ name: 'סקריפט', scopes: ['read', 'triage'] });
    await userEvent.click(screen.getByTestId('mcp-created-done'));
    expect(screen.queryByTestId('mcp-secret')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('mcp-token')).toHaveLength(2));
  });

  it('shows the server\'s Hebrew message when the name is missing', async () => {
    server();
    renderCard();
    await screen.findByTestId('mcp-token');
    await userEvent.click(screen.getByTestId('mcp-create'));
    expect((await screen.findByTestId('mcp-error')).textContent).toBe('יש לתת לאסימון שם');
  });

  it('revokes after a confirmation', async () => {
    const fetch = server();
    renderCard();
    const row = await screen.findByTestId('mcp-token');
    await userEvent.click(within(row).getByTestId('mcp-token-revoke'));
    await userEvent.click(within(screen.getByTestId('confirm-dialog')).getByRole('button', { name: 'ביטול האסימון' }));
    await waitFor(() => expect(screen.getByTestId('mcp-token').getAttribute('data-revoked')).toBe('true'));
    expect(fetch.mock.calls.some(([u, i]) => String(u) === '/api/mcp/tokens/4' && i?.method === 'DELETE')).toBe(true);
  });

  it('writes a Claude Desktop configuration that passes the token as a header', () => {
    const config = JSON.parse(claudeConfig('http://mail.home:8080/mcp', 'mcp_x'));
    expect(config.mcpServers.mailclient.args).toEqual([
      '-y',
      'mcp-remote',
      'http://mail.home:8080/mcp',
      '--header',
      'Authorization: Bearer mcp_x',
    ]);
  });
});
