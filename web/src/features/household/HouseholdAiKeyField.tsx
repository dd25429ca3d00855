// The admin's AI key for the household (spec 001 §3 "Server mail settings payload":
// claudeApiKey), beside "save for all users": write-only (a password field, emptied after the
// save, the key never shown again), with a line saying whether the household has one, from
// GET /api/global-settings/email's `claudeApiKeySet`. Users without a key of their own use it.

import useSWR from 'swr';
import { householdKeys, type GlobalEmailResponse } from '../../api/household';
import { TextField } from '../../components/Field';
import { heHousehold } from '../../i18n/household';

const t = heHousehold.mail;

export function HouseholdAiKeyField({ value, onChange, disabled }: { value: string; onChange: (v: string) => void; disabled: boolean }) {
  const { data } = useSWR<GlobalEmailResponse>(householdKeys.email());
  const set = data?.settings?.claudeApiKeySet;
  return (
    <div className="household-ai-key" data-testid="household-ai-key">
      <TextField
        id="household-ai-key-input"
        verbatim
        label={t.aiKey}
        hint={t.aiKeyHint}
        type="password"
        autoComplete="off"
        disabled={disabled}
        value={value}
        onValueChange={onChange}
      />
      {set !== undefined && (
        <p className="field__hint" role="status" data-testid="household-ai-key-status" data-set={String(set)}>
          {set ? t.aiKeySet : t.aiKeyNotSet}
        </p>
      )}
    </div>
  );
}
