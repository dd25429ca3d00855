// A local stand-in for Builder.io's content API on loopback, answering as the real one does
// (GET /api/v3/content/page?apiKey=…&userAttributes.urlPath=…&limit=1 → { results: [entry] },
// entries shaped as the SDK's BuilderContent: id, name, modelId, published, data.blocks of
// "@builder.io/sdk:Element" with component.name/options and responsiveStyles). It also serves
// images (counted, to see lazy loading), a 404, a 500 and a slow answer, and records what
// forms post (Builder's /api/v1/form-submit and a custom action).
import { createServer } from 'node:http';

export const API_KEY = 'e2e-public-key';

/** A 1×1 PNG (the images' bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let n = 0;
const el = (component, options = {}, extra = {}) => ({
  '@type': '@builder.io/sdk:Element',
  '@version': 2,
  id: extra.id ?? `builder-${(n += 1).toString(16).padStart(6, '0')}`,
  component: { name: component, options },
  responsiveStyles: { large: { display: 'flex', flexDirection: 'column', position: 'relative', flexShrink: '0', boxSizing: 'border-box', marginTop: '20px', ...(extra.style ?? {}) } },
  ...(extra.children ? { children: extra.children } : {}),
  ...(extra.bindings ? { bindings: extra.bindings } : {}),
});

/** The demo page: text, columns, a section (its max width left to the default), images far down
 * (lazy), a video, a personalization container and a form. */
export function demoEntry(base) {
  const image = (name, lazy = true) =>
    el('Image', { image: `${base}/img/${name}.png`, backgroundSize: 'cover', backgroundPosition: 'center', lazy, aspectRatio: 0.5, altText: `תמונה ${name}` }, { style: { width: '300px' } });
  return {
    '@version': 2,
    id: 'e2e-demo-entry',
    name: 'עמוד הדגמה',
    modelId: 'e2e-page-model',
    published: 'published',
    meta: { kind: 'page', hasLinks: false, lastPreviewUrl: '' },
    query: [{ '@type': '@builder.io/core:Query', property: 'urlPath', operator: 'is', value: '/builder-demo' }],
    data: {
      title: 'עמוד הדגמה',
      url: '/builder-demo',
      inputs: [],
      state: { deviceSize: 'large', location: { path: '', query: {} } },
      // Its own rule, and a keylogger's: an attribute selector over the app's password inputs.
      cssCode:
        '& .e2e-scoped { color: rgb(0, 96, 0); } input[type="password"], body:has(.e2e-scoped) .e2e-probe { color: rgb(255, 0, 0); }',
      blocks: [
        // A data binding (JavaScript the SDK would evaluate; the page leaves it out, the CSP
        // has no 'unsafe-eval').
        el('Text', { text: '<h1>ברוכים הבאים לעמוד ההדגמה</h1><p class="e2e-scoped">תוכן בעברית מימין לשמאל, עם English ו-123.</p>' }, { id: 'block-heading', bindings: { 'component.options.text': 'state.greeting' } }),
        el('Columns', {
          columns: [
            { blocks: [el('Text', { text: '<p>עמודה ראשונה</p>' }, { id: 'col-1' })] },
            { blocks: [el('Text', { text: '<p>עמודה שנייה</p>' }, { id: 'col-2' })] },
          ],
          space: 20,
          stackColumnsAt: 'tablet',
        }, { id: 'block-columns' }),
        // A personalization container: the expired variant and the one for another path do not
        // show; the one whose query matches the page's path does (targeting is the SDK's).
        el('PersonalizationContainer', {
          variants: [
            { name: 'מבצע שהסתיים', query: [{ '@type': '@builder.io/core:Query', property: 'urlPath', operator: 'is', value: '/builder-demo' }], endDate: '2000-01-01T00:00:00.000Z', blocks: [el('Text', { text: '<p>מבצע שהסתיים</p>' }, { id: 'variant-expired' })] },
            { name: 'דף אחר', query: [{ '@type': '@builder.io/core:Query', property: 'urlPath', operator: 'startsWith', value: '/other' }], blocks: [el('Text', { text: '<p>גרסה לדף אחר</p>' }, { id: 'variant-other' })] },
            { name: 'דף ההדגמה', query: [{ '@type': '@builder.io/core:Query', property: 'urlPath', operator: 'endsWith', value: '-demo' }], blocks: [el('Text', { text: '<p>גרסה מותאמת לדף ההדגמה</p>' }, { id: 'variant-demo' })] },
          ],
        }, { id: 'block-personal', children: [el('Text', { text: '<p>תוכן ברירת מחדל</p>' }, { id: 'variant-default' })] }),
        el('Core:Section', { lazyLoad: false }, {
          id: 'block-section',
          style: { height: '1400px', backgroundColor: 'rgb(240, 244, 250)' },
          children: [el('Text', { text: '<p>מקטע ארוך: התמונות למטה נטענות רק כשגוללים אליהן.</p>' }, { id: 'section-text' })],
        }),
        image('far-1'),
        image('far-2'),
        el('Video', { video: `${base}/media/clip.mp4`, posterImage: `${base}/poster.png`, preload: 'none', lazyLoad: true, aspectRatio: 0.7004, controls: true, muted: true }, { id: 'block-video', style: { width: '300px' } }),
        el('Form:Form', {
          sendSubmissionsTo: 'custom',
          action: `${base}/custom-action`,
          contentType: 'application/json',
          method: 'POST',
          name: 'צור קשר',
          errorMessagePath: 'error.message',
          successMessage: [el('Text', { text: '<p>תודה! הפנייה התקבלה.</p>' }, { id: 'form-ok' })],
          errorMessage: [el('Text', { text: '<p>השליחה נכשלה.</p>' }, { id: 'form-bad' })],
        }, {
          id: 'block-form',
          children: [
            el('Form:Input', { name: 'name', type: 'text', required: true, placeholder: 'שם מלא' }, { id: 'input-name' }),
            el('Form:Input', { name: 'contact.email', type: 'email', required: true, placeholder: 'דואר' }, { id: 'input-email' }),
            el('Form:SubmitButton', { text: 'שליחה' }, { id: 'form-submit' }),
          ],
        }),
        // The content API ends the blocks with its tracking pixel (the page turns it off).
        {
          '@type': '@builder.io/sdk:Element',
          id: 'builder-pixel-e2e01',
          tagName: 'img',
          properties: { src: 'https://cdn.builder.io/api/v1/pixel?apiKey=e2e-public-key', role: 'presentation', width: '0', height: '0' },
          responsiveStyles: { large: { height: '0', width: '0', display: 'inline-block', opacity: '0', overflow: 'hidden', pointerEvents: 'none' } },
        },
      ],
    },
    variations: {},
    lastUpdated: 1764230400000,
    firstPublished: 1764230400000,
    createdDate: 1764230400000,
    testRatio: 1,
    rev: 'e2e',
  };
}

/**
 * Starts the stub. Paths: `/builder-demo` the demo page; `/missing` no entry (`results: []`);
 * paths under `/gone` 404, `/broken` 500, `/slow` answer after `slowMs`. `custom-action` answers 200, or
 * 422 with `{ error: { message } }` when the name is "שגיאה", and 1.5 s late for "איטי".
 */
export async function startBuilderStub({ slowMs = 2500 } = {}) {
  const requests = [];
  const submissions = [];
  const images = [];
  let base = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://stub');
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const json = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/poster.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
        return;
      }
      if (url.pathname.startsWith('/img/')) {
        images.push(url.pathname);
        res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
        res.end(PNG);
        return;
      }
      if (url.pathname === '/api/v3/content/page') {
        const path = url.searchParams.get('userAttributes.urlPath');
        requests.push({ path, apiKey: url.searchParams.get('apiKey'), query: url.search });
        if (url.searchParams.get('apiKey') !== API_KEY) return json(401, { message: 'Invalid API key' });
        if (path === '/builder-demo') return json(200, { results: [demoEntry(base)] });
        if (path.startsWith('/gone')) return json(404, { message: 'Not found' });
        if (path.startsWith('/broken')) return json(500, { message: 'Internal error' });
        if (path.startsWith('/slow')) {
          setTimeout(() => json(200, { results: [] }), slowMs);
          return;
        }
        return json(200, { results: [] });
      }
      if (url.pathname === '/custom-action' || url.pathname === '/api/v1/form-submit') {
        submissions.push({ path: url.pathname, method: req.method, query: Object.fromEntries(url.searchParams), contentType: req.headers['content-type'], body });
        let parsed = null;
        try {
          parsed = JSON.parse(body);
        } catch {
          /* not JSON */
        }
        if (parsed?.name === 'שגיאה') return json(422, { error: { message: 'השם הזה כבר רשום' } });
        if (parsed?.name === 'איטי') {
          setTimeout(() => json(200, { ok: true }), 1500);
          return;
        }
        return json(200, { ok: true });
      }
      json(404, { message: 'no such stub path' });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    requests,
    submissions,
    images,
    stop: () => new Promise((r) => server.close(r)),
  };
}
