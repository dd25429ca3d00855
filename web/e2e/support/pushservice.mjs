// A push service stand-in (issue 39) on loopback, speaking what a browser vendor's push service
// speaks to an application server: RFC 8030 (a POST of the message to the subscription's URL,
// 201 Created, TTL/Urgency/Topic headers, 404/410 for a subscription that is no more), RFC 8292
// (the `vapid t=<JWT>, k=<key>` authorization: an ES256 JWT whose signature, audience, expiry and
// subject are checked; 401/403 otherwise) and RFC 8291 (the aes128gcm body decrypted with the
// subscription's private key and auth secret, as the browser would). It is written with Node's
// own crypto, independently of the server's Rust code, and checks itself against the RFC's
// worked example (selfCheck). Each subscription is made here (newSubscription) as a browser would
// make one, so a test can hand its public part to the server.
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';

const b64u = (buf) => Buffer.from(buf).toString('base64url');
const unb64u = (s) => Buffer.from(s, 'base64url');

/** HKDF-SHA-256 (extract with `salt`, expand with `info`) to `len` bytes. */
const hkdf = (ikm, salt, info, len) => Buffer.from(hkdfSync('sha256', ikm, salt, info, len));

/** RFC 8291: the plaintext of an aes128gcm body for the key pair `ecdh` (Node ECDH) and `auth`. */
export function decrypt(body, ecdh, auth) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const uaPublic = ecdh.getPublicKey();
  const secret = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = hkdf(secret, auth, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record (no 0x02 delimiter)');
  return padded.subarray(0, end);
}

/** The stand-in's own decryption opens the RFC 8291 Appendix A message. */
export function selfCheck() {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(unb64u('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94'));
  const body = unb64u(
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
  );
  return decrypt(body, ecdh, unb64u('BTBZMqHH6r4Tts7J_aSIgg')).toString();
}

/** Checks a VAPID authorization for `audience`; the JWT's claims, or throws why not. */
export function checkVapid(header, audience, now = Math.floor(Date.now() / 1000)) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a vapid authorization: ${header}`);
  const [, token, k] = m;
  const [h, c, sig] = token.split('.');
  const head = JSON.parse(unb64u(h).toString());
  if (head.alg !== 'ES256') throw new Error(`alg ${head.alg}`);
  const key = unb64u(k);
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(key.subarray(1, 33)), y: b64u(key.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${c}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, unb64u(sig));
  if (!ok) throw new Error('bad signature');
  const claims = JSON.parse(unb64u(c).toString());
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud}, expected ${audience}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp}`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub}`);
  return { claims, k };
}

export async function startPushService() {
  if (selfCheck() !== 'When I grow up, I want to be a watermelon') throw new Error('the stand-in cannot decrypt');
  /** id → { ecdh, auth, status, messages: [{ note, headers, claims }], refused: [why] } */
  const subs = new Map();
  let origin = '';
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      const m = /^\/push\/([\w-]+)$/.exec(req.url ?? '');
      const sub = m && subs.get(m[1]);
      if (req.method !== 'POST' || !sub) {
        res.writeHead(404).end();
        return;
      }
      if (sub.status !== 201) {
        res.writeHead(sub.status).end();
        return;
      }
      try {
        const { claims } = checkVapid(req.headers.authorization, origin);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('content-encoding');
        if (!/^\d+$/.test(req.headers.ttl ?? '')) throw new Error('no TTL');
        const note = JSON.parse(decrypt(Buffer.concat(chunks), sub.ecdh, sub.auth).toString());
        sub.messages.push({ note, headers: req.headers, claims });
        res.writeHead(201, { Location: `${origin}/message/${sub.messages.length}` }).end();
      } catch (e) {
        sub.refused.push(String(e.message ?? e));
        res.writeHead(403).end();
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    url: origin,
    /** A subscription as a browser makes one: { id, endpoint, keys: { p256dh, auth } }. */
    newSubscription() {
      const id = b64u(randomBytes(9));
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subs.set(id, { ecdh, auth, status: 201, messages: [], refused: [] });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    /** The notes delivered to a subscription, decrypted. */
    messages: (id) => subs.get(id)?.messages ?? [],
    /** Why messages to it were refused (a bad token or body). */
    refused: (id) => subs.get(id)?.refused ?? [],
    /** What the service answers for the subscription from now on (410: gone). */
    setStatus(id, status) {
      subs.get(id).status = status;
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}
