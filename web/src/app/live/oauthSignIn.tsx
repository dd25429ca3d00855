// A mailbox's OAuth2 sign-in stopped working (live event `oauth_sign_in_needed`, issue 24): the
// provider revoked the refresh token or it expired, and sync stopped retrying. A warning toast
// that stays until closed, with the server's Hebrew message, the address and a link to the
// settings page, where the account shows "sign in again" (kept in the bell's log); the browser's
// notification as desktopNotifications says. The caller re-reads the accounts.

import type { OAuthSignInNotice } from '../../api/generated';
import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import '../../styles/household.css';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

/** '{server message} ({address})', or the app's own words when the server said none. */
export function oauthSignInText(n: OAuthSignInNotice): string {
  const message = n.message.trim();
  return message ? `${message} (${n.email})` : he.alerts.oauthFor(n.email);
}

export function announceOAuthSignIn(
  notice: OAuthSignInNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'show'>,
): void {
  const text = oauthSignInText(notice);
  toast.show('warning', text, {
    duration: 0,
    render: (close) => (
      <div className="action-toast" data-testid="oauth-notice">
        <p dir="auto">{text}</p>
        <a href="#/Settings" className="button action-toast__button" onClick={close} data-testid="oauth-notice-settings">
          {he.alerts.oauthToSettings}
        </a>
      </div>
    ),
  });
  notifyDesktop(prefs.desktopNotifications, he.alerts.oauthTitle, text, `mailclient-oauth-${notice.email}`);
}
