import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import BuilderPage, { builderPath, isPreview } from './BuilderPage';
import { withSectionDefaults, withoutCode, withoutPixel } from './entry';

const configured = (entry: Record<string, unknown> | null, urlPath = '/BuilderPage') => ({
  configured: true,
  apiKey: 'k',
  editorUrl: 'https://builder.io/content',
  urlPath,
  entry,
});

function renderPage(route: string, content: () => Response, user = DANA) {
  signInAs(user);
  const fetch = mockFetch({ 'GET /api/builder/content': content });
  renderWithProviders(<BuilderPage />, { route });
  return fetch;
}

describe('builderPath and isPreview', () => {
  it('maps /builder to /builder-demo and keeps other paths', () => {
    expect(builderPath('/builder')).toBe('/builder-demo');
    expect(builderPath('/Builder/')).toBe('/builder-demo');
    expect(builderPath('/BuilderPage')).toBe('/BuilderPage');
    expect(builderPath('/about/builder')).toBe('/about/builder');
  });

  it('reads builder.preview=page from the route or the page query', () => {
    expect(isPreview('?builder.preview=page', '')).toBe(true);
    expect(isPreview('', '?builder.preview=page')).toBe(true);
    expect(isPreview('?builder.preview=other', '')).toBe(false);
    expect(isPreview('', '')).toBe(false);
  });
});

describe('withoutPixel', () => {
  it("turns the content API's tracking pixel into a hidden span, or adds one so the SDK adds none", () => {
    const pixel = { id: 'builder-pixel-abc', tagName: 'img', properties: { src: 'https://cdn.builder.io/api/v1/pixel' } };
    const out = withoutPixel([{ id: 'a' }, pixel]);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ id: 'builder-pixel-abc', tagName: 'span' });
    expect(JSON.stringify(out)).not.toContain('cdn.builder.io');
    const added = withoutPixel([{ id: 'a' }]);
    expect(added.map((b) => b.id)).toEqual(['a', 'builder-pixel-off']);
  });
});

describe('withoutCode', () => {
  it('drops the bindings, code and actions of blocks at any depth, and nothing else', () => {
    const el = (extra: Record<string, unknown>) => ({ '@type': '@builder.io/sdk:Element', ...extra });
    const blocks = [
      el({
        id: 'a',
        bindings: { 'component.options.text': 'state.x' },
        code: { bindings: {} },
        actions: { click: 'state.y = 1' },
        children: [el({ id: 'b', bindings: { x: 'y' } })],
        component: { name: 'Columns', options: { columns: [{ blocks: [el({ id: 'c', actions: { click: 'z' } })] }] } },
      }),
    ];
    const out = JSON.stringify(withoutCode(blocks));
    expect(out).not.toMatch(/bindings|actions|"code"/);
    expect(out).toContain('"id":"c"');
    // Not a block: kept as it is (e.g. a form's customHeaders named "code").
    expect(withoutCode({ code: 1 })).toEqual({ code: 1 });
  });
});

describe('withSectionDefaults', () => {
  it('gives a section without a max width 1200, at any depth, and keeps one that has it', () => {
    const section = (options: Record<string, unknown>, children: unknown[] = []) => ({
      '@type': '@builder.io/sdk:Element',
      component: { name: 'Core:Section', options },
      children,
    });
    const out = withSectionDefaults([section({}, [section({ maxWidth: 800 })])]) as ReturnType<typeof section>[];
    expect(out[0].component.options.maxWidth).toBe(1200);
    expect((out[0].children[0] as ReturnType<typeof section>).component.options.maxWidth).toBe(800);
  });
});

describe('BuilderPage states', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks our server for the path, shows the loading state, then empty with the editor button', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const fetch = renderPage('/BuilderPage', () => json(200, configured(null)));
    expect(screen.getByTestId('builder-loading')).toHaveTextContent('טוען');
    expect(await screen.findByTestId('builder-empty')).toHaveTextContent('אין עדיין תוכן לעמוד הזה');
    expect(String(fetch.mock.calls[0][0])).toBe('/api/builder/content?urlPath=%2FBuilderPage');
    fireEvent.click(screen.getByTestId('builder-open-editor'));
    expect(open).toHaveBeenCalledWith('https://builder.io/content', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it("shows the spec's error with the key explanation and asks again on 'נסה שוב'", async () => {
    let calls = 0;
    renderPage('/builder', () => {
      calls += 1;
      return json(502, { success: false, error: 'upstream_failed', message: 'השירות החזיר שגיאה (500)' });
    });
    const error = await screen.findByTestId('builder-error');
    expect(error).toHaveTextContent('שגיאה בטעינת תוכן מ-Builder.io: השירות החזיר שגיאה (500)');
    expect(error).toHaveTextContent('api_key');
    fireEvent.click(screen.getByRole('button', { name: 'נסה שוב' }));
    await waitFor(() => expect(calls).toBe(2));
  });

  it('tells the admin where to set the key, and a user whom to ask', async () => {
    const off = () => json(200, { ...configured(null), configured: false });
    renderPage('/BuilderPage', off);
    expect(await screen.findByTestId('builder-not-configured')).toHaveTextContent('MAILCLIENT_BUILDER_API_KEY');
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
    renderPage('/BuilderPage', off, { ...DANA, role: 'user' });
    const note = await screen.findByTestId('builder-not-configured');
    expect(note).toHaveTextContent('מנהל המערכת');
    expect(note).not.toHaveTextContent('api_key');
  });

  it('shows the edit-mode badge with ?builder.preview=page and asks past the cache', async () => {
    const fetch = renderPage('/builder?builder.preview=page', () => json(200, configured(null, '/builder-demo')));
    expect(screen.getByTestId('builder-preview-badge')).toHaveTextContent('מצב עריכה');
    await screen.findByTestId('builder-empty');
    expect(String(fetch.mock.calls[0][0])).toBe('/api/builder/content?urlPath=%2Fbuilder-demo&preview=true');
  });
});
