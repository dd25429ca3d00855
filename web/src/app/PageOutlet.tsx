// Picks the page for the current path with resolvePage (last segment, case-insensitive) and loads
// its module lazily, so the first load carries only the shell.

import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { he } from '../i18n/he';
import { resolvePage, type PageName } from './routes';

type PageModule = Promise<{ default: ComponentType }>;

const LOADERS: Record<PageName, () => PageModule> = {
  Inbox: () => import('../features/inbox/InboxPage'),
  Settings: () => import('../features/settings/SettingsPage'),
  PendingReplies: () => import('../features/drafts/PendingRepliesPage'),
  Compose: () => import('../features/compose/ComposePage'),
  SmartFeatures: () => import('../features/smart/SmartFeaturesPage'),
  AITraining: () => import('../features/aitraining/AITrainingPage'),
  Search: () => import('../features/search/SearchPage'),
  Contacts: () => import('../features/contacts/ContactsPage'),
  Tasks: () => import('../features/tasks/TasksPage'),
  Subscriptions: () => import('../features/subscriptions/SubscriptionsPage'),
  Snoozed: () => import('../features/snooze/SnoozedPage'),
  Rules: () => import('../features/rules/RulesPage'),
  // Builder's React SDK is in this page's chunk only: the inbox bundle does not carry it.
  BuilderPage: () => import('../features/builder/BuilderPage'),
};

const PAGES = Object.fromEntries(
  Object.entries(LOADERS).map(([name, load]) => [name, lazy(load)]),
) as Record<PageName, LazyExoticComponent<ComponentType>>;

/**
 * Loads a page's chunk ahead of its first render (main.tsx, for the page the app opens on): the
 * same import the lazy page makes, so it finds the module there. A failure is left to the render,
 * whose error boundary says so.
 */
export function preloadPage(page: PageName): void {
  LOADERS[page]().catch(() => undefined);
}

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
