// One agent token in the card: its name, scopes, when it was made and last used, how many calls;
// its call log on demand (newest first: when, what, whether it worked); revoking it after a
// confirmation. A revoked token stays listed, greyed, with its log.

import { useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { mcpKeys, revokeMcpToken, type McpCallsResponse, type McpToken } from '../../api/mcp';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { heMcp } from '../../i18n/mcp';
import { formatDateTime } from '../../lib/dates';

const t = heMcp;

export function TokenRow({ token, onChanged }: { token: McpToken; onChanged: () => void }) {
  const toast = useToast();
  const [showCalls, setShowCalls] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function revoke() {
    setBusy(true);
    try {
      await revokeMcpToken(token.id);
      toast.success(t.revokedToast);
      setConfirming(false);
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const revoked = token.revokedAt !== null;
  return (
    <li className={`mcp-token${revoked ? ' mcp-token--revoked' : ''}`} data-testid="mcp-token" data-revoked={revoked}>
      <div className="mcp-token__head">
        <bdi className="mcp-token__name">{token.name}</bdi>
        {token.scopes.map((s) => (
          <span key={s} className="label-chip" data-testid="mcp-token-scope">
            {t.scopes[s]}
          </span>
        ))}
      </div>
      <div className="mcp-token__meta">
        <span>{t.created(formatDateTime(token.createdAt))}</span>
        <span>{token.lastUsedAt ? t.lastUsed(formatDateTime(token.lastUsedAt)) : t.neverUsed}</span>
        <span data-testid="mcp-token-calls">{t.calls(token.calls)}</span>
        {token.revokedAt && <span>{t.revokedAt(formatDateTime(token.revokedAt))}</span>}
      </div>
      <div className="mcp-token__head">
        <button
          type="button"
          className="link-button"
          aria-expanded={showCalls}
          onClick={() => setShowCalls((v) => !v)}
          data-testid="mcp-token-show-calls"
        >
          {showCalls ? t.hideCalls : t.showCalls}
        </button>
        {!revoked && (
          <button
            type="button"
            className="link-button link-button--danger"
            onClick={() => setConfirming(true)}
            data-testid="mcp-token-revoke"
          >
            {t.revoke}
          </button>
        )}
      </div>
      {showCalls && <Calls tokenId={token.id} />}
      {confirming && (
        <ConfirmDialog
          title={t.revokeTitle}
          confirmLabel={t.revokeConfirm}
          cancelLabel={t.keep}
          danger
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t.revokeBody(token.name)}</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function Calls({ tokenId }: { tokenId: string }) {
  const { data, error } = useSWR<McpCallsResponse>(mcpKeys.calls(tokenId));
  if (error !== undefined && !data) {
    return (
      <p className="notice notice--error" role="alert">
        {t.callsLoadFailed}: {errorMessage(error)}
      </p>
    );
  }
  if (!data) return null;
  if (!data.calls.length) return <p className="card__status">{t.noCalls}</p>;
  return (
    <ul className="mcp-calls" data-testid="mcp-calls">
      {data.calls.map((c, i) => (
        <li key={i} data-ok={c.ok}>
          <span>{formatDateTime(c.at)}</span>
          <span className="mcp-calls__target">{c.target || c.method}</span>
          {!c.ok && <span className="mcp-calls__failed">{t.callFailed}</span>}
        </li>
      ))}
    </ul>
  );
}
