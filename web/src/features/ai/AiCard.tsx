// "עזרת AI" (docs/API.md "AI help", spec 001 "AI key"): the provider key, the provider / model /
// base URL choice, and a short note on which data goes to the provider.
// A stored key is bound to the provider and address it was stored for: when a save of the
// provider makes `keyStored` turn false, the key section says the key belongs to the old setting.

import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, type AiSettings, type KeyExists } from '../../api/ai';
import { Card } from '../../components/Card';
import { LoadState } from '../../components/LoadState';
import { heAiSettings } from '../../i18n/aiSettings';
import { AiKeySection } from './AiKeySection';
import { AiProviderForm } from './AiProviderForm';

const t = heAiSettings;

export function AiCard() {
  const settings = useSWR<AiSettings>(aiKeys.settings());
  const { mutate } = useSWRConfig();
  const [keyElsewhere, setKeyElsewhere] = useState(false);

  function onSaved(before: AiSettings, after: AiSettings) {
    setKeyElsewhere(before.keyStored && !after.keyStored);
    // The key's status follows the provider and address in effect: re-read it.
    void mutate(
      aiKeys.keyExists(),
      (prev?: KeyExists) => ({ household: prev?.household ?? false, exists: after.keyStored }),
      { revalidate: true },
    );
  }

  let provider;
  if (settings.data) {
    provider = <AiProviderForm settings={settings.data} mutate={settings.mutate} onSaved={onSaved} />;
  } else {
    provider = <LoadState of={settings} text={t} testIds={{ error: 'ai-settings-load-error' }} />;
  }

  return (
    <Card id="ai-card" title={t.title} intro={t.intro} className="ai-card" testId="ai-card">
      <p className="notice notice--info ai-card__privacy" data-testid="ai-privacy">
        {t.privacy}
      </p>
      <AiKeySection
        keyRequired={settings.data?.keyRequired}
        keyElsewhere={keyElsewhere && settings.data?.keyStored === false}
      />
      {provider}
    </Card>
  );
}
