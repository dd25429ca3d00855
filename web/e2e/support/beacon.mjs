// A loopback "beacon" HTTP server for the hostile-HTML suite: hostile mails point their
// tracking pixels, stylesheets, scripts and refreshes at it, and the test asserts what reached
// it. Records every request (method, path, Referer) and every TCP connection, so even a bare
// preconnect with no request shows up. Answers images with a real 1x1 PNG, so a request the
// test expects (remote content the user chose to show) renders without errors.
import http from 'node:http';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAE/wH/1a3QXwAAAABJRU5ErkJggg==',
  'base64',
);

export async function startBeacon() {
  const hits = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method, path: req.url, referer: req.headers.referer ?? null, at: Date.now() });
    const path = req.url.split('?')[0];
    if (/\.(png|gif|jpe?g|cur)$/i.test(path)) {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      res.end(PNG);
    } else if (path.endsWith('.css')) {
      res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'no-store' });
      res.end('body { outline: 5px solid red }');
    } else if (path.endsWith('.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end("top.pwned = 'beacon-script'");
    } else {
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
    }
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise((res, rej) => {
    server.once('error', rej);
    server.listen(0, '127.0.0.1', res);
  });
  const { port } = server.address();
  return {
    port,
    /** host:port, what the fixtures' __BEACON__ placeholder becomes. */
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    hits,
    get connections() {
      return connections;
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((res) => server.close(() => res()));
    },
  };
}
