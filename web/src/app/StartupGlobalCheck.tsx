// The startup global-settings check (spec 001 §4, §9): about 2 s after the signed-in app starts
// it asks whether the household has mail settings; if so and this user has no mailbox connected,
// a success toast 'נמצאו הגדרות מייל גלובליות!' with a button to the settings page shows for 10 s.
// Failures are only logged (spec 001 §8). Mounted once per session (inside the session scope).

import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/client';
import { globalEmailExists } from '../api/household';
import { keys } from '../api/keys';
import type { MailAccountsResponse } from '../api/types';
import { he } from '../i18n/he';
import '../styles/household.css';
import { useToast } from '../session/Toasts';
import { showActionToast } from '../session/actionToast';

/** Spec 001 §9. */
export const STARTUP_CHECK_DELAY_MS = 2000;
export const STARTUP_TOAST_MS = 10_000;

const t = he.alerts;

export function StartupGlobalCheck() {
  const toast = useToast();
  const navigate = useNavigate();

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(async () => {
      try {
        const found = await globalEmailExists();
        if (!live || !found?.exists) return;
        const mine = await api<MailAccountsResponse>(keys.mailAccounts());
        if (!live || !Array.isArray(mine?.accounts) || mine.accounts.length > 0) return;
        showActionToast(toast, 'success', t.globalMailFound, STARTUP_TOAST_MS, {
          label: t.globalMailOpen,
          onAction: () => navigate('/Settings'),
          testId: 'startup-global-toast',
          buttonTestId: 'startup-global-open',
        });
      } catch (err) {
        console.warn('global mail settings check failed', err);
      }
    }, STARTUP_CHECK_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // Once per session: the session scope remounts this for the next one.
  }, []);

  return null;
}
