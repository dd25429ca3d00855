// Root: hash router (the Rust server serves one index.html; everything after # is ours),
// SWR with the API fetcher, toasts, auth, and the route table.

import { lazy, Suspense } from 'react';
import { HashRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { swrFetcher } from '../api/client';
import LoginPage from '../features/auth/LoginPage';
import { he } from '../i18n/he';
import { AuthProvider, SessionScope } from '../session/AuthProvider';
import { Layout } from './Layout';
import { ConflictAlerts } from '../features/settings/sync/ConflictAlerts';
import { SettingsProvider } from '../features/settings/sync/SettingsProvider';
import { LiveUpdates } from './live/LiveUpdates';
import { PageOutlet } from './PageOutlet';
import { RequireAuth } from './RequireAuth';
import { StartupGlobalCheck } from './StartupGlobalCheck';
import { ToastProvider } from '../session/Toasts';
import { ServerConnectionBanner } from '../features/pwa/ServerConnectionBanner';
import { OfflineReading } from '../features/offline/OfflineReading';
import { readCachedPreferences } from '../features/settings/sync/prefs';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';

// Seen once per installation; not worth shipping in the first chunk.
const SetupPage = lazy(() => import('../features/auth/SetupPage'));

const swrOptions = {
  fetcher: swrFetcher,
  // The API's own errors are shown where they matter; SWR retrying a 4xx only adds noise.
  shouldRetryOnError: false,
};

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        path="/setup"
        element={
          <Suspense fallback={<p className="full-page-message" role="status">{he.app.loading}</p>}>
            <SetupPage />
          </Suspense>
        }
      />
      <Route
        path="*"
        element={
          <RequireAuth>
            <SessionScope>
              {/* The user's preferences, then one live channel per session feeding that
                  session's SWR cache and preferences. */}
              <SettingsProvider>
                <LiveUpdates>
                  <Layout>
                    <PageOutlet />
                    {/* Spec 001 §4: the household's mail settings, asked about once per session. */}
                    <StartupGlobalCheck />
                    {/* Spec 000 §9: a settings conflict is announced on every page. */}
                    <ConflictAlerts />
                  </Layout>
                </LiveUpdates>
              </SettingsProvider>
            </SessionScope>
          </RequireAuth>
        }
      />
    </Routes>
  );
}

/** The user's offlineMessages preference, as this device last had it from the server. */
const offlineMessages = () => readCachedPreferences().offlineMessages;

export function App() {
  return (
    <HashRouter>
      <SWRConfig value={swrOptions}>
        <ToastProvider>
          {/* Issue 39: a new deployed version waiting for the user's click; the server gone. */}
          <UpdatePrompt />
          <ServerConnectionBanner />
          <AuthProvider>
            {/* Issue 39: the mail kept in the browser, the actions queued offline and their conflicts. */}
            <OfflineReading mailCount={offlineMessages} />
            <AppRoutes />
          </AuthProvider>
        </ToastProvider>
      </SWRConfig>
    </HashRouter>
  );
}
