// Making an agent token: its name and scopes (reading is ticked to start with; sending is never
// offered). The server answers the secret once; the card shows it (McpCard).

import { useId, useState } from 'react';
import { errorMessage } from '../../api/client';
import { createMcpToken, MCP_SCOPES, type McpScope, type McpTokenCreated } from '../../api/mcp';
import { TextField } from '../../components/Field';
import { heMcp } from '../../i18n/mcp';

const t = heMcp;

export function NewToken({ onCreated }: { onCreated: (created: McpTokenCreated) => void }) {
  const idBase = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<McpScope>>(() => new Set<McpScope>(['read']));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  function toggle(scope: McpScope, on: boolean) {
    setScopes((s) => {
      const next = new Set(s);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  async function create() {
    setBusy(true);
    setError('');
    try {
      const created = await createMcpToken(
        name.trim(),
        MCP_SCOPES.filter((s) => scopes.has(s)),
      );
      setName('');
      onCreated(created);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="mcp-card__new"
      data-testid="mcp-new"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h3 className="card__subtitle">{t.newToken}</h3>
      <TextField id={`${idBase}-name`} label={t.name} hint={t.nameHint} value={name} onValueChange={setName} maxLength={60} testId="mcp-name" />
      <fieldset className="mcp-card__scopes">
        <legend>{t.scopesLabel}</legend>
        {MCP_SCOPES.map((s) => (
          <label key={s}>
            <input
              type="checkbox"
              checked={scopes.has(s)}
              onChange={(e) => toggle(s, e.target.checked)}
              data-testid={`mcp-scope-${s}`}
            />
            {t.scopes[s]}
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="notice notice--error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="button button--primary" disabled={busy} data-testid="mcp-create">
          {busy ? t.creating : t.create}
        </button>
      </div>
    </form>
  );
}
