// What the settings page's agent-access card reads in other cards' tests: no token yet.
import { json } from '../../test/helpers';

export const MCP_ROUTES = {
  'GET /api/mcp/tokens': () => json(200, { tokens: [], endpoint: '/mcp' }),
};
