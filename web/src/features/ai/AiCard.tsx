// "עזרת AI" (docs/API.md "AI help", spec 001 "AI key"): the provider key, the provider / model /
// base URL choice, and a short note on which data goes to the provider.
// A stored key is bound to the provider and address it was stored for: when a save of the
// provider makes `keyStored` turn false, the key section says the key belongs to the old setting.

import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, type AiSettings } from '../../api/ai';
import { errorMessage } from '../../api/client';
import { LoadError } from '../../components/LoadError';
import { he } from '../../i18n/he';
import { AiKeySection } from './AiKeySection';
import { AiProviderForm } from './AiProviderForm';

const t = he.aiSettings;

export function AiCard() {
  const settings = useSWR<AiSettings>(aiKeys.settings());
  const { mutate } = useSWRConfig();
  const [keyElsewhere, setKeyElsewhere] = useState(false);

  function onSaved(before: AiSettings, after: AiSettings) {
    setKeyElsewhere(before.keyStored && !after.keyStored);
    // The key's status follows the provider and address in effect: re-read it.
    void mutate(aiKeys.keyExists(), { exists: after.keyStored }, { revalidate: true });
  }

  let provider;
  if (settings.data) {
    provider = <AiProviderForm settings={settings.data} mutate={settings.mutate} onSaved={onSaved} />;
  } else if (settings.error) {
    provider = (
      <LoadError
        message={`${t.loadFailed} ${errorMessage(settings.error)}`}
        onRetry={() => void settings.mutate()}
        testId="ai-settings-load-error"
      />
    );
  } else {
    provider = (
      <p className="card__status" role="status">
        {t.loading}
      </p>
    );
  }

  return (
    <section className="card ai-card" aria-labelledby="ai-card-title" data-testid="ai-card">
      <h2 id="ai-card-title" className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>
      <p className="notice notice--info ai-card__privacy" data-testid="ai-privacy">
        {t.privacy}
      </p>
      <AiKeySection
        keyRequired={settings.data?.keyRequired}
        keyElsewhere={keyElsewhere && settings.data?.keyStored === false}
      />
      {provider}
    </section>
  );
}
