// The settings page's agent-access card (docs/API.md "Agent API (MCP)"): the endpoint's address
// to give an MCP client, the user's tokens (scopes, when made and last used, how many calls,
// revoked ones kept with their log), revoking one, and making one: a name and its scopes, the
// secret shown once with a Claude Desktop configuration that uses it.

import { useId, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { mcpKeys, type McpTokenCreated, type McpTokensResponse } from '../../api/mcp';
import { LoadError } from '../../components/LoadError';
import { heMcp } from '../../i18n/mcp';
import '../../styles/invites.css';
import { CopyButton } from './CopyButton';
import { NewToken } from './NewToken';
import { TokenRow } from './TokenRow';

const t = heMcp;

/** What an MCP client is given: the endpoint on this server, as the browser reaches it. */
export function endpointUrl(path: string): string {
  return `${window.location.origin}${path}`;
}

/** Claude Desktop's configuration for a token (it reaches remote servers through mcp-remote). */
export function claudeConfig(url: string, secret: string): string {
  const config = {
    mcpServers: {
      mailclient: {
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', `Authorization: Bearer ${secret}`],
      },
    },
  };
  return JSON.stringify(config, null, 2);
}

export function McpCard() {
  const idBase = useId();
  const { data, error, mutate } = useSWR<McpTokensResponse>(mcpKeys.tokens());
  const [created, setCreated] = useState<McpTokenCreated | null>(null);
  const url = endpointUrl(data?.endpoint ?? '/mcp');

  let list;
  if (data) {
    list = data.tokens.length ? (
      <ul className="mcp-tokens stack-list" data-testid="mcp-tokens">
        {data.tokens.map((tok) => (
          <TokenRow key={tok.id} token={tok} onChanged={() => void mutate()} />
        ))}
      </ul>
    ) : (
      <p className="card__status">{t.empty}</p>
    );
  } else if (error !== undefined) {
    list = (
      <LoadError message={`${t.loadFailed} ${errorMessage(error)}`} onRetry={() => void mutate()} testId="mcp-load-error" />
    );
  }

  return (
    <section className="card mcp-card" aria-labelledby={`${idBase}-title`} data-testid="mcp-card">
      <h2 id={`${idBase}-title`} className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>
      <ul className="mcp-card__notes">
        <li>{t.noSend}</li>
        <li>{t.untrusted}</li>
        <li>{t.backupNote}</li>
      </ul>
      <div className="mcp-card__endpoint">
        <span>{t.endpoint}:</span>
        <code data-testid="mcp-endpoint">{url}</code>
        <CopyButton text={url} />
      </div>

      {created ? (
        <div className="mcp-card__created" data-testid="mcp-created">
          <h3 className="card__subtitle">{t.secretTitle}</h3>
          <p className="notice notice--warning" role="note">
            {t.secretNote}
          </p>
          <div className="mcp-card__secret">
            <code data-testid="mcp-secret">{created.secret}</code>
            <CopyButton text={created.secret} />
          </div>
          <h4 className="card__subtitle">
            {t.configTitle} <bdi>claude_desktop_config.json</bdi>
          </h4>
          <pre className="mcp-card__config" dir="ltr" data-testid="mcp-config">
            {claudeConfig(url, created.secret)}
          </pre>
          <div>
            <button type="button" className="button" onClick={() => setCreated(null)} data-testid="mcp-created-done">
              {t.done}
            </button>
          </div>
        </div>
      ) : (
        <NewToken
          onCreated={(c) => {
            setCreated(c);
            void mutate();
          }}
        />
      )}
      {list}
    </section>
  );
}
