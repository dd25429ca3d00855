// Picks the page for the current path with resolvePage (last segment, case-insensitive) and loads
// its module lazily, so the first load carries only the shell.

import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { he } from '../i18n/he';
import { resolvePage, type PageName } from './routes';

const PAGES: Record<PageName, LazyExoticComponent<ComponentType>> = {
  Inbox: lazy(() => import('../features/inbox/InboxPage')),
  Settings: lazy(() => import('../features/settings/SettingsPage')),
  PendingReplies: lazy(() => import('../features/drafts/PendingRepliesPage')),
  Compose: lazy(() => import('../features/compose/ComposePage')),
  SmartFeatures: lazy(() => import('../features/smart/SmartFeaturesPage')),
  AITraining: lazy(() => import('../features/aitraining/AITrainingPage')),
  Search: lazy(() => import('../features/search/SearchPage')),
  Contacts: lazy(() => import('../features/contacts/ContactsPage')),
  Tasks: lazy(() => import('../features/tasks/TasksPage')),
  Subscriptions: lazy(() => import('../features/subscriptions/SubscriptionsPage')),
  Snoozed: lazy(() => import('../features/snooze/SnoozedPage')),
  Rules: lazy(() => import('../features/rules/RulesPage')),
  // Builder's React SDK is in this page's chunk only: the inbox bundle does not carry it.
  BuilderPage: lazy(() => import('../features/builder/BuilderPage')),
};

export function PageOutlet() {
  const { pathname } = useLocation();
  const page = resolvePage(pathname);
  const Page = PAGES[page];
  return (
    <ErrorBoundary resetKey={page}>
      <Suspense
        fallback={
          <p className="page-loading" role="status">
            {he.app.loading}
          </p>
        }
      >
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}
