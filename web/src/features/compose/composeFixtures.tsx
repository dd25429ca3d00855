// Shared fixtures of the compose tests: a fake server with the routes every compose render touches,
// a render with a router entry that can carry location.state (undo send hands the mail back that
// way), a scriptable XMLHttpRequest for uploads, and small helpers to fill the form.

import { act, screen } from '@testing-library/react';
import { getNearestEditorFromDOMNode, type LexicalEditor } from 'lexical';
import { type Location } from 'react-router-dom';
import { vi } from 'vitest';
import type { ComposeContact, Template } from '../../api/outgoing';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import ComposePage from './ComposePage';
import { $exportHtml, $setHtml } from './editorHtml';
export { bodyOf, calls, toasts } from '../../test/helpers';

export type Fetch = ReturnType<typeof mockFetch>;
export type Handler = Parameters<typeof mockFetch>[0][string];

export const TEMPLATES: Template[] = [
  { id: 't1', name: 'תודה', subject: 'Re: {{original_subject}}', body: '<p>תודה רבה על פנייתך.</p>' },
  { id: 't2', name: 'פגישה', subject: 'תיאום פגישה', body: '<p>מתי נוח לך להיפגש?</p>' },
];

export const RECENT: ComposeContact[] = [
  { id: 'c1', name: 'יוסי לוי', email: 'yossi@example.test', count: 4, saved: false },
  { id: 'c2', name: '', email: 'office@example.test', count: 1, saved: false },
];

export const BOOK: ComposeContact[] = [
  { id: 'b1', name: 'רונית', email: 'ronit@example.test', count: 9, saved: true },
  { id: 'b2', name: 'Avi', email: 'avi@example.test', count: 3, saved: false },
];

export function composeServer(routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/templates': () => json(200, { templates: TEMPLATES }),
    'GET /api/compose/recent-contacts': () => json(200, { contacts: RECENT }),
    'GET /api/compose/address-book': (_init, url) => {
      const q = new URL(url, 'http://x').searchParams.get('q')?.toLowerCase() ?? '';
      return json(200, { contacts: BOOK.filter((c) => !q || c.name.toLowerCase().includes(q) || c.email.includes(q)) });
    },
    ...routes,
  });
}

export interface RenderedCompose {
  location: () => Location;
}

/** Renders the compose page at `route`, optionally with location.state (as undo send navigates). */
export function renderCompose(route = '/Compose', state?: unknown): RenderedCompose {
  signInAs();
  const [pathname, search = ''] = route.split('?');
  return renderWithProviders(<ComposePage />, { route: { pathname, search: search ? `?${search}` : '', state } });
}

export const chips = (within: ParentNode = document) =>
  Array.from(within.querySelectorAll<HTMLElement>('[data-testid="recipient-chip"]')).map((c) => c.dataset.email);

export const editor = () => screen.getByTestId('compose-editor');

/** The Lexical editor behind the compose body. */
export function lexical(): LexicalEditor {
  const found = getNearestEditorFromDOMNode(editor());
  if (!found) throw new Error('no editor on the compose body');
  return found;
}

/** The body's HTML, as the page sends it. */
export const bodyHtml = () => lexical().getEditorState().read($exportHtml);

/** Writes the body as the user's typing would (a user's edit, not the page's), and waits for it. */
export function typeBody(html: string) {
  act(() => lexical().update(() => $setHtml(html), { discrete: true }));
}

/**
 * XMLHttpRequest for uploads (api/outgoing.ts uploadAttachment): records each request and lets
 * the test report progress and answer it.
 */
export class FakeXHR {
  static requests: FakeXHR[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXHR.requests.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }

  static install() {
    FakeXHR.requests = [];
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
  }
}
