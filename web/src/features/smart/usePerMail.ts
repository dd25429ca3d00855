// One AI call's state per mail id (busy, last error, last answer), so the summary or the
// suggestions of mail A are never shown under mail B, an answer for A arriving after the user
// moved to B lands under A, and coming back to A shows what was already generated.

import { useCallback, useState } from 'react';

export interface MailTask<T> {
  busy: boolean;
  error?: unknown;
  data?: T;
}

const IDLE: MailTask<never> = { busy: false };

export function usePerMail<T>() {
  const [byMail, setByMail] = useState<Record<string, MailTask<T>>>({});

  const run = useCallback(async (mailId: string, call: () => Promise<T>) => {
    const patch = (next: Partial<MailTask<T>>) =>
      setByMail((s) => ({ ...s, [mailId]: { ...(s[mailId] ?? IDLE), ...next } }));
    patch({ busy: true, error: undefined });
    try {
      const data = await call();
      patch({ busy: false, data });
    } catch (e) {
      patch({ busy: false, error: e });
    }
  }, []);

  const stateOf = useCallback((mailId: string | null | undefined): MailTask<T> => (mailId ? byMail[mailId] : undefined) ?? IDLE, [byMail]);

  return { run, stateOf };
}
