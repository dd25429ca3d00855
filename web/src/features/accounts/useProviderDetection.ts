// Provider detection for the mail account form (spec 001 "Provider detection"): once the user
// pauses typing an address (or leaves the field), GET the provider for it; only the newest
// answer counts, and an address asked about once is not asked about again. `detectNow` is the
// "detect provider" button: it always asks, and reports the answer or the failure to its caller.

import { useCallback, useEffect, useRef, useState } from 'react';
import { detectProvider } from '../../api/mail';
import type { DetectedProvider } from '../../api/types';
import { looksLikeAddress } from '../../lib/address';

/** Detection runs this long after the last keystroke in the address (and at once on blur). */
const DETECT_DELAY_MS = 500;

export function useProviderDetection(email: string, onFound: (provider: DetectedProvider) => void) {
  const [provider, setProvider] = useState<DetectedProvider | null>(null);
  const [detecting, setDetecting] = useState(false);
  const lastDetected = useRef('');
  const detectSeq = useRef(0);

  const detect = useCallback(
    async (value: string) => {
      const address = value.trim();
      if (!looksLikeAddress(address) || address.toLowerCase() === lastDetected.current) return;
      lastDetected.current = address.toLowerCase();
      const seq = ++detectSeq.current;
      setDetecting(true);
      try {
        const res = await detectProvider(address);
        if (seq !== detectSeq.current) return;
        const found = res?.provider;
        if (!found) return;
        setProvider(found);
        onFound(found);
      } catch {
        // An address the server cannot read: nothing to fill in; saving will say what is wrong.
        if (seq === detectSeq.current) setProvider(null);
      } finally {
        if (seq === detectSeq.current) setDetecting(false);
      }
    },
    [onFound],
  );

  /**
   * Asks at once, even about an address asked about before. Resolves to the provider, or to
   * undefined when a newer request (or a reset) took over; rejects with the request's error.
   */
  const detectNow = useCallback(async (value: string): Promise<DetectedProvider | undefined> => {
    const address = value.trim();
    lastDetected.current = address.toLowerCase();
    const seq = ++detectSeq.current;
    setDetecting(true);
    try {
      const res = await detectProvider(address);
      if (seq !== detectSeq.current) return undefined;
      const found = res?.provider;
      if (!found) throw new Error('no provider in the answer');
      setProvider(found);
      return found;
    } catch (err) {
      if (seq !== detectSeq.current) return undefined;
      setProvider(null);
      throw err;
    } finally {
      if (seq === detectSeq.current) setDetecting(false);
    }
  }, []);

  // Typing an address triggers detection once the user pauses.
  useEffect(() => {
    if (!looksLikeAddress(email)) return;
    const timer = window.setTimeout(() => void detect(email), DETECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [email, detect]);

  /** Drops the provider and any answer still on its way; `known` counts as asked about already. */
  const reset = useCallback((known = '') => {
    detectSeq.current++;
    lastDetected.current = known.toLowerCase();
    setProvider(null);
    setDetecting(false);
  }, []);

  return { provider, detecting, detect, detectNow, reset };
}
